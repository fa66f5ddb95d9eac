import { expect, it } from 'vitest';
import { formatCoordinates, placeLine } from './place-line.ts';

it.each([
  [{ city: 'Paris', region: 'Île-de-France', country_name: 'France' }, 'Paris, Île-de-France, France'],
  [{ city: 'Unknown', region: 'Unknown', country_name: 'Germany' }, 'Germany'],
  [{ city: 'Singapore', region: 'Singapore', country_name: 'Singapore' }, 'Singapore'],
  [{ city: 'Unknown', region: 'Unknown', country_name: 'Unknown' }, ''],
])('writes %j as %j', (record, line) => expect(placeLine(record)).toBe(line));

it.each([
  [51.50722, -0.1275, '51.5072, -0.1275'],
  [0, 0, '0.0000, 0.0000'],
  [-33.86785, 151.20732, '-33.8678, 151.2073'],
])('shows %d, %d as %j', (lat, lon, text) => expect(formatCoordinates(lat, lon)).toBe(text));
