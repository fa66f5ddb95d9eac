import { describe, expect, it } from 'vitest';
import { accuracyTierTone, consensusTone, formatAccuracyRadius, networkTypeLabel, rttTone, verdictKey } from './badges.ts';
import { reservedPrivacy } from './privacy.ts';

describe('consensusTone', () => {
  it.each([
    [0, 'green'], [20, 'green'], [20.01, 'amber'], [50, 'amber'], [50.5, 'red'], [900, 'red'],
  ] as const)('gives %s km the %s badge', (km, tone) => expect(consensusTone(km)).toBe(tone));
});

describe('rttTone', () => {
  it.each([
    [0, 'green'], [49.9, 'green'], [50, 'yellow'], [120, 'yellow'], [200, 'yellow'], [200.1, 'red'], [900, 'red'],
  ] as const)('gives %s ms the %s badge', (ms, tone) => expect(rttTone(ms)).toBe(tone));
});

describe('accuracyTierTone', () => {
  it.each([
    ['high', 'green'], ['medium', 'amber'], ['low', 'red'], ['region', 'blue'], ['moderate', 'neutral'], ['', 'neutral'],
  ] as const)('styles tier %j as %s', (tier, tone) => expect(accuracyTierTone(tier)).toBe(tone));
});

describe('networkTypeLabel', () => {
  it.each([
    ['mobile', 'mobile'], ['business', 'business'], ['datacenter', 'datacenter'],
    ['residential', 'other'], ['private', 'other'], ['other', 'other'],
  ] as const)('shows %s as %s', (type, label) => expect(networkTypeLabel(type)).toBe(label));
});

describe('verdictKey (the most specific list wins)', () => {
  type Flag = boolean | null;
  const record = (tor: Flag, relay: Flag, vpn_detected: boolean) => ({ vpn_detected, privacy: { ...reservedPrivacy('Private network'), tor, relay } });
  it.each<[Flag, Flag, boolean, string]>([
    [true, true, true, 'torExit'],
    [true, false, false, 'torExit'],
    [false, true, true, 'privateRelay'],
    [null, true, false, 'privateRelay'],
    [false, false, true, 'vpnDetected'],
    [null, null, true, 'vpnDetected'],
    [false, false, false, 'noVpn'],
    [null, null, false, 'noVpn'],
  ])('tor %s, relay %s, VPN %s: %s', (tor, relay, vpn, key) => expect(verdictKey(record(tor, relay, vpn))).toBe(key));
});

describe('formatAccuracyRadius', () => {
  it.each([
    [5000, '5 km'], [1000, '1 km'], [1499, '1 km'], [1500, '2 km'], [10000, '10 km'], [22400, '22 km'],
    [100, '100 m'], [999, '999 m'], [176_000, '176 km'], [1_234_567, '1,235 km'],
    // No usable radius claims nothing: anywhere on Earth.
    [null, '20,015 km'], [undefined, '20,015 km'], [Number.NaN, '20,015 km'], [0, '20,015 km'],
    [-5, '20,015 km'], [Number.POSITIVE_INFINITY, '20,015 km'],
    // The smallest radius shown in metres and the first shown in kilometres.
    [1, '1 m'], [999.4, '999 m'], [999.5, '1 km'], [999.99, '1 km'], [1000.4, '1 km'],
  ] as const)('shows %s m as %j', (m, text) => expect(formatAccuracyRadius(m)).toBe(text));
});
