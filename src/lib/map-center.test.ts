import { describe, expect, it } from 'vitest';
import { formatCoordinates, mapCenter } from './map-center.ts';

const NYC = { lat: 40.7128, lng: -74.006 };

describe('mapCenter', () => {
  it.each([
    [48.8566, 2.3522, { lat: 48.8566, lng: 2.3522 }],
    [-33.8688, 151.2093, { lat: -33.8688, lng: 151.2093 }],
    [0, 10, { lat: 0, lng: 10 }],
    [Number.NaN, 2, NYC],
    [48, Number.NaN, NYC],
    [undefined, 2, NYC],
    ['48.8', 2, NYC],
    [null, null, NYC],
    [0, 0, NYC],
    // Only both zero means unknown: the equator and the prime meridian are places.
    [10, 0, { lat: 10, lng: 0 }],
    // The poles and the antimeridian are on the map; one step beyond is not.
    [90, 10, { lat: 90, lng: 10 }],
    [-90, 10, { lat: -90, lng: 10 }],
    [48, 180, { lat: 48, lng: 180 }],
    [48, -180, { lat: 48, lng: -180 }],
    [-90.0001, 10, NYC],
    [48, -180.0001, NYC],
    [91, 2, NYC],
    [48, 181, NYC],
    [Number.POSITIVE_INFINITY, 2, NYC],
  ])('centres %j, %j on %j', (lat, lng, center) => expect(mapCenter(lat, lng)).toEqual(center));
});

describe('formatCoordinates', () => {
  it.each([
    [48.8566, 2.3522, '48.856600, 2.352200'],
    [-33.86881234567, 151.2, '-33.868812, 151.200000'],
  ])('writes %s, %s as %j', (lat, lng, text) => expect(formatCoordinates(lat, lng)).toBe(text));
});
