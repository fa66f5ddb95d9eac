import { describe, expect, it, vi } from 'vitest';
import { fallbackCandidate, queryLength } from './city-search.ts';
import type { LookupResponse } from './record.ts';
import { applyCorrection, candidateLine, correctionFrom, PlaceCorrectionSchema, verificationBadge, type PlaceCorrection } from './verification.ts';

describe('verificationBadge (first match wins)', () => {
  type Record = Parameters<typeof verificationBadge>[0];
  const ip: Record = { location_source: 'ip', confidence_score: 0.5, vpn_detected: false };
  it.each<[string, Partial<Record>, string, string]>([
    ['GPS wins over everything, a VPN too', { location_source: 'hybrid', confidence_score: 0.3, vpn_detected: true }, 'highAccuracy', 'green'],
    ['confidence just above 0.8', { confidence_score: 0.81 }, 'goodAccuracy', 'green'],
    ['confidence above 0.8 wins over a VPN', { confidence_score: 0.9, vpn_detected: true }, 'goodAccuracy', 'green'],
    ['confidence exactly 0.8 is not above it', { confidence_score: 0.8 }, 'approximate', 'amber'],
    ['confidence 0.8 with a VPN', { confidence_score: 0.8, vpn_detected: true }, 'vpnDetected', 'red'],
    ['cached is not GPS', { location_source: 'cached', confidence_score: 0.5 }, 'approximate', 'amber'],
    ['nothing applies', {}, 'approximate', 'amber'],
  ])('%s: %s, %s', (_, record, badge, tone) => {
    expect(verificationBadge({ ...ip, ...record })).toEqual({ badge, tone });
  });
});

describe('fallbackCandidate', () => {
  it.each<[string, string, boolean, string, number]>([
    ['the text before the first comma when the server answered an error', 'Springfield, Illinois, US', false, 'Springfield', 0.5],
    ['the whole text when the server could not be reached', 'Springfield, Illinois', true, 'Springfield, Illinois', 0.3],
    ['trimmed', '  Ulm  ', false, 'Ulm', 0.5],
  ])('%s', (_, query, unreachable, city, confidence) => {
    expect(fallbackCandidate(query, unreachable)).toEqual({
      city, region: 'Unknown Region', country: 'Unknown', country_code: 'Unknown', latitude: 0, longitude: 0, confidence, population: null,
    });
  });
});

describe('queryLength (the 3-character rule counts what the visitor sees)', () => {
  it.each([['lo', 2], [' lo ', 2], ['lon', 3], ['😀😀', 2], ['é', 1], ['', 0]])('%j has %i', (q, n) => {
    expect(queryLength(q)).toBe(n);
  });
});

describe('PlaceCorrectionSchema (a stored correction is read back only with coordinates on Earth)', () => {
  const stored = { ip: '203.0.113.9', city: 'Munich', region: 'Bavaria', country: 'Germany', country_code: 'DE', latitude: 48.1, longitude: 11.6, verified: true };
  it.each([
    [90, 180, true], [-90, -180, true], [0, 0, true],
    [90.001, 11.6, false], [-90.001, 11.6, false], [48.1, 180.001, false], [48.1, -180.001, false],
  ])('latitude %s, longitude %s: valid %s', (latitude, longitude, valid) => {
    expect(PlaceCorrectionSchema.safeParse({ ...stored, latitude, longitude }).success).toBe(valid);
  });
  it('reads a correction stored before the population was kept, and one that has it', () => {
    expect(PlaceCorrectionSchema.safeParse(stored).success).toBe(true);
    expect(PlaceCorrectionSchema.safeParse({ ...stored, population: 1_260_391 }).success).toBe(true);
    expect(PlaceCorrectionSchema.safeParse({ ...stored, population: null }).success).toBe(true);
    expect(PlaceCorrectionSchema.safeParse({ ...stored, population: 'many' }).success).toBe(false);
  });
  it('rejects a record without the verified flag', () => {
    expect(PlaceCorrectionSchema.safeParse({ ...stored, verified: undefined }).success).toBe(false);
  });
});

describe('candidateLine', () => {
  it.each([
    [{ city: 'Munich', region: 'Bavaria', country: 'Germany' }, 'Munich, Bavaria, Germany'],
    // The city search's 'Unknown Region' is left out like the record's 'Unknown'.
    [{ city: 'Munich', region: 'Unknown Region', country: 'Germany' }, 'Munich, Germany'],
    [{ city: 'Ulm', region: 'Unknown Region', country: 'Unknown' }, 'Ulm'],
  ])('writes %j as %j', (candidate, line) => expect(candidateLine(candidate)).toBe(line));
});

describe('applyCorrection', () => {
  const record = {
    success: true, confidence: 0.6, sources_used: [], device: null,
    data: {
      ip: '203.0.113.9', city: 'Frankfurt am Main', region: 'Hesse', country: 'DE', country_name: 'Germany', country_code: 'DE',
      postal: '60313', latitude: 50.11, longitude: 8.68, timezone: 'Europe/Berlin', isp: 'ISP', asn: 'AS1',
    },
  } as unknown as LookupResponse;
  const munich = { city: 'Munich', region: 'Bavaria', country: 'Germany', country_code: 'DE', latitude: 48.13743, longitude: 11.57549, confidence: 0.9, population: 1 };

  it("keeps the chosen city's population, which sizes it", () => {
    expect(correctionFrom('203.0.113.9', { ...munich, population: 1_260_391 }, true).population).toBe(1_260_391);
    expect(correctionFrom('203.0.113.9', fallbackCandidate('Ulm', false), false).population).toBeNull();
  });
  it('a verified city replaces the place and drops the postal code, keeping the network', () => {
    const shown = applyCorrection(record, correctionFrom('203.0.113.9', munich, true)).data;
    expect(shown).toMatchObject({ city: 'Munich', region: 'Bavaria', country_name: 'Germany', country_code: 'DE', latitude: 48.13743, longitude: 11.57549, postal: 'Unknown', isp: 'ISP', timezone: 'Europe/Berlin' });
  });
  it("an unverified city replaces the name only: no coordinates to move to", () => {
    const shown = applyCorrection(record, correctionFrom('203.0.113.9', fallbackCandidate('Ulm', false), false)).data;
    expect(shown).toMatchObject({ city: 'Ulm', region: 'Unknown', country: 'DE', country_name: 'Germany', country_code: 'DE', latitude: 50.11, longitude: 8.68, postal: 'Unknown' });
  });
  it('a verified city in another country moves every country field with it', () => {
    const vienna = { city: 'Vienna', region: 'Vienna', country: 'Austria', country_code: 'AT', latitude: 48.20849, longitude: 16.37208, confidence: 0.9, population: 1 };
    const shown = applyCorrection(record, correctionFrom('203.0.113.9', vienna, true)).data;
    expect(shown).toMatchObject({ city: 'Vienna', region: 'Vienna', country: 'AT', country_name: 'Austria', country_code: 'AT', latitude: 48.20849, longitude: 16.37208, postal: 'Unknown', asn: 'AS1' });
  });
  it("'Unknown Region' is shown as the record's Unknown", () => {
    const shown = applyCorrection(record, correctionFrom('203.0.113.9', { ...munich, region: 'Unknown Region' }, true)).data;
    expect(shown.region).toBe('Unknown');
  });
  it("writes the record's 'Unknown' for what a correction drops (a fresh copy: the word is set when the module loads)", async () => {
    vi.resetModules();
    const fresh = await import('./verification.ts');
    const verified = fresh.applyCorrection(record, fresh.correctionFrom('203.0.113.9', { ...munich, region: 'Unknown Region' }, true)).data;
    expect([verified.region, verified.postal]).toEqual(['Unknown', 'Unknown']);
    const unverified = fresh.applyCorrection(record, fresh.correctionFrom('203.0.113.9', fallbackCandidate('Ulm', false), false)).data;
    expect([unverified.region, unverified.postal]).toEqual(['Unknown', 'Unknown']);
  });
  it('a correction of another address changes nothing', () => {
    const other: PlaceCorrection = correctionFrom('203.0.113.10', munich, true);
    expect(applyCorrection(record, other)).toBe(record);
    expect(applyCorrection(record, null)).toBe(record);
  });
});
