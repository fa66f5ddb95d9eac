/** fast-check: random paths, methods, headers, bodies and addresses never get a 5xx. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import fc from 'fast-check';
import { startTestServer, type TestServer } from './http-harness.ts';

let s: TestServer;
beforeAll(async () => { s = await startTestServer({ RATE_LIMIT: '0', TRUST_PROXY: 'loopback' }); });
afterAll(() => s.close());

const ENDPOINTS = ['/', '/ip', '/json', '/country', '/country-iso', '/city', '/coordinates', '/asn', '/asn-org',
  '/api/lookup', '/api/lookup/bulk', '/api/config', '/api/lookup/', '/api/x', '/healthz', '/robots.txt', '/nope',
  '/api/analytics', '/api/analytics?period=24h', '/api/analytics.csv?period=30d'];

const address = fc.oneof(fc.ipV4(), fc.ipV6(), fc.ipV4Extended(), fc.string(), fc.constantFrom('::ffff:1.2.3.4', '[::1]:80', '1.2.3.4:99', '%', '\u0000'));
const pathArb = fc.oneof(
  fc.constantFrom(...ENDPOINTS),
  address.map((a) => `/api/lookup/${encodeURIComponent(a)}`),
  fc.tuple(fc.constantFrom(...ENDPOINTS), address).map(([p, a]) => `${p}?ip=${encodeURIComponent(a)}`),
  fc.webPath(),
  fc.string().map((x) => '/' + encodeURIComponent(x)),
  fc.constantFrom('/%E0%A4%A', '/%', '/api/lookup/%zz', '//', '/..%2F..%2Fetc%2Fpasswd'),
);
const jsonish = fc.oneof(
  fc.json(),
  fc.string(),
  address.map((ip) => JSON.stringify({ ip, clientInfo: { timezone: 'Europe/Paris' } })),
  fc.array(address, { maxLength: 120 }).map((ips) => JSON.stringify({ ips })),
  fc.record({ ip: address, browserLocation: fc.record({ lat: fc.double(), lng: fc.double(), accuracy: fc.double() }), webrtc: fc.record({ candidates: fc.array(address) }) }).map((v) => JSON.stringify(v)),
);
const headerValue = fc.string({ maxLength: 60 }).filter((v) => /^[\x20-\x7e]*$/.test(v));

it('never answers 5xx, whatever is thrown at it', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom('GET', 'POST', 'HEAD', 'PUT', 'DELETE', 'OPTIONS', 'PATCH'),
      pathArb, jsonish,
      fc.record({
        'user-agent': fc.oneof(headerValue, fc.constantFrom('curl/8', 'Mozilla/5.0')),
        accept: fc.oneof(headerValue, fc.constantFrom('application/json', 'text/plain', 'text/csv')),
        'x-forwarded-for': fc.oneof(headerValue, address.filter((a) => /^[\x20-\x7e]*$/.test(a))),
        'sec-ch-ua': headerValue, 'sec-ch-ua-platform': headerValue, forwarded: headerValue,
        authorization: fc.oneof(headerValue, fc.constantFrom('Bearer ', 'Bearer x', 'Basic abc')), 'sec-fetch-mode': fc.constantFrom('cors', 'navigate'),
      }, { requiredKeys: [] }),
      async (method, path, body, headers) => {
        const res = await fetch(s.url + path, {
          method, headers, body: method === 'GET' || method === 'HEAD' ? undefined : body,
          signal: AbortSignal.timeout(5000),
        });
        await res.arrayBuffer();
        expect(res.status, `${method} ${path}`).toBeLessThan(500);
      },
    ),
    { numRuns: 400 },
  );
});
