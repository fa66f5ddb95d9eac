/** The JSON API, in-process through app.request(), on the real databases. */
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiErrorSchema, LookupResponseSchema } from '../src/lib/record.ts';
import { ClientConfigSchema } from '../src/lib/client-config.ts';
import { createTestApp, type AppRequestFn } from './support/app-harness.ts';

let request: AppRequestFn;
beforeAll(async () => { request = await createTestApp({ PUBLIC_STUN_URL: 'stun:127.0.0.1:3478' }); });

const get = (path: string, init?: Parameters<AppRequestFn>[1]) => request(path, init);
const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  request(path, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });

async function lookup(path: string, init?: Parameters<AppRequestFn>[1]) {
  const res = await get(path, init);
  expect(res.status, path).toBe(200);
  return { res, body: LookupResponseSchema.parse(await res.json()) };
}

/** Checks an error answer's status and code; returns its message. */
async function expectError(res: Response, status: number, code: string): Promise<string> {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const { error } = ApiErrorSchema.parse(await res.json());
  expect(error.code).toBe(code);
  return error.message;
}

describe('GET /api/lookup/{ip}', () => {
  it.each([
    ['8.8.8.8', 'AS15169', 'US', /google/i],
    ['1.1.1.1', 'AS13335', undefined, /cloudflare/i],
    ['2001:4860:4860::8888', 'AS15169', undefined, /google/i],
  ])('knows %s as %s', async (ip, asn, country, org) => {
    const { res, body } = await lookup(`/api/lookup/${ip}`);
    expect(body.data.ip).toBe(ip);
    expect(body.data.asn).toBe(asn);
    expect(body.data.asn_org).toMatch(org);
    if (country) expect(body.data.country_code).toBe(country);
    expect(body.device).toBeNull();
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('server-timing')).toMatch(/^lookup;dur=\d+\.\d+/);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
  });

  it.each([['127.0.0.1', 'Loopback'], ['10.0.0.1', 'Private network'], ['::1', 'Loopback']])(
    'labels %s as %s without a lookup', async (ip, kind) => {
      const { body } = await lookup(`/api/lookup/${ip}`);
      expect(body.data.reserved).toBe(kind);
      expect(body.data.network_type).toBe('private');
    });

  it('shows an IPv4-mapped address as IPv4', async () => {
    const { body } = await lookup('/api/lookup/::ffff:8.8.8.8');
    expect(body.data.ip).toBe('8.8.8.8');
  });

  it.each(['not-an-ip', '1.2.3.4.5', '999.1.1.1', '%00', '1.2.3.4%2F24'])('answers 400 invalid_ip for %j', async (ip) => {
    const message = await expectError(await get(`/api/lookup/${encodeURIComponent(ip)}`), 400, 'invalid_ip');
    expect(message).toBe(`"${decodeURIComponent(encodeURIComponent(ip))}" is not a valid IPv4 or IPv6 address.`);
  });

  it('quotes at most 64 characters of a long input back', async () => {
    const message = await expectError(await get(`/api/lookup/${'x'.repeat(300)}`), 400, 'invalid_ip');
    expect(message).toBe(`"${'x'.repeat(64)}" is not a valid IPv4 or IPv6 address.`);
  });

  // In-process answers drop a HEAD body as fetch does; that none is sent is checked on the
  // bytes, over a socket, in command-line-api.test.ts ('HEAD over a socket').
  it('answers HEAD with the headers of GET', async () => {
    const [head, full] = await Promise.all([get('/api/lookup/8.8.8.8', { method: 'HEAD' }), get('/api/lookup/8.8.8.8')]);
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toMatch(/^application\/json/);
    expect(head.headers.get('content-length')).toBe(String((await full.arrayBuffer()).byteLength));
  });
});

describe('GET and POST /api/lookup (the caller)', () => {
  it('looks up the caller with device details and no shared caching', async () => {
    const { res, body } = await lookup('/api/lookup', { headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36' } });
    expect(body.data.ip).toBe('127.0.0.1');
    expect(body.device).toMatchObject({ browser: 'Chrome', os: 'Linux', device: 'Desktop' });
    expect(res.headers.get('cache-control')).toBe('private, no-store');
  });

  it.each([
    ['no address: the caller', '{}', '127.0.0.1'],
    ['a blank address: the caller', '{"ip":"  "}', '127.0.0.1'],
    ['an address with spaces around it', '{"ip":" 8.8.8.8 "}', '8.8.8.8'],
  ])('looks up %s on POST', async (_n, body, ip) => {
    const res = await post('/api/lookup', body);
    expect(res.status).toBe(200);
    expect(LookupResponseSchema.parse(await res.json()).data.ip).toBe(ip);
  });

  it('scores a timezone mismatch from the client info', async () => {
    const res = await post('/api/lookup', JSON.stringify({ ip: '8.8.8.8', clientInfo: { timezone: 'Asia/Tokyo', language: 'ja' } }));
    const body = LookupResponseSchema.parse(await res.json());
    expect(body.data.vpn.indicators).toContain('Timezone mismatch');
  });

  it("turns a GPS fix into a hybrid record with the browser's own accuracy", async () => {
    const res = await post('/api/lookup', JSON.stringify({ ip: '8.8.8.8', browserLocation: { lat: 48.8566, lng: 2.3522, accuracy: 20 } }));
    const body = LookupResponseSchema.parse(await res.json());
    expect(body.data).toMatchObject({ location_source: 'hybrid', accuracy_tier: 'high', accuracy_radius: 20, latitude: 48.8566, longitude: 2.3522 });
  });

  it('reports a WebRTC leak when a public candidate belongs to another network', async () => {
    const res = await post('/api/lookup', JSON.stringify({ ip: '8.8.8.8', webrtc: { candidates: ['192.168.1.20', 'abc.local', '9.9.9.9'] } }));
    const leaked = LookupResponseSchema.parse(await res.json());
    expect(leaked.data.vpn.indicators).toContain('WebRTC IP leak detected');
    expect(leaked.webrtc).toEqual([{ ip: '9.9.9.9', ip_version: 'ipv4', kind: 'leak' }]);
    const clean = await post('/api/lookup', JSON.stringify({ ip: '8.8.8.8', webrtc: { candidates: ['192.168.1.20', '8.8.8.8'] } }));
    expect(LookupResponseSchema.parse(await clean.json()).data.vpn.indicators).not.toContain('WebRTC IP leak detected');
  });

  it.each([
    ['bad JSON', '{"ip":', 400, 'bad_json', /^The request body is not valid JSON\.$/],
    ['a wrong shape', '{"browserLocation":{"lat":"north"}}', 400, 'invalid_request', /^browserLocation\.lat: ./],
    ['a body that is not an object', '"8.8.8.8"', 400, 'invalid_request', /^body: ./],
    ['a latitude out of range', '{"browserLocation":{"lat":123,"lng":0,"accuracy":5}}', 400, 'invalid_request', /^browserLocation\.lat: ./],
    ['an invalid address', '{"ip":"300.1.1.1"}', 400, 'invalid_ip', /^"300\.1\.1\.1" is not a valid/],
    ['too large a body', JSON.stringify({ ip: '8.8.8.8', pad: 'x'.repeat(70_000) }), 413, 'payload_too_large', /./],
  ])('answers %s with %i %s', async (_n, body, status, code, message) => {
    expect(await expectError(await post('/api/lookup', body), status, code)).toMatch(message);
  });
});

describe('POST /api/lookup/bulk', () => {
  it('answers one row per input with per-row errors', async () => {
    const res = await post('/api/lookup/bulk', JSON.stringify({ ips: ['8.8.8.8', 'bogus', '1.1.1.1', 42] }));
    expect(res.status).toBe(200);
    const body = await res.json() as { count: number; results: Array<{ input: string; data?: { asn: string }; error?: { code: string } }> };
    expect(body.count).toBe(4);
    expect(body.results.map((r) => r.data?.asn ?? r.error?.code)).toEqual(['AS15169', 'invalid_ip', 'AS13335', 'invalid_ip']);
    expect(body.results[3]!.input).toBe('42');
  });

  // A row for an input that is not a string names it by the start of its JSON (64 characters).
  it.each([
    ['an array', [1, [2, 'x'], null], '[1,[2,"x"],null]'],
    ['an object', { a: 1, 'b c': [true, {}], d: { e: false } }, '{"a":1,"b c":[true,{}],"d":{"e":false}}'],
    ['an empty array and object', [[], {}], '[[],{}]'],
    ['a long array, cut at 64 characters', Array.from({ length: 40 }, (_, i) => i), JSON.stringify(Array.from({ length: 40 }, (_, i) => i)).slice(0, 64)],
    ['a long object, cut at 64 characters', Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, i])), JSON.stringify(Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, i]))).slice(0, 64)],
  ])('names %s by its JSON in its row', async (_n, item, input) => {
    const res = await post('/api/lookup/bulk', JSON.stringify([item]));
    const body = await res.json() as { results: Array<{ input: string; error?: { code: string; message: string } }> };
    expect(body.results).toEqual([{ input, error: { code: 'invalid_ip', message: `"${input}" is not a valid IPv4 or IPv6 address.` } }]);
  });

  it.each([
    ['?format=csv', '/api/lookup/bulk?format=csv', {}],
    ['Accept: text/csv', '/api/lookup/bulk', { accept: 'text/csv' }],
  ])('answers CSV for %s, with a header, the same rows, and coordinates as numbers', async (_n, path, headers) => {
    const res = await post(path, JSON.stringify(['8.8.8.8', 'nope', '=cmd()']), headers);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="ip-lookup.csv"');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const text = await res.text();
    expect(text.endsWith('\r\n')).toBe(true);
    const lines = text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('input,ip,country_code,country_name,region,city,latitude,longitude,timezone,asn,asn_org,network_type,vpn_detected,hostname,hostname_confirmed,error');
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(/^8\.8\.8\.8,8\.8\.8\.8,US,/);
    // A number is a number (src/lib/csv.ts): the US longitude is negative and unguarded.
    const { data } = (await lookup('/api/lookup/8.8.8.8')).body;
    expect(data.longitude).toBeLessThan(0);
    expect(lines[1]).toContain(`,${data.latitude},${data.longitude},`);
    // A found row's error cell, the last one, is empty.
    expect(lines[1]).toMatch(/,(true|false),$/);
    expect(lines[2]).toMatch(/^nope,(,){14}"""nope"" is not a valid/);
    expect(lines[3]).toMatch(/^'=cmd\(\)/);
  });

  it('looks up exactly 100 addresses, the most one request may carry', async () => {
    const inputs = Array.from({ length: 100 }, (_, i) => `8.8.${i}.8`);
    const res = await post('/api/lookup/bulk', JSON.stringify(inputs));
    expect(res.status).toBe(200);
    const body = await res.json() as { count: number; results: Array<{ input: string; data?: unknown }> };
    expect(body.count).toBe(100);
    expect(body.results.map((r) => r.input)).toEqual(inputs);
    expect(body.results.every((r) => r.data !== undefined)).toBe(true);
  });

  it.each([
    ['101 addresses', JSON.stringify(Array.from({ length: 101 }, () => '8.8.8.8')), 'too_many', 'At most 100 addresses per request; this one has 101.'],
    ['an object without ips', '{"addresses":[]}', 'invalid_request', 'Send a JSON array of addresses, or {"ips": [...]}.'],
    ['bad JSON', '[1,', 'bad_json', 'The request body is not valid JSON.'],
  ])('refuses %s with 400', async (_n, body, code, message) => {
    expect(await expectError(await post('/api/lookup/bulk', body), 400, code)).toBe(message);
  });
});

describe('the rest of /api', () => {
  it('serves the runtime client config, cacheable for five minutes', async () => {
    const res = await get('/api/config');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const config = ClientConfigSchema.parse(await res.json());
    expect(config.stunUrl).toBe('stun:127.0.0.1:3478');
    expect(config.stunPort).toBe(3478);
    expect(config.ipv4Url).toBeNull();
  });

  it.each([
    ['PUT', '/api/lookup', 'GET, HEAD, POST', 'Use GET, POST here.'],
    ['DELETE', '/api/lookup/8.8.8.8', 'GET, HEAD', 'Use GET here.'],
    ['GET', '/api/lookup/bulk', 'POST', 'Use POST here.'],
    ['POST', '/api/config', 'GET, HEAD', 'Use GET here.'],
  ])('answers %s %s with 405 and Allow', async (method, path, allow, message) => {
    const res = await get(path, { method });
    expect(await expectError(res, 405, 'method_not_allowed')).toBe(message);
    expect(res.headers.get('allow')).toBe(allow);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it.each(['/api', '/api/nothing-here'])('answers the unknown API path %s with a JSON 404', async (path) => {
    expect(await expectError(await get(path), 404, 'not_found')).toBe(`No API endpoint at ${path}.`);
  });

  it.each([[100, 100], [101, 100]])('quotes an unknown API path of %i characters with its first %i', async (length, shown) => {
    const path = '/api/' + 'x'.repeat(length - 5);
    expect(await expectError(await get(path), 404, 'not_found')).toBe(`No API endpoint at ${path.slice(0, shown)}.`);
  });

  it('leaves a path that only starts like the API to the site', async () => {
    const res = await get('/apinothing');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('measures Server-Timing within the time the request took', async () => {
    for (const [path, init] of [
      ['/api/lookup/8.8.8.8', {}],
      ['/api/lookup/bulk', { method: 'POST', body: '["1.1.1.1"]' }],
      ['/json?ip=9.9.9.10', {}],
      ['/country?ip=1.0.0.1', {}],
    ] as const) {
      const started = performance.now();
      const res = await get(path, init);
      const elapsed = performance.now() - started;
      const ms = Number(/^lookup;dur=([\d.]+);/.exec(res.headers.get('server-timing') ?? '')?.[1]);
      expect(ms, path).toBeGreaterThanOrEqual(0);
      expect(ms, path).toBeLessThanOrEqual(elapsed);
    }
  });

  it('answers a CORS preflight', async () => {
    const res = await get('/api/lookup/bulk', { method: 'OPTIONS', headers: { origin: 'https://example.org', 'access-control-request-method': 'POST' } });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, HEAD, POST, OPTIONS');
    expect(res.headers.get('access-control-allow-headers')).toBe('Content-Type, Accept');
    expect(res.headers.get('access-control-max-age')).toBe('86400');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });
});
