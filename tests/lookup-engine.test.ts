// The lookup engine on the real bundled databases (no mocks): what a caller of lookup()
// sees for well-known addresses, reserved ones, browser signals, and missing databases.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LookupResponseSchema } from '../src/lib/record.ts';
import { createEngine, engineFrom, InvalidIpError, type Engine, type LookupContext } from '../src/server/lookup/engine.ts';
import { openSources, type Sources } from '../src/server/lookup/sources.ts';
import table from '../src/server/lookup/network-types.json' with { type: 'json' };
import { writeMmdb } from './fixtures/mmdb-writer.ts';

let sources: Sources;
let engine: Engine;

beforeAll(async () => {
  ({ sources } = await openSources());
  engine = engineFrom(sources);
}, 60_000);

afterEach(() => vi.restoreAllMocks());

const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
const browser = (extra: LookupContext = {}): LookupContext => ({ headers: { get: (n) => (n.toLowerCase() === 'user-agent' ? CHROME : null) }, ...extra });

describe('public addresses', () => {
  it('answers 8.8.8.8 as AS15169 Google in the US, from all three sources, in the shared record shape', () => {
    const response = engine.lookup('8.8.8.8');
    expect(LookupResponseSchema.parse(response)).toEqual(response);
    expect(response.data).toMatchObject({
      ip: '8.8.8.8', ip_version: 'ipv4', asn: 'AS15169', asn_org: 'Google LLC', isp: 'Google LLC', org: 'Google LLC',
      country: 'US', country_code: 'US', country_name: 'United States', network_type: 'business', reserved: null,
      location_source: 'ip', rtt_ms: null,
    });
    expect(response.sources_used).toEqual(['dbip-city', 'geolite2-city', 'asn']);
    expect(response.confidence).toBe(response.data.confidence_score);
    expect(engine.sources).toEqual(['dbip-city', 'geolite2-city', 'asn']);
  });

  it('answers 1.1.1.1 as AS13335 Cloudflare, a datacenter network', () => {
    const { data } = engine.lookup('1.1.1.1');
    expect(data).toMatchObject({ asn: 'AS13335', asn_org: 'Cloudflare, Inc.', network_type: 'datacenter' });
    expect(data.vpn.indicators).toContain('Datacenter IP detected');
  });

  it('answers 2001:4860:4860::8888 as AS15169 over IPv6', () => {
    expect(engine.lookup('2001:4860:4860::8888').data).toMatchObject({ ip: '2001:4860:4860::8888', ip_version: 'ipv6', asn: 'AS15169' });
  });

  it('answers an IPv4-mapped IPv6 address exactly as the IPv4 address', () => {
    expect(engine.lookup('::ffff:8.8.8.8')).toEqual(engine.lookup('8.8.8.8'));
    expect(engine.lookup(' 2001:4860:4860:0:0:0:0:8888 ').data.ip).toBe('2001:4860:4860::8888');
  });

  it('measures the distance between the two sources and derives confidence and accuracy from it', () => {
    // DB-IP and GeoLite2 both place 5.255.255.5 (Yandex) in Moscow, a few km apart.
    const { data } = engine.lookup('5.255.255.5');
    expect(data.city).toBe('Moscow');
    expect(data.distance_consensus).toBeGreaterThanOrEqual(0);
    expect(data.distance_consensus).toBeLessThanOrEqual(5);
    expect(data).toMatchObject({ confidence_score: 0.9, accuracy_tier: 'high', accuracy_radius: 1000, risk_level: 'low', timezone: 'Europe/Moscow' });
  });

  it.each([
    ['a DigitalOcean', '104.131.0.1', 'AS14061'],
    ['an AWS', '3.5.140.2', 'AS16509'],
  ])('reports %s address as datacenter, and as a VPN once the browser clock disagrees', (_, ip, asn) => {
    const alone = engine.lookup(ip).data;
    expect(alone).toMatchObject({ asn, network_type: 'datacenter' });
    // Spec section 5: the datacenter row weighs 0.4 and detection needs more than 0.4.
    expect(alone.vpn).toMatchObject({ detected: false, confidence: 0.4, indicators: ['Datacenter IP detected'] });
    expect(alone.vpn.reasons[0]).toMatch(/hosting, cloud or relay network \(by its AS number\)/);
    expect(alone.privacy).toMatchObject({ hosting: true, vpn: null, tor: null, relay: null, proxy: null });

    const zone = alone.timezone === 'Pacific/Auckland' ? 'Europe/London' : 'Pacific/Auckland';
    const judged = engine.lookup(ip, browser({ clientInfo: { timezone: zone } })).data;
    expect(judged).toMatchObject({ vpn_detected: true, risk_level: 'high', accuracy_tier: 'low', accuracy_radius: 10_000 });
    expect(judged.vpn).toMatchObject({ detected: true, confidence: 0.7, indicators: ['Timezone mismatch', 'Datacenter IP detected'] });
    expect(judged.vpn.reasons[0]).toBe(`Your browser says ${zone}, this address is in ${alone.timezone}.`);
  });

  it('knows every curated ASN in the ASN data (no typos in network-types.json)', () => {
    const known = new Set<number>();
    for (let row = 0; row < sources.asn!.v4Count + sources.asn!.v6Count; row++) known.add(sources.asn!.asn(row));
    const listed = Object.values(table.asns).flatMap((group) => Object.keys(group)).filter((k) => /^\d+$/.test(k)).map(Number);
    expect(listed.length).toBeGreaterThan(100);
    expect(listed.filter((asn) => !known.has(asn))).toEqual([]);
  });
});

describe('reserved addresses', () => {
  it.each([
    ['127.0.0.1', 'Loopback'], ['10.0.0.1', 'Private network'], ['192.168.1.1', 'Private network'], ['::1', 'Loopback'],
    ['100.64.1.1', 'Carrier-grade NAT'], ['fe80::1%eth0', 'Link-local'], ['198.51.100.7', 'Documentation'],
  ])('answers %s as "%s" without a lookup', (ip, kind) => {
    const response = engine.lookup(ip);
    expect(LookupResponseSchema.parse(response)).toEqual(response);
    expect(response.data).toMatchObject({
      reserved: kind, isp: kind, org: kind, network_type: 'private', city: 'Unknown', country: 'Unknown', asn: 'Unknown',
      latitude: 0, longitude: 0, vpn_detected: false, confidence_score: 0.3,
    });
    expect(response.sources_used).toEqual([]);
  });
});

describe('invalid input', () => {
  it.each(['', '   ', 'nope', '999.1.1.1', '1.2.3', '01.2.3.4', '8.8.8.8/24', '::1::', '1:2:3:4:5:6:7:8:9', 'fe80::1%bad/zone', '<script>'])(
    'throws InvalidIpError for %j', (input) => expect(() => engine.lookup(input)).toThrow(InvalidIpError));

  it('throws InvalidIpError, not a TypeError, for a non-string from an untyped caller', () => {
    expect(() => engine.lookup(undefined as unknown as string)).toThrow(InvalidIpError);
  });
});

describe('browser signals', () => {
  it('makes the record hybrid with a GPS fix: GPS coordinates, high accuracy 100 m, confidence 0.95 or more', () => {
    const { data } = engine.lookup('8.8.8.8', { browserLocation: { lat: 48.8584, lng: 2.2945, accuracy: 30 } });
    expect(data).toMatchObject({ location_source: 'hybrid', latitude: 48.8584, longitude: 2.2945, accuracy_tier: 'high', accuracy_radius: 100 });
    expect(data.confidence_score).toBeGreaterThanOrEqual(0.95);
  });

  it('ignores a GPS fix with impossible coordinates', () => {
    const { data } = engine.lookup('8.8.8.8', { browserLocation: { lat: 123, lng: 2, accuracy: 30 } });
    expect(data.location_source).toBe('ip');
  });

  it('detects a WebRTC leak of another public address, and only that', () => {
    const leaked = engine.lookup('8.8.8.8', { webrtc: { candidates: ['192.168.0.7', '9.9.9.9', 'abc.local'] } }).data;
    expect(leaked.vpn).toMatchObject({ detected: true, confidence: 0.5, indicators: ['WebRTC IP leak detected'] });
    const clean = engine.lookup('8.8.8.8', { webrtc: { candidates: ['192.168.0.7', '8.8.8.8', 'abc.local'] } }).data;
    expect(clean.vpn.detected).toBe(false);
  });

  it('flags a timezone mismatch only when the clocks differ', () => {
    expect(engine.lookup('5.255.255.5', { clientInfo: { timezone: 'Europe/Moscow' } }).data.vpn.indicators).toEqual([]);
    expect(engine.lookup('5.255.255.5', { clientInfo: { timezone: 'America/New_York' } }).data.vpn.indicators).toEqual(['Timezone mismatch']);
    expect(engine.lookup('5.255.255.5', { clientInfo: { timezone: 'Not/AZone' } }).data.vpn.indicators).toEqual([]);
  });

  it('describes the device from the User-Agent, and has none without one', () => {
    expect(engine.lookup('8.8.8.8', browser()).device).toMatchObject({ browser: 'Chrome', os: 'Windows', device: 'Desktop', bot: false });
    expect(engine.lookup('8.8.8.8', { clientInfo: { userAgent: 'curl/8.5.0' } }).device).toMatchObject({ bot: true });
    expect(engine.lookup('8.8.8.8').device).toBeNull();
  });

  it('lets request headers shape the device only, never the record (the /json memo relies on it)', () => {
    const headers = (values: Record<string, string>): LookupContext => ({ headers: { get: (n) => values[n.toLowerCase()] ?? null } });
    const contexts = [
      browser(),
      headers({ 'user-agent': 'curl/8.5.0', 'accept-language': 'ru-RU' }),
      headers({ 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) Mobile/15E148', 'sec-ch-ua-mobile': '?1', 'x-forwarded-for': '9.9.9.9' }),
    ];
    for (const ip of ['8.8.8.8', '5.255.255.5', '2001:4860:4860::8888', '10.0.0.1']) {
      const bare = engine.lookup(ip).data;
      for (const ctx of contexts) expect(engine.lookup(ip, ctx).data, ip).toEqual(bare);
    }
  });
});

describe('missing or broken databases', () => {
  it('without the second source: fewer sources, no consensus, lower confidence', () => {
    const full = engine.lookup('5.255.255.5').data;
    const partial = engineFrom({ primary: sources.primary, asn: sources.asn }).lookup('5.255.255.5');
    expect(partial.sources_used).toEqual(['dbip-city', 'asn']);
    expect(partial.data).toMatchObject({ city: 'Moscow', distance_consensus: null, confidence_score: 0.6 });
    expect(partial.data.confidence_score).toBeLessThan(full.confidence_score);
  });

  it('without DB-IP, the second source answers alone', () => {
    const response = engineFrom({ second: sources.second, asn: sources.asn }).lookup('5.255.255.5');
    expect(response.sources_used).toEqual(['geolite2-city', 'asn']);
    expect(response.data).toMatchObject({ city: 'Moscow', country_name: 'Russia', confidence_score: 0.6 });
  });

  it('with no database at all, gives the spec fallback record', () => {
    const response = engineFrom({}).lookup('8.8.8.8');
    expect(response.sources_used).toEqual([]);
    expect(response.data).toMatchObject({
      city: 'Unknown', country_name: 'Unknown', asn: 'Unknown', isp: 'Unknown', latitude: 0, longitude: 0,
      confidence_score: 0.3, risk_level: 'medium', vpn_detected: false, network_type: 'other',
    });
  });

  it('starts with a missing GEOIP_CITY_DB and no compiled ASN index: warns, compiles, keeps answering', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const emptyDist = mkdtempSync(path.join(tmpdir(), 'no-dist-'));
    const degraded = await createEngine({ geoipCityDb: path.join(emptyDist, 'missing.mmdb'), distDir: emptyDist });
    expect(degraded.sources).toEqual(['dbip-city', 'asn']);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/GEOIP_CITY_DB .*missing\.mmdb unavailable/));
    expect(degraded.lookup('8.8.8.8').data).toMatchObject({ asn: 'AS15169', country: 'US' });
  }, 60_000);
});

describe('GEOIP_CITY_DB', () => {
  it("replaces GeoLite2 with the operator's MaxMind City file, nested schema and all", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'geoip-'));
    const file = path.join(dir, 'GeoIP2-City.mmdb');
    writeFileSync(file, writeMmdb([['81.2.69.0/24', {
      city: { names: { en: 'London' } }, country: { iso_code: 'GB' }, postal: { code: 'EC2V' },
      location: { latitude: 51.5142, longitude: -0.0931, time_zone: 'Europe/London', accuracy_radius: 10 },
      subdivisions: [{ iso_code: 'ENG', names: { en: 'England' } }],
    }]], 'GeoIP2-City'));
    const operator = await createEngine({ geoipCityDb: file });
    expect(operator.sources).toEqual(['dbip-city', 'geoip2-city', 'asn']);
    const response = operator.lookup('81.2.69.160');
    expect(response.sources_used).toEqual(['dbip-city', 'geoip2-city', 'asn']);
    expect(response.data).toMatchObject({ city: 'London', postal: 'EC2V', timezone: 'Europe/London', confidence_score: 0.9, accuracy_tier: 'high' });
    expect(response.data.distance_consensus).toBeLessThan(1);
  }, 60_000);
});
