import { describe, expect, it } from 'vitest';
import { accuracyCell, accuracyFor, riskLevel, tierOf, TIER_MAX_KM, UNKNOWN_RADIUS_M, type AccuracyEvidence } from './accuracy.ts';
import { RADIUS_KM } from './accuracy-model.ts';

const base: AccuracyEvidence = { vpnDetected: false, consensusKm: null, cityKnown: true, bigCity: false, countryKnown: true };
const m = (km: number) => Math.round(km * 1000);

describe('accuracyFor: the radius is the fitted model row the evidence falls in', () => {
  it.each<[string, Partial<AccuracyEvidence>, number]>([
    ['consensus 0 km: the first band', { consensusKm: 0 }, RADIUS_KM.consensus[0]!],
    ['consensus exactly 5 km: still the first band', { consensusKm: 5 }, RADIUS_KM.consensus[0]!],
    ['consensus 5.1 km: the second band', { consensusKm: 5.1 }, RADIUS_KM.consensus[1]!],
    ['consensus exactly 20 km: the second band', { consensusKm: 20 }, RADIUS_KM.consensus[1]!],
    ['consensus 20.1 km: the third band', { consensusKm: 20.1 }, RADIUS_KM.consensus[2]!],
    ['consensus exactly 50 km: the third band', { consensusKm: 50 }, RADIUS_KM.consensus[2]!],
    ['consensus 50.1 km: the fourth band', { consensusKm: 50.1 }, RADIUS_KM.consensus[3]!],
    ['consensus exactly 200 km: the fourth band', { consensusKm: 200 }, RADIUS_KM.consensus[3]!],
    ['consensus 200.1 km: the last band', { consensusKm: 200.1 }, RADIUS_KM.consensus[4]!],
    ['consensus 5,000 km (another continent): the last band', { consensusKm: 5000 }, RADIUS_KM.consensus[4]!],
    ['a big city does not change a consensus row', { consensusKm: 3, bigCity: true }, RADIUS_KM.consensus[0]!],
    ['no consensus, one city of a million or more', { bigCity: true }, RADIUS_KM.oneBigCity],
    ['no consensus, one smaller city', {}, RADIUS_KM.oneCity],
    ['only a country', { cityKnown: false }, RADIUS_KM.country],
    ['nothing known: anywhere on Earth', { cityKnown: false, countryKnown: false }, UNKNOWN_RADIUS_M / 1000],
    ['a detected VPN keeps the radius of its exit\'s place', { vpnDetected: true, consensusKm: 1 }, RADIUS_KM.consensus[0]!],
  ])('%s', (_, evidence, km) => {
    expect(accuracyFor({ ...base, ...evidence }).radius).toBe(m(km));
  });

  it('puts the address in the row the bench reports it under', () => {
    expect([accuracyCell({ ...base, consensusKm: 20.1 }), accuracyCell({ ...base, bigCity: true }), accuracyCell({ ...base, cityKnown: false })])
      .toEqual([2, 'oneBigCity', 'country']);
  });

  it.each<[string, number | undefined, number]>([
    ['a source radius wider than the model\'s widens it', RADIUS_KM.oneCity + 100, RADIUS_KM.oneCity + 100],
    ['a narrower one does not narrow it', 1, RADIUS_KM.oneCity],
    ['no source radius (NaN) leaves the model\'s', NaN, RADIUS_KM.oneCity],
  ])('%s', (_, sourceRadiusKm, km) => {
    expect(accuracyFor({ ...base, sourceRadiusKm }).radius).toBe(m(km));
  });
});

describe('accuracyFor: a GPS fix keeps the browser\'s own accuracy', () => {
  it.each<[string, number, number, string]>([
    ['a 12 m fix', 12, 12, 'high'],
    ['a 0 m fix is shown as 1 m, never as no radius', 0, 1, 'high'],
    ['a fractional fix is rounded', 30.4, 30, 'high'],
    ['a fix of exactly 25 km is still high', 25_000, 25_000, 'high'],
    ['a coarse 30 km fix (no GPS chip) is medium', 30_000, 30_000, 'medium'],
    ['a 150 km fix is low', 150_000, 150_000, 'low'],
  ])('%s', (_, accuracy, radius, tier) => {
    expect(accuracyFor({ ...base, gpsAccuracyM: accuracy, vpnDetected: true, consensusKm: 400 })).toEqual({ radius, tier });
  });
});

describe('accuracy tiers follow the radius', () => {
  it.each([
    [1, 'high'], [TIER_MAX_KM.high * 1000, 'high'], [TIER_MAX_KM.high * 1000 + 1, 'medium'],
    [TIER_MAX_KM.medium * 1000, 'medium'], [TIER_MAX_KM.medium * 1000 + 1, 'low'], [UNKNOWN_RADIUS_M, 'low'],
  ] as const)('gives %d m the tier %s', (radius, tier) => expect(tierOf(radius)).toBe(tier));

  it.each<[string, Partial<AccuracyEvidence>, string]>([
    ['a city', { consensusKm: 1 }, tierOf(m(RADIUS_KM.consensus[0]!))],
    ['only a country: region, whatever its radius', { cityKnown: false }, 'region'],
    ['nothing known: low', { cityKnown: false, countryKnown: false }, 'low'],
    ['a detected VPN: low, however close the sources (the place is the exit\'s)', { vpnDetected: true, consensusKm: 0 }, 'low'],
  ])('%s', (_, evidence, tier) => expect(accuracyFor({ ...base, ...evidence }).tier).toBe(tier));
});

describe('riskLevel', () => {
  it.each([
    [true, 'high', 'high'], [true, 'low', 'high'], [false, 'low', 'medium'],
    [false, 'medium', 'low'], [false, 'high', 'low'], [false, 'region', 'low'],
  ] as const)('VPN %s with tier %s is %s risk', (vpn, tier, risk) => expect(riskLevel(vpn, tier)).toBe(risk));
});
