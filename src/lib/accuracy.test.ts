import { describe, expect, it } from 'vitest';
import { accuracyFor, decimalPlaces, riskLevel, type AccuracyEvidence } from './accuracy.ts';

describe('decimalPlaces', () => {
  it.each([
    [37, 0], [37.4, 1], [-122.08, 2], [37.422, 3], [51.5143, 4], [-0.0912244, 7], [0, 0], [NaN, 0],
  ])('counts the decimals of %d as %d', (value, places) => expect(decimalPlaces(value)).toBe(places));
});

describe('accuracyFor', () => {
  const base: AccuracyEvidence = {
    gps: false, vpnDetected: false, consensusKm: null, cityKnown: true, countryKnown: true, latitude: 51.5143, longitude: -0.0912,
  };
  it.each<[string, Partial<AccuracyEvidence>, string, number]>([
    ['a GPS fix wins over everything', { gps: true, vpnDetected: true, consensusKm: 300 }, 'high', 100],
    ['a detected VPN wins over close consensus', { vpnDetected: true, consensusKm: 1 }, 'low', 10_000],
    ['consensus 0 km: high, floor 1 km', { consensusKm: 0 }, 'high', 1000],
    ['consensus 5 km: high, floor 1 km', { consensusKm: 5 }, 'high', 1000],
    ['consensus 5.1 km: medium, floor 2 km', { consensusKm: 5.1 }, 'medium', 2000],
    ['consensus 15 km: medium, 200 x 15 m', { consensusKm: 15 }, 'medium', 3000],
    ['consensus 20 km: medium, 200 x 20 m', { consensusKm: 20 }, 'medium', 4000],
    ['consensus 20.1 km: moderate medium, floor 5 km', { consensusKm: 20.1 }, 'medium', 5000],
    ['consensus 48.1 km: medium, 200 x 48.1 m', { consensusKm: 48.1 }, 'medium', 9620],
    ['consensus 50 km: medium, 200 x 50 m', { consensusKm: 50 }, 'medium', 10_000],
    ['consensus 50.1 km: low, floor 10 km', { consensusKm: 50.1 }, 'low', 10_020],
    ['consensus 30 km apart is still judged by consensus', { consensusKm: 30, cityKnown: true }, 'medium', 6000],
    ['consensus 400 km: low, 200 x 400 m', { consensusKm: 400 }, 'low', 80_000],
    ['one city, 4 decimals on both: 1 km', {}, 'medium', 1000],
    ['one city, 4 and 3 decimals: 2 km', { longitude: -0.091 }, 'medium', 2000],
    ['one city, 3 decimals on both: 2 km', { latitude: 37.422, longitude: -122.085 }, 'medium', 2000],
    ['one city, 2 decimals: 5 km', { latitude: 37.42, longitude: -122.085 }, 'medium', 5000],
    ['only a country: region tier, 100 km', { cityKnown: false }, 'region', 100_000],
    ['nothing known: low, the default 5 km', { cityKnown: false, countryKnown: false }, 'low', 5000],
  ])('%s', (_, evidence, tier, radius) => {
    expect(accuracyFor({ ...base, ...evidence })).toEqual({ tier, radius });
  });
});

describe('riskLevel', () => {
  it.each([
    [true, 'high', 'high'], [true, 'low', 'high'], [false, 'low', 'medium'],
    [false, 'medium', 'low'], [false, 'high', 'low'], [false, 'region', 'low'],
  ] as const)('VPN %s with tier %s is %s risk', (vpn, tier, risk) => expect(riskLevel(vpn, tier)).toBe(risk));
});
