/**
 * Each guard of an API answer against its zod schema: on real-shaped answers, and on every
 * variant of them with one field made wrong (each value of another kind, each enum word, the
 * numbers at the schemas' bounds, the field left out, an array one past its limit), the guard
 * accepts exactly what the schema accepts.
 */
import { describe, expect, it, vi } from 'vitest';
import { lookupResponse } from '../../tests/support/lookup-response.ts';
import { DashboardSchema, PERIODS } from './analytics.ts';
import * as guards from './answer-guards.ts';
import { BulkResponseSchema } from './bulk.ts';
import { CitySearchResponseSchema } from './city-search.ts';
import { ClientConfigSchema } from './client-config.ts';
import { DataSourcesSchema } from './data-sources.ts';
import { DNS_TRANSPORTS, DNS_VERDICTS, DnsLeakResultSchema, DnsLeakStartSchema } from './dns-leak-record.ts';
import type { Guard } from './guard.ts';
import {
  ACCURACY_TIERS, ApiErrorSchema, BROWSERS, DEVICE_KINDS, HostnameSchema, LOCATION_SOURCES, LookupResponseSchema, NETWORK_TYPES,
  OPERATING_SYSTEMS, PortCheckSchema, RISK_LEVELS, WEBRTC_KINDS,
} from './record.ts';
import { PlaceCorrectionSchema } from './verification.ts';

interface Schema { safeParse(value: unknown): { success: boolean } }

/** Every enum word of the schemas: a field set to one it does not list must be refused by both. */
const ENUM_WORDS = [
  'ipv4', 'ipv6', 'hour', 'day', ...LOCATION_SOURCES, ...RISK_LEVELS, ...ACCURACY_TIERS, ...NETWORK_TYPES, ...BROWSERS,
  ...OPERATING_SYSTEMS, ...DEVICE_KINDS, ...WEBRTC_KINDS, ...DNS_TRANSPORTS, ...DNS_VERDICTS, ...PERIODS,
];
/** What a field is set to: each kind of JSON value, and the numbers at and past the bounds of latitude and longitude. */
const VALUES: unknown[] = [
  null, true, false, 0, -1, 1.5, -180.5, -180, -90.5, -90, 90, 90.5, 180, 180.5, '', 'x', [], {}, ['x'], { x: 1 }, ...ENUM_WORDS,
];
const LEFT_OUT = Symbol('left out');

const clone = <T>(value: T): T => structuredClone(value);

/** The value with the node at `path` replaced (or, for LEFT_OUT, removed). */
function withAt(root: unknown, path: Array<string | number>, value: unknown): unknown {
  if (path.length === 0) return value === LEFT_OUT ? undefined : value;
  const copy = clone(root) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  if (value === LEFT_OUT) {
    if (Array.isArray(node)) node.splice(last as number, 1);
    else delete node[last];
  } else node[last] = value;
  return copy;
}

/** Every path in the value, the root's included. */
function paths(value: unknown, at: Array<string | number> = []): Array<Array<string | number>> {
  if (typeof value !== 'object' || value === null) return [at];
  const children = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  return [at, ...children.flatMap((key) => paths((value as Record<string | number, unknown>)[key], [...at, key]))];
}

/** The answer with one thing wrong, each way: every field to each value, left out, and each array at 64 and 65 items. */
function variants(answer: unknown): Array<{ path: string; value: unknown }> {
  const out: Array<{ path: string; value: unknown }> = [];
  for (const path of paths(answer)) {
    const name = path.join('.') || '(root)';
    for (const value of [...VALUES, LEFT_OUT]) out.push({ path: `${name} = ${String(value === LEFT_OUT ? 'left out' : JSON.stringify(value))}`, value: withAt(answer, path, value) });
    const node = path.reduce<unknown>((n, key) => (n as Record<string | number, unknown>)[key], answer);
    if (Array.isArray(node) && node.length > 0) {
      for (const length of [64, 65]) out.push({ path: `${name} with ${length} items`, value: withAt(answer, path, Array.from({ length }, () => clone(node[0]))) });
    }
  }
  return out;
}

const PRIVACY = {
  vpn: true, proxy: null, tor: false, relay: false, hosting: false, service: 'ExampleVPN',
  reasons: { vpn: 'listed', proxy: 'not available', tor: 'not listed', relay: 'not listed', hosting: 'not listed' },
};
const fullRecord = () => {
  const answer = clone(lookupResponse('2001:db8::1')) as Record<string, unknown> & { data: Record<string, unknown> };
  Object.assign(answer.data, {
    vpn: { detected: true, confidence: 0.5, indicators: ['Datacenter IP detected'], reasons: ['Listed as a datacenter.'] },
    privacy: PRIVACY, region_code: 'BE', metro_code: 807, hostname: 'host.example', hostname_confirmed: true,
  });
  return { ...answer, device: { browser: 'Firefox', os: 'Linux', device: 'Desktop', userAgent: 'Mozilla/5.0', bot: false },
    webrtc: [{ ip: '198.51.100.7', ip_version: 'ipv4', kind: 'leak' }] };
};
const GROUP = { corrections: 3, networks: 2, asns: 1, published: true, medianKm: 12.5, p90Km: null };
const FIGURE = { value: 10, previous: null, change: 0.25 };

const CASES: Array<[string, Guard<unknown>, Schema, unknown[]]> = [
  ['an API error', guards.isApiError, ApiErrorSchema, [{ error: { code: 'invalid_ip', message: 'Not an address.' } }]],
  ['a lookup answer', guards.isLookupResponse, LookupResponseSchema, [lookupResponse('192.0.2.1'), fullRecord()]],
  ['a host name', guards.isHostnameRecord, HostnameSchema, [{ ip: '192.0.2.1', hostname: 'h.example', hostname_confirmed: true }, { ip: '192.0.2.1', hostname: null, hostname_confirmed: false }]],
  ['a port check', guards.isPortCheck, PortCheckSchema, [{ ip: '192.0.2.1', port: 22, reachable: false }]],
  ['the client config', guards.isClientConfig, ClientConfigSchema, [{ tileUrl: 't', tileAttribution: 'a', stunUrl: 'stun:x:3478', stunPort: 3478, ipv4Url: 'https://v4/ip', ipv6Url: null, dnsLeakZone: 'dns.example.com' }]],
  ['a city search', guards.isCitySearchResponse, CitySearchResponseSchema, [{ query: 'berl', count: 2, results: [
    { city: 'Berlin', region: 'Berlin', country: 'Germany', country_code: 'DE', latitude: 52.5, longitude: 13.4, confidence: 0.9, population: 3_400_000 },
    { city: 'Berl', region: 'Unknown Region', country: 'Unknown', country_code: 'Unknown', latitude: 0, longitude: 0, confidence: 0.5, population: null },
  ] }]],
  ['a stored correction', guards.isPlaceCorrection, PlaceCorrectionSchema, [
    { ip: '192.0.2.1', city: 'Berlin', region: 'Berlin', country: 'Germany', country_code: 'DE', latitude: 52.5, longitude: 13.4, verified: true, population: 3_400_000 },
  ]],
  ['a DNS leak start', guards.isDnsLeakStart, DnsLeakStartSchema, [{ token: 'a'.repeat(32), names: ['a-1.dns.example.com', 'a-2.dns.example.com'], expires_in: 120 }]],
  ['a DNS leak result', guards.isDnsLeakResult, DnsLeakResultSchema, [{ token: 'a'.repeat(32), names_total: 6, names_seen: 6, resolvers: [{
    ip: '198.51.100.53', transports: ['udp', 'tcp'], ecs: '203.0.113.0/24', dnssec_ok: true, queries: 2, first_seen: '2026-11-26T22:00:00.000Z',
    asn: 13335, as_name: 'Cloudflare', operator: 'Cloudflare', country: 'DE', country_name: 'Germany', city: 'Frankfurt', network_type: 'datacenter', privacy: PRIVACY,
  }], verdict: { state: 'no_leak', text: 'No leak.' } }]],
  ['the analytics dashboard', guards.isDashboard, DashboardSchema, [{
    period: '7d', unit: 'day', from: '2026-11-20', to: '2026-11-27', previousFrom: '2026-11-13', previousTo: '2026-11-20',
    lookups: FIGURE, networks: FIGURE, vpnRate: FIGURE,
    countries: [{ code: 'DE', name: 'Germany', lookups: 4, share: 0.4 }], activity: [{ start: '2026-11-20', lookups: 4 }],
    accuracy: { ...GROUP, minimum: { networks: 20, asns: 10 }, note: null, byNetworkType: [{ networkType: 'mobile', ...GROUP }] },
    recent: [{ network: '192.0.2.x', city: 'Berlin', region: 'Berlin', country: 'Germany', countryCode: 'DE', vpnDetected: false, riskLevel: 'low', networkType: 'residential', at: '2026-11-27T01:00:00Z' }],
  }]],
  ['a bulk answer', guards.isBulkResponse, BulkResponseSchema, [{ count: 2, results: [
    { input: '192.0.2.1', data: lookupResponse('192.0.2.1').data }, { input: 'bad', error: { code: 'invalid_ip', message: 'Not an address.' } },
  ] }]],
  ['the data sources', guards.isDataSources, DataSourcesSchema, [{ sources: [{ id: 'tor', into: 'tor', fetched_at: '2026-11-27T01:00:00Z', stale: false }, { id: 'x4b', into: 'vpn', fetched_at: null, stale: true }] }]],
];

describe.each(CASES)('the guard of %s', (_, guard, schema, answers) => {
  it('accepts the answers its schema accepts', () => {
    for (const answer of answers) expect([schema.safeParse(answer).success, guard(answer)]).toEqual([true, true]);
  });

  it('accepts or refuses each answer with one thing wrong as its schema does', () => {
    const disagreements = answers.flatMap(variants)
      .filter(({ value }) => guard(value) !== schema.safeParse(value).success)
      .map(({ path, value }) => `${path}: the schema says ${schema.safeParse(value).success}, the guard ${guard(value)}`);
    expect(disagreements).toEqual([]);
  });
});

describe('the guards as a module loads them', () => {
  // The store tests load the guards afresh (their stores are made when a module loads), so
  // the guards' tables are read there too: each bucket unit of the dashboard is checked on a
  // fresh copy here, where a table missing a word shows.
  it.each(['hour', 'day'] as const)('accepts a dashboard counted by the %s', async (unit) => {
    vi.resetModules();
    const fresh = await import('./answer-guards.ts');
    const dashboard = CASES.find(([name]) => name === 'the analytics dashboard')![3][0] as Record<string, unknown>;
    expect(fresh.isDashboard({ ...dashboard, unit })).toBe(true);
    expect(fresh.isDashboard({ ...dashboard, unit: 'week' })).toBe(false);
  });
});
