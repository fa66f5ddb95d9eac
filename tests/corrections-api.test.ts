/**
 * POST /api/corrections over HTTP on the real databases. The caller's address comes from
 * X-Forwarded-For through a trusted loopback proxy, as behind a load balancer, so the
 * server has a public address to look up. Requests are the site's own page's unless a
 * test says otherwise: JSON, `Sec-Fetch-Site: same-origin`, each from a network of its own
 * that loaded the page first (a correction counts only then, once a day per network). The
 * floods are tests/corrections-flood.test.ts.
 */
import type { AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest';
import { ApiErrorSchema } from '../src/lib/record.ts';
import { loadConfig } from '../src/server/config.ts';
import { nearerSource } from '../src/server/handlers/corrections-api.ts';
import type { CorrectionEvent, CorrectionVerdict } from '../src/lib/correction.ts';
import type { ParsedIp } from '../src/lib/ip-address.ts';
import { createAppServer, type AppServer } from '../src/server/server.ts';
import { startTestServer } from './support/http-harness.ts';

let app: AppServer;
let url: string;
/** What reached the analytics store's recordCorrection (the real store, in a temporary SQLite file). */
let recordSpy: MockInstance<(address: ParsedIp, event: CorrectionEvent, asn: string) => Promise<CorrectionVerdict>>;
beforeAll(async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'corrections-'));
  app = await createAppServer(loadConfig({ HOST: '127.0.0.1', PORT: '0', TRUST_PROXY: 'loopback', DATA_DIR: dataDir, REVERSE_DNS: 'off' }), 'dist');
  recordSpy = vi.spyOn(app.routes.analytics, 'recordCorrection');
  await new Promise<void>((resolve) => app.server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => { app.server.closeAllConnections(); app.server.close(() => resolve()); });
  await app.routes.analytics.close();
});

const MUNICH = { latitude: 48.13743, longitude: 11.57549 };
/** The events the store kept (it answered recorded: true). */
const recorded = (): CorrectionEvent[] => recordSpy.mock.calls
  .filter((_, i) => (recordSpy.mock.settledResults[i]?.value as CorrectionVerdict | undefined)?.recorded === true)
  .map(([, event]) => event);

/** What the site's own page sends (src/stores/correction.ts, in a browser). */
const SAME_ORIGIN = { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' };

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36';
/** The page's own lookup from `from`, as a browser sends it: recorded, so the network may correct afterwards. */
async function visit(from: string): Promise<void> {
  const res = await fetch(`${url}/api/lookup`, { headers: { 'user-agent': CHROME, 'sec-fetch-mode': 'cors', 'x-forwarded-for': from } });
  expect(res.status).toBe(200);
  await res.arrayBuffer();
}

/** A /24 of Google's 8.8.0.0/16 (placed in the US) no test has used yet. */
let last = 8;
const freshNetwork = () => `8.8.${++last}.1`;

/**
 * Posts `body` as the site's page would, from a network of its own that loaded the page
 * first unless told; `headers` override (a value of null leaves a header out).
 */
async function correct(body: unknown, headers: Record<string, string | null> = {}, from = freshNetwork(), visited = true) {
  if (visited) await visit(from);
  const sent = Object.entries({ ...SAME_ORIGIN, 'x-forwarded-for': from, ...headers }).filter((e): e is [string, string] => e[1] !== null);
  return fetch(`${url}/api/corrections`, {
    method: 'POST',
    headers: Object.fromEntries(sent),
    // Bytes, not a string: fetch would add Content-Type: text/plain to a string body.
    body: new TextEncoder().encode(typeof body === 'string' ? body : JSON.stringify(body)),
  });
}

describe('POST /api/corrections', () => {
  it("records the distance from the caller's IP-based place, its country and network, and never the address", async () => {
    const before = recorded().length;
    const res = await correct(MUNICH, {}, '8.8.8.8');
    expect(res.status).toBe(202);
    const body = await res.json() as { recorded: boolean; correction: Record<string, unknown> };
    expect(body.recorded).toBe(true);
    const lookup = await (await fetch(`${url}/api/lookup/8.8.8.8`)).json() as { data: { latitude: number; longitude: number; network_type: string } };
    expect(recorded()).toHaveLength(before + 1);
    const event = recorded().at(-1)!;
    expect(event).toEqual(body.correction);
    expect(event.country_code).toBe('US');
    expect(event.network_type).toBe(lookup.data.network_type);
    // Mountain View to Munich is about 9,400 km.
    expect(event.distance_km).toBeGreaterThan(9000);
    expect(event.distance_km).toBeLessThan(9800);
    expect(Object.keys(event).sort()).toEqual(['country_code', 'distance_km', 'nearer_source', 'network_type']);
    expect(JSON.stringify(event)).not.toContain('8.8.8');
    // The recorder gets the address to cut it to its network (storage/event.ts), nothing else does.
    expect(recordSpy.mock.calls.at(-1)![0]).toMatchObject({ version: 4 });
  });

  it('answers a second correction from the same network that day as a duplicate (200), and keeps the first', async () => {
    const from = freshNetwork();
    expect((await correct(MUNICH, {}, from)).status).toBe(202);
    const before = recorded().length;
    // Another address of the same /24, the same day.
    const res = await correct({ latitude: 0, longitude: 0 }, {}, from.replace(/\.1$/, '.77'));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ recorded: false, reason: 'duplicate', message: expect.stringMatching(/already sent a correction today/) });
    expect(recorded()).toHaveLength(before);
  });

  it('answers a duplicate for another /48 of the same IPv6 /32 (a /48 is what one customer gets)', async () => {
    expect((await correct(MUNICH, {}, '2001:4860:1::1')).status).toBe(202);
    const res = await correct(MUNICH, {}, '2001:4860:ffff::1');
    expect(await res.json()).toMatchObject({ recorded: false, reason: 'duplicate' });
  });

  it('answers a correction from a network that made no recorded lookup first as not recorded (no_lookup)', async () => {
    const before = recorded().length;
    const res = await correct(MUNICH, {}, freshNetwork(), false);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ recorded: false, reason: 'no_lookup', message: expect.stringMatching(/page load/) });
    expect(recorded()).toHaveLength(before);
  });

  it('refuses a body that names an address: only the caller is ever looked up', async () => {
    const res = await correct({ ...MUNICH, ip: '1.1.1.1' });
    expect(res.status).toBe(400);
  });

  it.each([
    ['Sec-GPC: 1', { 'sec-gpc': '1' }],
    ['DNT: 1', { dnt: '1' }],
  ])('records nothing with %s', async (_, headers) => {
    const before = recorded().length;
    const res = await correct(MUNICH, headers);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ recorded: false, reason: 'declined' });
    expect(recorded()).toHaveLength(before);
  });

  it('records with DNT: 0 (the header says tracking is allowed)', async () => {
    const before = recorded().length;
    expect((await correct(MUNICH, { dnt: '0' })).status).toBe(202);
    expect(recorded()).toHaveLength(before + 1);
  });

  it('records nothing for a caller whose address has no place (a private network)', async () => {
    const before = recorded().length;
    const res = await correct(MUNICH, {}, '10.1.2.3');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ recorded: false, reason: 'no_place' });
    expect(recorded()).toHaveLength(before);
  });

  it.each<[string, unknown]>([
    ['latitude exactly 90 and longitude exactly -180', { latitude: 90, longitude: -180 }],
    ['latitude exactly -90 and longitude exactly 180', { latitude: -90, longitude: 180 }],
  ])('accepts %s', async (_, body) => {
    expect((await correct(body)).status).toBe(202);
  });

  it.each<[string, unknown, string]>([
    ['latitude just past 90', { latitude: 90.0001, longitude: 0 }, 'invalid_request'],
    ['longitude just past -180', { latitude: 0, longitude: -180.0001 }, 'invalid_request'],
    ['a missing longitude', { latitude: 1 }, 'invalid_request'],
    ['coordinates as text', { latitude: '48.1', longitude: '11.5' }, 'invalid_request'],
    ['an extra field', { ...MUNICH, city: 'Munich' }, 'invalid_request'],
    ['an array', [48.1, 11.5], 'invalid_request'],
    ['null', 'null', 'invalid_request'],
    ['not JSON', '{latitude: 48}', 'bad_json'],
    ['an empty body', '', 'bad_json'],
  ])('refuses %s with a 400', async (_, body, code) => {
    const before = recorded().length;
    const res = await correct(body);
    expect(res.status).toBe(400);
    expect(ApiErrorSchema.parse(await res.json()).error.code).toBe(code);
    expect(recorded()).toHaveLength(before);
  });

  it('refuses GET with 405', async () => {
    const res = await fetch(`${url}/api/corrections`);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });
});

describe('POST /api/corrections only from the site itself', () => {
  it.each<[string, string | null]>([
    ['another site (cross-site)', 'cross-site'],
    ['a sibling subdomain (same-site)', 'same-site'],
    ['no page at all, as a typed address or bookmark (none)', 'none'],
  ])('refuses a request from %s with 403 and records nothing', async (_, site) => {
    const before = recorded().length;
    const res = await correct(MUNICH, { 'sec-fetch-site': site });
    expect(res.status).toBe(403);
    const { error } = ApiErrorSchema.parse(await res.json());
    expect(error.code).toBe('forbidden');
    expect(error.message).toContain(`this request came with Sec-Fetch-Site: ${site}`);
    expect(recorded()).toHaveLength(before);
  });

  // Browsers send Sec-Fetch-Site only to secure origins: a site on plain HTTP gets none from
  // its own pages. Another site's page cannot post JSON here without a preflight (refused).
  it('accepts JSON without Sec-Fetch-Site (a plain-HTTP site, an older browser)', async () => {
    const before = recorded().length;
    expect((await correct(MUNICH, { 'sec-fetch-site': null })).status).toBe(202);
    expect(recorded()).toHaveLength(before + 1);
  });

  it.each<[string, string | null]>([
    ['text/plain (what a form or a no-cors fetch from any site may send)', 'text/plain'],
    ['text/plain with a charset', 'text/plain;charset=UTF-8'],
    ['a form', 'application/x-www-form-urlencoded'],
    ['a multipart form', 'multipart/form-data; boundary=x'],
    ['a type that only starts like JSON', 'application/jsonp'],
    ['a JSON-based type that is not JSON itself', 'application/merge-patch+json'],
    ['no Content-Type', null],
  ])('refuses %s with 415 and records nothing, even with a JSON body', async (_, type) => {
    const before = recorded().length;
    const res = await correct(MUNICH, { 'content-type': type });
    expect(res.status).toBe(415);
    expect(ApiErrorSchema.parse(await res.json()).error.code).toBe('unsupported_media_type');
    expect(recorded()).toHaveLength(before);
  });

  it.each([
    ['with a charset', 'application/json; charset=utf-8'],
    ['in capitals, with spaces', ' Application/JSON ;charset=UTF-8'],
  ])('accepts JSON %s', async (_, type) => {
    expect((await correct(MUNICH, { 'content-type': type })).status).toBe(202);
  });

  it("refuses another site's simple CORS request (text/plain, cross-site), as a browser sends it", async () => {
    const before = recorded().length;
    const res = await correct(MUNICH, { 'content-type': 'text/plain;charset=UTF-8', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(recorded()).toHaveLength(before);
  });

  it('grants nothing to a preflight from another site', async () => {
    const res = await fetch(`${url}/api/corrections`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(res.status).toBeLessThan(500);
    const granted = [...res.headers.keys()].filter((name) => name.startsWith('access-control-allow-'));
    expect(granted).toEqual([]);
  });

  it.each<[string, () => Promise<Response>, number]>([
    ['a recorded correction', () => correct(MUNICH), 202],
    ['one not recorded (DNT)', () => correct(MUNICH, { dnt: '1' }), 200],
    ['a bad body', () => correct({ latitude: 91, longitude: 0 }), 400],
    ['a cross-site request', () => correct(MUNICH, { 'sec-fetch-site': 'cross-site' }), 403],
    ['a body that is not JSON', () => correct(MUNICH, { 'content-type': 'text/plain' }), 415],
    ['a body past the limit', () => correct(' '.repeat(70_000)), 413],
    ['GET', () => fetch(`${url}/api/corrections`, { headers: { origin: 'https://evil.example' } }), 405],
    ['a preflight', () => fetch(`${url}/api/corrections`, { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } }), 204],
  ])('answers %s without Access-Control-Allow-Origin', async (_, send, status) => {
    const res = await send();
    expect(res.status).toBe(status);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('nearerSource', () => {
  const at = (source: string, city: string, latitude: number) => ({ source, city, latitude, longitude: 0 });
  it.each<[string, ReturnType<typeof at>[], string]>([
    ['no source named a city', [], 'unknown'],
    ['a source with only a country does not count', [at('dbip-city', '', 10)], 'unknown'],
    ['only one source named a city', [at('dbip-city', 'A', 10)], 'tie'],
    ['the first is nearer', [at('dbip-city', 'A', 1), at('geolite2-city', 'B', 2)], 'dbip-city'],
    ['the second is nearer', [at('dbip-city', 'A', 2), at('geolite2-city', 'B', 1)], 'geolite2-city'],
    ['both equally near', [at('dbip-city', 'A', 1), at('geolite2-city', 'B', -1)], 'tie'],
    ['within 0.1 km of each other is a tie', [at('dbip-city', 'A', 1), at('geolite2-city', 'B', 1.0001)], 'tie'],
  ])('%s: %s', (_, places, expected) => {
    expect(nearerSource(places, 0, 0)).toBe(expected);
  });
});

describe('POST /api/corrections past the rate limit', () => {
  it('answers 429 without Access-Control-Allow-Origin, as every answer of this route', async () => {
    const limited = await startTestServer({ TRUST_PROXY: 'loopback', RATE_LIMIT: '1' });
    try {
      const post = () => fetch(`${limited.url}/api/corrections`, {
        method: 'POST',
        headers: { ...SAME_ORIGIN, 'x-forwarded-for': '8.8.8.8' },
        body: new TextEncoder().encode(JSON.stringify(MUNICH)),
      });
      // Answered (200, not recorded: this network loaded no page first), then limited.
      expect((await post()).status).toBe(200);
      const refused = await post();
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).not.toBeNull();
      expect(refused.headers.get('access-control-allow-origin')).toBeNull();
      // Any other route's 429 stays readable from any origin.
      const other = await fetch(`${limited.url}/ip`, { headers: { 'x-forwarded-for': '8.8.8.8' } });
      expect(other.status).toBe(429);
      expect(other.headers.get('access-control-allow-origin')).toBe('*');
    } finally {
      await limited.close();
    }
  });
});
