/**
 * The security headers every answer carries, read off the wire with node:http so that a
 * header sent twice shows as two lines (fetch would fold them into one).
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/http-harness.ts';

interface Raw { status: number; names: string[]; get(name: string): string | undefined }

function raw(base: string, path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(base + path, { method: init.method ?? 'GET', headers: init.headers }, (res) => {
      res.resume();
      res.on('end', () => {
        const names: string[] = [];
        const values = new Map<string, string>();
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const name = res.rawHeaders[i]!.toLowerCase();
          names.push(name);
          values.set(name, res.rawHeaders[i + 1]!);
        }
        resolve({ status: res.statusCode!, names, get: (name) => values.get(name) });
      });
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

const NON_HTML_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'";

// The answers of the API and the command-line endpoints, errors included.
const MACHINE_ANSWERS: [string, string, string?][] = [
  ['GET', '/ip'],
  ['GET', '/json?ip=8.8.8.8'],
  ['GET', '/country?ip=1.1.1.1'],
  ['GET', '/api/lookup'],
  ['GET', '/api/lookup/2001:4860:4860::8888'],
  ['GET', '/api/config'],
  ['GET', '/api/lookup/not-an-ip'],
  ['GET', '/api/nothing-here'],
  ['POST', '/ip'],
  ['OPTIONS', '/api/lookup'],
  ['GET', '/healthz'],
];

// Headers that only documents use: pages and files carry them, machine answers do not.
const DOCUMENT_HEADERS = ['referrer-policy', 'permissions-policy', 'x-frame-options', 'cross-origin-opener-policy', 'cross-origin-resource-policy'];

let server: TestServer;
beforeAll(async () => { server = await startTestServer(); });
afterAll(() => server.close());

describe('API and command-line answers', () => {
  it.each(MACHINE_ANSWERS)('%s %s carries nosniff and a CSP that allows nothing, once each', async (method, path) => {
    const res = await raw(server.url, path, { method });
    expect(res.status, path).toBeLessThan(500);
    expect(res.get('x-content-type-options')).toBe('nosniff');
    expect(res.get('content-security-policy')).toBe(NON_HTML_CSP);
    if (res.status !== 204) expect(res.get('content-type')).toMatch(/^(application\/json|text\/plain); charset=utf-8$/);
    expect(res.get('strict-transport-security')).toBeUndefined();
    expect(res.names.length, `repeated header in ${res.names.join(', ')}`).toBe(new Set(res.names).size);
  });

  it('leaves the document-only headers to pages and files', async () => {
    const answer = await raw(server.url, '/ip');
    for (const name of DOCUMENT_HEADERS) expect(answer.get(name), name).toBeUndefined();
    for (const path of ['/robots.txt', '/no/such/page', '/ip-2']) {
      const file = await raw(server.url, path);
      expect(file.get('cross-origin-opener-policy'), path).toBe('same-origin');
      expect(file.get('cross-origin-resource-policy'), path).toBe('same-origin');
      expect(file.get('x-frame-options'), path).toBe('DENY');
      expect(file.get('referrer-policy'), path).toBe('strict-origin-when-cross-origin');
      expect(file.get('permissions-policy'), path).toContain('geolocation=(self)');
      expect(file.get('content-security-policy'), path).toContain("frame-ancestors 'none'");
      expect(file.names.length, path).toBe(new Set(file.names).size);
    }
  });
});

describe('CORS on the API and the command-line answers', () => {
  it('lets any origin read every answer, and names the headers it may read only where they are', async () => {
    const plain = await raw(server.url, '/ip', { headers: { origin: 'https://example.org' } });
    expect(plain.get('access-control-allow-origin')).toBe('*');
    expect(plain.get('access-control-expose-headers')).toBeUndefined();
    for (const path of ['/json?ip=8.8.8.8', '/country?ip=8.8.8.8', '/api/lookup/1.1.1.1']) {
      const timed = await raw(server.url, path, { headers: { origin: 'https://example.org' } });
      expect(timed.get('access-control-allow-origin'), path).toBe('*');
      expect(timed.get('server-timing'), path).toMatch(/^lookup;dur=\d+\.\d{3};desc="IP lookup( \(memo\))?"$/);
      expect(timed.get('timing-allow-origin'), path).toBe('*');
      expect(timed.get('access-control-expose-headers'), path).toContain('Server-Timing');
    }
  });

  it('names the RateLimit headers once when a limited answer also carries Server-Timing', async () => {
    const limited = await startTestServer({ RATE_LIMIT: '50', TRUST_PROXY: 'loopback' });
    try {
      const res = await raw(limited.url, '/json?ip=8.8.8.8', { headers: { 'x-forwarded-for': '8.8.4.4' } });
      expect(res.get('ratelimit-remaining')).toBe('49');
      expect(res.get('access-control-expose-headers')).toContain('RateLimit-Remaining');
      expect(res.names.filter((n) => n === 'access-control-expose-headers')).toHaveLength(1);
    } finally {
      await limited.close();
    }
  });
});

describe('behind a trusted proxy that ends TLS', () => {
  let proxied: TestServer;
  beforeAll(async () => { proxied = await startTestServer({ TRUST_PROXY: 'loopback' }); });
  afterAll(() => proxied.close());

  it('adds HSTS to answers, files and errors alike, once', async () => {
    for (const path of ['/ip', '/api/lookup/8.8.8.8', '/api/lookup/nope', '/robots.txt', '/no/such/page']) {
      const res = await raw(proxied.url, path, { headers: { 'x-forwarded-proto': 'https' } });
      expect(res.get('strict-transport-security'), path).toBe('max-age=31536000; includeSubDomains');
      expect(res.names.filter((n) => n === 'strict-transport-security'), path).toHaveLength(1);
    }
    const tooLarge = await raw(proxied.url, '/api/lookup', {
      method: 'POST',
      headers: { 'x-forwarded-proto': 'https', 'content-type': 'application/json' },
      body: JSON.stringify({ pad: 'x'.repeat(70_000) }),
    });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    const plain = await raw(proxied.url, '/ip', { headers: { 'x-forwarded-proto': 'http' } });
    expect(plain.get('strict-transport-security')).toBeUndefined();
  });
});
