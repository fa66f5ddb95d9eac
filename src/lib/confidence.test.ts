import { describe, expect, it } from 'vitest';
import { confidenceScore, consensusBand, distanceConsensus, haversineKm, type ConfidenceEvidence } from './confidence.ts';

describe('haversineKm', () => {
  it.each([
    ['the same point', [51.5074, -0.1278, 51.5074, -0.1278], 0],
    ['London to Paris', [51.5074, -0.1278, 48.8566, 2.3522], 343.6],
    ['New York to Los Angeles', [40.7128, -74.006, 34.0522, -118.2437], 3935.7],
    ['across the antimeridian', [0, 179.5, 0, -179.5], 111.2],
    ['pole to pole', [90, 0, -90, 0], 20015.1],
  ] as const)('measures %s', (_, [a, b, c, d], km) => {
    expect(haversineKm(a, b, c, d)).toBeCloseTo(km, 0);
  });
});

describe('distanceConsensus', () => {
  const london = { city: 'London', latitude: 51.5074, longitude: -0.1278 };
  const bracknell = { city: 'Bracknell', latitude: 51.4136, longitude: -0.7505 };
  it.each([
    ['both sources name a city: km rounded to 0.1', london, bracknell, 44.4],
    ['the same city twice: 0', london, london, 0],
    ['the second source is silent: null', london, null, null],
    ['the first source is silent: null', null, london, null],
    ['one source names only a country: null', london, { city: '', latitude: 37.751, longitude: -97.822 }, null],
    ['the first source names only a country: null', { city: '', latitude: 37.751, longitude: -97.822 }, london, null],
    ['a source without coordinates: null', london, { city: 'Somewhere', latitude: NaN, longitude: NaN }, null],
  ] as const)('gives %s', (_, a, b, expected) => {
    expect(distanceConsensus(a, b)).toBe(expected);
  });
});

describe('confidenceScore', () => {
  const base: ConfidenceEvidence = { consensusKm: null, cityKnown: true, countryKnown: true, countriesDisagree: false };
  it.each<[string, Partial<ConfidenceEvidence>, number]>([
    ['a GPS fix within 50 m', { gpsAccuracyM: 20 }, 0.99],
    ['a GPS fix of exactly 50 m', { gpsAccuracyM: 50 }, 0.99],
    ['a GPS fix of 50.1 m', { gpsAccuracyM: 50.1 }, 0.97],
    ['a GPS fix within 500 m', { gpsAccuracyM: 300 }, 0.97],
    ['a GPS fix of exactly 500 m', { gpsAccuracyM: 500 }, 0.97],
    ['a GPS fix of 500.1 m', { gpsAccuracyM: 500.1 }, 0.95],
    ['a coarse GPS fix, even with sources far apart', { gpsAccuracyM: 3000, consensusKm: 400 }, 0.95],
    ['sources 0 km apart', { consensusKm: 0 }, 0.9],
    ['sources exactly 5 km apart', { consensusKm: 5 }, 0.9],
    ['sources 5.1 km apart', { consensusKm: 5.1 }, 0.8],
    ['sources exactly 20 km apart', { consensusKm: 20 }, 0.8],
    ['sources 20.1 km apart', { consensusKm: 20.1 }, 0.7],
    ['sources exactly 50 km apart', { consensusKm: 50 }, 0.7],
    ['sources 50.1 km apart', { consensusKm: 50.1 }, 0.5],
    ['only one source naming a city', {}, 0.6],
    ['sources naming different countries', { countriesDisagree: true }, 0.5],
    ['only a country', { cityKnown: false }, 0.4],
    ['nothing at all', { cityKnown: false, countryKnown: false }, 0.3],
  ])('scores %s', (_, evidence, score) => {
    expect(confidenceScore({ ...base, ...evidence })).toBe(score);
  });

  it('never rises as sources drift apart', () => {
    let previous = Infinity;
    for (let km = 0; km <= 500; km += 0.1) {
      const score = confidenceScore({ ...base, consensusKm: Math.round(km * 10) / 10 });
      expect(score).toBeLessThanOrEqual(previous);
      previous = score;
    }
  });
});

describe('consensusBand', () => {
  it.each([
    [0, 0], [5, 0], [5.1, 1], [20, 1], [20.1, 2], [50, 2], [50.1, 3], [200, 3], [200.1, 4], [19_000, 4],
  ])('puts %d km in band %d', (km, band) => expect(consensusBand(km)).toBe(band));
});
