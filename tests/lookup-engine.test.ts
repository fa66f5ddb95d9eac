// The lookup engine on the real bundled databases (no mocks): what a caller of lookup()
// sees for well-known addresses, reserved ones, browser signals, and missing databases.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { tierOf, UNKNOWN_RADIUS_M } from '../src/lib/accuracy.ts';
import { PREFERRED_SOURCE, RADIUS_KM } from '../src/lib/accuracy-model.ts';
import { consensusBand, distanceConsensus } from '../src/lib/confidence.ts';
import { parseIp } from '../src/lib/ip-address.ts';
import { LookupResponseSchema } from '../src/lib/record.ts';
import { loadGroundTruth } from '../bench/accuracy/ground-truth.ts';
import { emptyPlace } from '../src/server/data/city-source.ts';
import { createEngine, engineFrom, InvalidIpError, type Engine, type LookupContext } from '../src/server/lookup/engine.ts';
import { AsnIndex } from '../src/server/data/asn-index.ts';
import { openCitySource, openSources, type Sources } from '../src/server/data/sources.ts';
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
    expect(response.success).toBe(true);
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

  it('answers an address with surrounding whitespace as the bare address, and shows it without the whitespace', () => {
    const padded = engine.lookup(' 8.8.8.8\t');
    expect(padded.data.ip).toBe('8.8.8.8');
    expect(padded).toEqual(engine.lookup('8.8.8.8'));
  });

  it("gives each city source's own place before merging, naming the source, and none for a reserved address", () => {
    const value = parseIp('8.8.8.8')!.value as number;
    const [p, s] = [emptyPlace(), emptyPlace()];
    expect(sources.primary!.find4(value, p) && sources.second!.find4(value, s)).toBe(true);
    expect(p.city).toBe('Mountain View');
    expect(engine.sourcePlaces('8.8.8.8')).toEqual([
      { source: 'dbip-city', city: p.city, latitude: p.latitude, longitude: p.longitude },
      { source: 'geolite2-city', city: s.city, latitude: s.latitude, longitude: s.longitude },
    ]);
    expect(engine.sourcePlaces('10.0.0.1')).toEqual([]);
  });

  it('measures the distance between the two sources and derives confidence and accuracy from it', () => {
    // DB-IP and GeoLite2 both place 5.255.255.5 (Yandex) in Moscow, a few km apart.
    const { data } = engine.lookup('5.255.255.5');
    expect(data.city).toBe('Moscow');
    expect(data.distance_consensus).toBeGreaterThanOrEqual(0);
    expect(data.distance_consensus).toBeLessThanOrEqual(5);
    const radius = RADIUS_KM.consensus[0]! * 1000;
    expect(data).toMatchObject({ confidence_score: 0.9, accuracy_tier: tierOf(radius), accuracy_radius: radius, risk_level: 'low', timezone: 'Europe/Moscow' });
    expect(data.place_source).toBe(PREFERRED_SOURCE[0] === 'second' ? 'geolite2-city' : 'dbip-city');
  });

  it('shows the place of the source the model prefers in each consensus band, and names that source', () => {
    // One ground-truth address (public RIPE Atlas probes, bench/ground-truth/) per consensus band.
    const seen = new Set<number>();
    for (const { ip } of loadGroundTruth()) {
      const value = parseIp(ip)!.value as number;
      const [p, s] = [emptyPlace(), emptyPlace()];
      if (!sources.primary!.find4(value, p) || !sources.second!.find4(value, s)) continue;
      const km = distanceConsensus(p, s);
      if (km === null || seen.has(consensusBand(km))) continue;
      const band = consensusBand(km);
      seen.add(band);
      const shown = PREFERRED_SOURCE[band] === 'second' ? s : p;
      const { data } = engine.lookup(ip);
      expect(data, ip).toMatchObject({
        distance_consensus: km, place_source: shown === s ? 'geolite2-city' : 'dbip-city', city: shown.city,
        latitude: shown.latitude, longitude: shown.longitude,
        accuracy_radius: RADIUS_KM.consensus[band]! * 1000,
      });
    }
    expect([...seen].sort()).toEqual([0, 1, 2, 3, 4]);
  });

  it.each([
    ['a DigitalOcean', '104.131.0.1', 'AS14061'],
    ['an AWS', '3.5.140.2', 'AS16509'],
  ])('reports %s address as datacenter, and as a VPN once the browser clock disagrees', (_, ip, asn) => {
    const alone = engine.lookup(ip).data;
    expect(alone).toMatchObject({ asn, network_type: 'datacenter' });
    // src/lib/vpn-score.ts: the datacenter row weighs 0.4 and detection needs more than 0.4.
    expect(alone.vpn).toMatchObject({ detected: false, confidence: 0.4, indicators: ['Datacenter IP detected'] });
    expect(alone.vpn.reasons[0]).toMatch(/hosting, cloud or relay network \(by its AS number\)/);
    expect(alone.privacy).toMatchObject({ hosting: true, vpn: null, tor: null, relay: null, proxy: null });

    const zone = alone.timezone === 'Pacific/Auckland' ? 'Europe/London' : 'Pacific/Auckland';
    const judged = engine.lookup(ip, browser({ clientInfo: { timezone: zone } })).data;
    // The place is the exit's: its radius stays what the databases earn there, the tier drops to low.
    expect(judged).toMatchObject({ vpn_detected: true, risk_level: 'high', accuracy_tier: 'low', accuracy_radius: alone.accuracy_radius });
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

describe("ifconfig.co's codes", () => {
  it('leaves region_code and metro_code out of the record when no source has one (the bundled databases have none)', () => {
    for (const ip of ['8.8.8.8', '81.2.69.142', '2001:4860:4860::8888', '10.0.0.1']) {
      const { data } = engine.lookup(ip);
      expect(Object.hasOwn(data, 'region_code')).toBe(false);
      expect(Object.hasOwn(data, 'metro_code')).toBe(false);
    }
  });
});

describe('reserved addresses', () => {
  it.each([
    ['127.0.0.1', 'Loopback'], ['10.0.0.1', 'Private network'], ['192.168.1.1', 'Private network'], ['::1', 'Loopback'],
    ['100.64.1.1', 'Carrier-grade NAT'], ['fe80::1%eth0', 'Link-local'], [' fe80::1%eth0\t', 'Link-local'], ['198.51.100.7', 'Documentation'],
  ])('answers %j as "%s" without a lookup', (ip, kind) => {
    const response = engine.lookup(ip);
    expect(LookupResponseSchema.parse(response)).toEqual(response);
    expect(response.success).toBe(true);
    // Nothing is known of the place: the radius is half the Earth, as with no database at all.
    expect(response.data).toMatchObject({
      reserved: kind, isp: kind, org: kind, network_type: 'private', city: 'Unknown', country: 'Unknown', asn: 'Unknown',
      latitude: 0, longitude: 0, vpn_detected: false, confidence_score: 0.3, accuracy_radius: UNKNOWN_RADIUS_M, accuracy_tier: 'low',
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

  it.each([
    ['nope', 'Not an IP address: "nope"'],
    ['x'.repeat(200), `Not an IP address: "${'x'.repeat(64)}"`],
  ])('says which input it rejected, cut to 64 characters (%#)', (input, message) => {
    expect(() => engine.lookup(input)).toThrow(new InvalidIpError(message));
    expect(() => engine.sourcePlaces(input)).toThrow(new InvalidIpError(message));
  });
});

describe('browser signals', () => {
  it("makes the record hybrid with a GPS fix: GPS coordinates, the browser's own accuracy, confidence 0.95 or more", () => {
    const { data } = engine.lookup('8.8.8.8', { browserLocation: { lat: 48.8584, lng: 2.2945, accuracy: 30 } });
    expect(data).toMatchObject({ location_source: 'hybrid', latitude: 48.8584, longitude: 2.2945, accuracy_tier: 'high', accuracy_radius: 30 });
    expect(data.confidence_score).toBeGreaterThanOrEqual(0.95);
  });

  it('ignores a GPS fix with impossible coordinates', () => {
    const { data } = engine.lookup('8.8.8.8', { browserLocation: { lat: 123, lng: 2, accuracy: 30 } });
    expect(data.location_source).toBe('ip');
  });

  it.each([
    [{ lat: 90, lng: 180, accuracy: 0 }, 'hybrid'],
    [{ lat: -90, lng: -180, accuracy: 0.5 }, 'hybrid'],
    [{ lat: 90.001, lng: 0, accuracy: 10 }, 'ip'],
    [{ lat: -90.001, lng: 0, accuracy: 10 }, 'ip'],
    [{ lat: 0, lng: 180.001, accuracy: 10 }, 'ip'],
    [{ lat: 0, lng: -180.001, accuracy: 10 }, 'ip'],
    [{ lat: 0, lng: 0, accuracy: -0.001 }, 'ip'],
    [{ lat: Number.NaN, lng: 0, accuracy: 10 }, 'ip'],
    [{ lat: 0, lng: Number.POSITIVE_INFINITY, accuracy: 10 }, 'ip'],
    [{ lat: 0, lng: 0, accuracy: Number.POSITIVE_INFINITY }, 'ip'],
    // An untyped caller's strings are no coordinates, even when they read as numbers.
    [{ lat: '48.8' as unknown as number, lng: 2, accuracy: 10 }, 'ip'],
    [{ lat: 48.8, lng: '2' as unknown as number, accuracy: 10 }, 'ip'],
  ])('takes the GPS fix %j as location source %s', (browserLocation, source) => {
    expect(engine.lookup('8.8.8.8', { browserLocation }).data.location_source).toBe(source);
  });

  it('detects a WebRTC leak of another network\'s address, and only that', () => {
    const leaked = engine.lookup('8.8.8.8', { webrtc: { candidates: ['192.168.0.7', '9.9.9.9', 'abc.local'] } });
    expect(leaked.data.vpn).toMatchObject({ detected: true, confidence: 0.5, indicators: ['WebRTC IP leak detected'] });
    expect(leaked.data.vpn.reasons).toEqual(['WebRTC in your browser showed a public address of another network than this one.']);
    expect(leaked.webrtc).toEqual([{ ip: '9.9.9.9', ip_version: 'ipv4', kind: 'leak' }]);
    const clean = engine.lookup('8.8.8.8', { webrtc: { candidates: ['192.168.0.7', '8.8.8.8', 'abc.local'] } });
    expect(clean.data.vpn.detected).toBe(false);
    expect(clean.webrtc).toEqual([]);
    // Without candidates the response has no webrtc field at all (not one set to undefined).
    expect(engine.lookup('8.8.8.8')).not.toHaveProperty('webrtc');
  });

  // Real ASN data: Comcast's 73.0.0.0/8 and 2601::/20 are both AS7922; Deutsche Telekom is AS3320.
  it.each<[string, string, string, 'other-family' | 'same-network' | 'leak', boolean]>([
    ['a dual-stack visitor on IPv6 whose STUN answer is IPv4: their other address', '2601:1c0::1', '73.1.2.3', 'other-family', false],
    ['a dual-stack visitor on IPv4 whose STUN answer is IPv6: their other address', '73.1.2.3', '2601:1c0::1', 'other-family', false],
    ['another address of the visitor\'s own network, same family', '73.1.2.3', '24.0.0.1', 'same-network', false],
    ['an IPv4 VPN exit (Cloudflare) with the visitor\'s native IPv6 (Comcast) outside it: a leak', '1.1.1.1', '2601:1c0::1', 'leak', true],
    ['an IPv6 page (Comcast) and an IPv4 address of another network (Deutsche Telekom): a leak', '2601:1c0::1', '79.192.0.1', 'leak', true],
  ])('%s', (_, page, candidate, kind, leak) => {
    const response = engine.lookup(page, { webrtc: { candidates: [`candidate:1 1 udp 1677729535 ${candidate} 50000 typ srflx raddr 0.0.0.0 rport 0`] } });
    expect(response.webrtc?.map((a) => a.kind)).toEqual([kind]);
    expect(response.data.vpn.indicators.includes('WebRTC IP leak detected')).toBe(leak);
  });

  it('classifies candidates for a reserved page address without scoring them', () => {
    const response = engine.lookup('192.168.1.2', { webrtc: { candidates: ['73.1.2.3'] } });
    expect(response.webrtc).toEqual([{ ip: '73.1.2.3', ip_version: 'ipv4', kind: 'leak' }]);
    expect(response.data.vpn.detected).toBe(false);
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
    // One source naming a city of a million people: the model's row for that.
    expect(partial.data).toMatchObject({ city: 'Moscow', distance_consensus: null, confidence_score: 0.6, place_source: 'dbip-city', accuracy_radius: RADIUS_KM.oneBigCity * 1000 });
    expect(partial.data.confidence_score).toBeLessThan(full.confidence_score);
  });

  it('without DB-IP, the second source answers alone', () => {
    const response = engineFrom({ second: sources.second, asn: sources.asn }).lookup('5.255.255.5');
    expect(response.sources_used).toEqual(['geolite2-city', 'asn']);
    expect(response.data).toMatchObject({ city: 'Moscow', country_name: 'Russia', confidence_score: 0.6, place_source: 'geolite2-city' });
  });

  it('answers as if DB-IP were missing where its record is corrupt (its reader throws)', () => {
    const without = engineFrom({ second: sources.second, asn: sources.asn }).lookup('5.255.255.5');
    vi.spyOn(sources.primary!, 'find4').mockImplementation(() => { throw new RangeError('corrupt record'); });
    const response = engine.lookup('5.255.255.5');
    expect(response.sources_used).toEqual(['geolite2-city', 'asn']);
    expect(response.data).toEqual(without.data);
  });

  it('tells two networks apart by AS number when a damaged ASN index names no organisation for them', () => {
    const v4 = (ip: string) => parseIp(ip)!.value as number;
    // Two ranges, AS64500 and AS64501, whose organisation ids point past the (empty) list of names.
    const asn = new AsnIndex('damaged', [
      Uint32Array.of(v4('11.0.0.0'), v4('12.0.0.0')), Uint32Array.of(v4('11.255.255.255'), v4('12.255.255.255')),
      new Uint32Array(0), new Uint32Array(0), Uint32Array.of(64500, 64501), Uint32Array.of(7, 8),
    ], []);
    const response = engineFrom({ asn }).lookup('11.1.1.1', { webrtc: { candidates: ['12.1.1.1', '11.2.2.2'] } });
    expect(response.webrtc).toEqual([
      { ip: '12.1.1.1', ip_version: 'ipv4', kind: 'leak' },
      { ip: '11.2.2.2', ip_version: 'ipv4', kind: 'same-network' },
    ]);
  });

  it("answers from the ASN index's first range (row 0), and not from it outside every range", () => {
    const v4 = (ip: string) => parseIp(ip)!.value as number;
    // One range, AS64500, whose organisation is the first name: a VPN brand.
    const asn = new AsnIndex('first-row', [
      Uint32Array.of(v4('11.0.0.0')), Uint32Array.of(v4('11.255.255.255')),
      new Uint32Array(0), new Uint32Array(0), Uint32Array.of(64500), Uint32Array.of(0),
    ], ['NordVPN S.A.']);
    const alone = engineFrom({ asn });
    const inside = alone.lookup('11.1.1.1');
    expect(inside.sources_used).toEqual(['asn']);
    expect(inside.data).toMatchObject({ asn: 'AS64500', asn_org: 'NordVPN S.A.', isp: 'NordVPN S.A.', org: 'NordVPN S.A.' });
    expect(inside.data.privacy).toMatchObject({ vpn: true, service: 'NordVPN S.A.' });
    expect(inside.data.vpn.indicators).toContain('Known VPN provider');

    const outside = alone.lookup('8.8.8.8', { webrtc: { candidates: ['9.9.9.9'] } });
    expect(outside.sources_used).toEqual([]);
    expect(outside.data).toMatchObject({ asn: 'Unknown', isp: 'Unknown' });
    // Neither address has a network in the data: nothing shows the candidate is the visitor's own.
    expect(outside.webrtc).toEqual([{ ip: '9.9.9.9', ip_version: 'ipv4', kind: 'leak' }]);
  });

  it('with no database at all, gives the spec fallback record', () => {
    const response = engineFrom({}).lookup('8.8.8.8');
    expect(response.sources_used).toEqual([]);
    expect(response.data).toMatchObject({
      city: 'Unknown', country_name: 'Unknown', asn: 'Unknown', isp: 'Unknown', latitude: 0, longitude: 0,
      confidence_score: 0.3, risk_level: 'medium', vpn_detected: false, network_type: 'other',
      place_source: null, accuracy_radius: UNKNOWN_RADIUS_M, accuracy_tier: 'low',
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

  it('warns once, every missing source in that one line, and not at all when every source opens', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const emptyDist = mkdtempSync(path.join(tmpdir(), 'no-dist-'));
    await createEngine({ geoipCityDb: path.join(emptyDist, 'missing.mmdb'), asnIndex: path.join(emptyDist, 'missing.bin') });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toMatch(/^lookup: GEOIP_CITY_DB .*missing\.mmdb unavailable \(.*\); its fields will be empty; asn unavailable \(.*missing\.bin.*\); its fields will be empty$/);
    warn.mockClear();
    expect((await createEngine()).sources).toEqual(['dbip-city', 'geolite2-city', 'asn']);
    expect(warn).not.toHaveBeenCalled();
  }, 60_000);
});

/** An operator's MaxMind City file (GeoIP2 schema) with these networks, in a new temporary directory. */
function geoipCityFile(records: Parameters<typeof writeMmdb>[0]): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'geoip-')), 'GeoIP2-City.mmdb');
  writeFileSync(file, writeMmdb(records, 'GeoIP2-City'));
  return file;
}

describe('GEOIP_CITY_DB', () => {
  it("replaces GeoLite2 with the operator's MaxMind City file, nested schema and all", async () => {
    const file = geoipCityFile([['81.2.69.0/24', {
      city: { names: { en: 'London' } }, country: { iso_code: 'GB' }, postal: { code: 'EC2V' },
      location: { latitude: 51.5142, longitude: -0.0931, time_zone: 'Europe/London', accuracy_radius: 10 },
      subdivisions: [{ iso_code: 'ENG', names: { en: 'England' } }],
    }], ['81.2.70.0/24', {
      // DB-IP says London: over 200 km apart, where the model prefers the second source's place.
      city: { names: { en: 'Edinburgh' } }, country: { iso_code: 'GB' },
      location: { latitude: 55.9533, longitude: -3.1883, time_zone: 'Europe/London', accuracy_radius: 1000 },
    }]]);
    const operator = await createEngine({ geoipCityDb: file });
    expect(operator.sources).toEqual(['dbip-city', 'geoip2-city', 'asn']);
    const response = operator.lookup('81.2.69.160');
    expect(response.sources_used).toEqual(['dbip-city', 'geoip2-city', 'asn']);
    expect(response.data).toMatchObject({ city: 'London', postal: 'EC2V', timezone: 'Europe/London', confidence_score: 0.9, accuracy_tier: 'high' });
    expect(response.data.distance_consensus).toBeLessThan(1);

    // Its own accuracy_radius never lets us claim more precision than the file itself does.
    expect(PREFERRED_SOURCE[4]).toBe('second');
    const wide = operator.lookup('81.2.70.1').data;
    expect(wide).toMatchObject({ city: 'Edinburgh', place_source: 'geoip2-city', accuracy_radius: 1_000_000, accuracy_tier: 'low' });
    expect(wide.distance_consensus).toBeGreaterThan(200);
  }, 60_000);
});

describe("an operator's City file next to DB-IP", () => {
  let operator: Exclude<Sources['second'], undefined>;

  beforeAll(async () => {
    const gb = { iso_code: 'GB' };
    const file = geoipCityFile([
      // About 14 km from DB-IP's London (a band where the model prefers the second source), with no region.
      ['81.2.69.0/24', { city: { names: { en: 'Wembley' } }, country: gb, location: { latitude: 51.556, longitude: -0.2796, time_zone: 'Europe/London' } }],
      // A country alone: the same as DB-IP's (London), then another one (DB-IP says Carden, GB).
      ['81.2.70.0/24', { country: gb }],
      ['81.2.71.0/24', { country: { iso_code: 'FR' } }],
      // A place for a private range, which no lookup may use.
      ['10.0.0.0/8', { city: { names: { en: 'Nowhere' } }, country: gb, location: { latitude: 51, longitude: 0 } }],
    ]);
    const opened = await openCitySource(undefined, file);
    if (opened instanceof Error) throw opened;
    operator = opened;
  });

  it("shows the second source's place with the region DB-IP names when they agree", () => {
    const { data } = engineFrom({ primary: sources.primary, second: operator }).lookup('81.2.69.160');
    expect(data).toMatchObject({ city: 'Wembley', place_source: 'geoip2-city', region: 'England', country: 'GB' });
    expect(consensusBand(data.distance_consensus!)).toBe(1);
  });

  it.each([
    ['names the same country as DB-IP: one source names a city', '81.2.70.1', 0.6],
    ['names another country than DB-IP: the sources disagree', '81.2.71.1', 0.5],
  ])('a country alone that %s', (_, ip, confidence) => {
    const { data } = engineFrom({ primary: sources.primary, second: operator }).lookup(ip);
    expect(data).toMatchObject({ place_source: 'dbip-city', country: 'GB', confidence_score: confidence });
  });

  it('answering alone with a country and no city: the country is known, so confidence 0.4 and the region tier', () => {
    const { data, sources_used } = engineFrom({ second: operator }).lookup('81.2.70.1');
    expect(sources_used).toEqual(['geoip2-city']);
    expect(data).toMatchObject({ city: 'Unknown', country: 'GB', confidence_score: 0.4, accuracy_tier: 'region' });
  });

  it('gives no source place for a reserved address, even one the file has a record for', () => {
    const alone = engineFrom({ second: operator });
    expect(alone.sourcePlaces('10.0.0.1')).toEqual([]);
    expect(alone.sourcePlaces('81.2.69.1')).toEqual([{ source: 'geoip2-city', city: 'Wembley', latitude: 51.556, longitude: -0.2796 }]);
  });
});
