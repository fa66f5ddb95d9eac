/**
 * The security headers every answer carries, read off the wire with node:http so that a
 * header sent twice shows as two lines (fetch would fold them into one).
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './http-harness.ts';

interface Raw { status: number; names: string[]; get(name: string): string | undefined }

function raw(base: string, path: string, init: { method?: string; headers?: Record<string, string> } = {}): Promise<Raw> {
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
    req.end();
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

let server: TestServer;
beforeAll(async () => { server = await startTestServer(); });
afterAll(() => server.close());

describe('API and command-line answers', () => {
  it.each(MACHINE_ANSWERS)('%s %s carries the security headers once each', async (method, path) => {
    const res = await raw(server.url, path, { method });
    expect(res.status, path).toBeLessThan(500);
    expect(res.get('x-content-type-options')).toBe('nosniff');
    expect(res.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(res.get('permissions-policy')).toContain('geolocation=(self)');
    expect(res.get('x-frame-options')).toBe('DENY');
    expect(res.get('content-security-policy')).toBe(NON_HTML_CSP);
    expect(res.get('strict-transport-security')).toBeUndefined();
    expect(res.names.length, `repeated header in ${res.names.join(', ')}`).toBe(new Set(res.names).size);
  });

  it('leaves the document-only COOP and CORP to pages and files', async () => {
    const answer = await raw(server.url, '/ip');
    expect(answer.get('cross-origin-opener-policy')).toBeUndefined();
    expect(answer.get('cross-origin-resource-policy')).toBeUndefined();
    for (const path of ['/robots.txt', '/no/such/page']) {
      const file = await raw(server.url, path);
      expect(file.get('cross-origin-opener-policy'), path).toBe('same-origin');
      expect(file.get('cross-origin-resource-policy'), path).toBe('same-origin');
      expect(file.get('x-frame-options'), path).toBe('DENY');
      expect(file.names.length, path).toBe(new Set(file.names).size);
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
    const plain = await raw(proxied.url, '/ip', { headers: { 'x-forwarded-proto': 'http' } });
    expect(plain.get('strict-transport-security')).toBeUndefined();
  });
});
