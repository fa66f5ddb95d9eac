/**
 * Defects a probe of the server found, each pinned by the behaviour a caller
 * sees: spoofed proxy headers, slow paths, `/` as an unlimited API, deep JSON, cache
 * headers that leak one caller's limit to another, errors without CORS, a raw query in
 * a redirect, NAT64 addresses, and the log under client aborts and failures.
 * In-process through app.request() where that shows it, over a socket where only a
 * socket does.
 */
import { connect } from 'node:net';
import { format } from 'node:util';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../src/server/http/app.ts';
import { routeTable } from '../src/server/http/route-table.ts';
import { loadConfig } from '../src/server/config.ts';
import { Health } from '../src/server/http/health.ts';
import { loadStaticSite } from '../src/server/http/static-site.ts';
import { createTestApp, type AppRequestFn } from './support/app-harness.ts';
import { startTestServer } from './support/http-harness.ts';

let request: AppRequestFn;
let limited: AppRequestFn;
beforeAll(async () => {
  [request, limited] = await Promise.all([createTestApp(), createTestApp({ RATE_LIMIT: '2', TRUST_PROXY: 'loopback' })]);
}, 60_000);
afterEach(() => { vi.restoreAllMocks(); });

/** Every line the server writes to the console while `run` runs. */
async function consoleLines(run: () => Promise<void>): Promise<string[]> {
  const lines: string[] = [];
  const keep = (...args: unknown[]) => { lines.push(...format(...args).split('\n')); };
  for (const level of ['log', 'warn', 'error'] as const) vi.spyOn(console, level).mockImplementation(keep);
  await run();
  vi.restoreAllMocks();
  return lines;
}

describe('behind a trusted proxy', () => {
  it('answers the address the proxy appended, whatever Forwarded or X-Real-IP the client adds', async () => {
    const ask = (headers: Record<string, string>) => limited('/ip', { headers }).then((r) => r.text());
    expect(await ask({ 'x-forwarded-for': '1.1.1.1', forwarded: 'for=6.6.6.6' })).toBe('1.1.1.1\n');
    expect(await ask({ 'x-forwarded-for': '1.1.1.1', 'x-real-ip': '6.6.6.6' })).toBe('1.1.1.1\n');
  });

  it.each([
    ['8.8.8.8, unknown'], ['8.8.8.8, _hidden'], ['8.8.8.8, '], ['garbage'], [''],
  ])('answers X-Forwarded-For %j as an unknown client: no address, no limit exemption, no operator data', async (xff) => {
    const headers = { 'x-forwarded-for': xff };
    for (const path of ['/ip', '/json', '/api/lookup', '/api/analytics.csv', '/lookup/8.8.8.8']) {
      const res = await limited(path, { headers });
      expect(res.status, path).toBe(400);
      expect(await res.json(), path).toEqual({ error: { code: 'unknown_client', message: expect.stringContaining('could not be determined') } });
    }
    // The same for everyone still answers: static files and the health check.
    expect((await limited('/healthz', { headers })).status).toBe(200);
    expect((await limited('/robots.txt', { headers })).status).toBe(200);
  });

  it('does not exempt a client that claims a private address in Forwarded from the limit', async () => {
    const hit = () => limited('/ip', { headers: { 'x-forwarded-for': '9.9.9.10', forwarded: 'for=10.0.0.1' } });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await hit()).status);
    expect(statuses).toEqual([200, 200, 429]);
  });
});

describe('paths', () => {
  it('answers a path of 30,000 slashes and a trailing one within 50 ms', async () => {
    const path = '/'.repeat(30_000) + 'a/';
    // In process: the CPU time the answer costs, which a loaded machine does not inflate as
    // it does wall time (a quadratic walk over the slashes costs seconds either way).
    const cpu = process.cpuUsage();
    const res = await request(path);
    const used = process.cpuUsage(cpu);
    expect(res.status).toBe(404);
    expect((used.user + used.system) / 1000).toBeLessThan(50);
  });

  it.each([
    ['/ip-2/', '/ip-2'],
    ['/ip-2///', '/ip-2'],
    ['/ip-2/?a=<b>&c="d"', '/ip-2?a=%3Cb%3E&c=%22d%22'],
    ['/ip-2/?x=1&x=2&y', '/ip-2?x=1&x=2&y='],
    ['/ip-2/?', '/ip-2'],
  ])('redirects %s to %s, the query re-encoded rather than repeated raw', async (from, to) => {
    const res = await request(from);
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe(to);
  });
});

describe('the rate limit', () => {
  it.each([
    ['Accept: application/json', { accept: 'application/json', 'user-agent': 'Mozilla/5.0' }],
    ['a curl agent', { 'user-agent': 'curl/8.5.0' }],
  ])('counts / answered as the API (%s) like any other lookup', async (_name, headers) => {
    const client = { 'x-forwarded-for': _name.startsWith('Accept') ? '8.8.4.1' : '8.8.4.2' };
    expect((await limited('/ip', { headers: client })).status).toBe(200);
    expect((await limited('/ip', { headers: client })).status).toBe(200);
    expect((await limited('/ip', { headers: client })).status).toBe(429);
    const res = await limited('/?ip=1.1.1.1', { headers: { ...headers, ...client } });
    expect(res.status).toBe(429);
    expect((await limited('/?ip=1.1.1.1', { headers: { ...headers, 'x-forwarded-for': '8.8.4.3' } })).status).toBe(200);
  });
});

describe('cache headers', () => {
  it('never lets a shared cache keep an answer that carries one caller\'s limit', async () => {
    const paths = ['/api/lookup/8.8.8.8', '/api/lookup', '/json?ip=8.8.8.8', '/ip', '/api/config', '/api/analytics', '/api/nothing']; // /api/cities: tests/cities-api.test.ts
    for (const [i, path] of paths.entries()) {
      const res = await limited(path, { headers: { 'x-forwarded-for': `8.8.5.${i}` } });
      const cache = res.headers.get('cache-control') ?? '';
      if (res.headers.has('ratelimit-remaining')) expect(cache, path).toMatch(/^private, (no-store|max-age=\d+)$/);
      else expect(cache, path).toMatch(/^(public, max-age=\d+|private, (no-store|max-age=\d+))$/);
    }
  });

  it('lets a shared cache keep /api/config, which is the same for everyone and counts against no limit', async () => {
    const res = await limited('/api/config', { headers: { 'x-forwarded-for': '8.8.4.10' } });
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(res.headers.has('ratelimit-remaining')).toBe(false);
  });
});

describe('deeply nested input', () => {
  const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

  it.each([5_000, 30_000])('answers a bulk row nested %i deep with a per-row error, not a 500', async (depth) => {
    const lines = await consoleLines(async () => {
      const res = await request('/api/lookup/bulk', { method: 'POST', body: `["8.8.8.8",${nested(depth)}]` });
      expect(res.status).toBe(200);
      const body = await res.json() as { results: Array<{ input: string; error?: { code: string } }> };
      expect(body.results[1]!.error!.code).toBe('invalid_ip');
      expect(body.results[1]!.input.length).toBeLessThanOrEqual(64);
    });
    expect(lines).toEqual([]);
  });

  it('answers a lookup body nested 30,000 deep with 400', async () => {
    const res = await request('/api/lookup', { method: 'POST', body: `{"ip":${nested(30_000)}}` });
    expect(res.status).toBe(400);
  });
});

describe('errors', () => {
  it('lets any origin read a 413', async () => {
    const res = await request('/api/lookup/bulk', { method: 'POST', body: 'x'.repeat(70_000) });
    expect(res.status).toBe(413);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('answers a failing handler with a JSON 500 any origin can read, and logs one line', async () => {
    const config = loadConfig({ HOST: '127.0.0.1', PORT: '0', REVERSE_DNS: 'off' });
    const app = createApp({ config, site: loadStaticSite('dist'), routes: routeTable([{ prefix: '/', handler: () => { throw new Error('boom'); } }]), health: new Health() });
    let res: Response | undefined;
    const lines = await consoleLines(async () => { res = await app.request('/ip'); });
    expect(res!.status).toBe(500);
    expect(res!.headers.get('access-control-allow-origin')).toBe('*');
    expect((await res!.json()).error.code).toBe('internal');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/request failed: GET \/ip: Error: boom/);
  });
});

describe('NAT64 (64:ff9b::/96)', () => {
  it.each([
    ['64:ff9b::808:808', 'AS15169', null],
    ['64:ff9b::8.8.8.8', 'AS15169', null],
    ['64:ff9b::101:101', 'AS13335', null],
    ['64:ff9b::a00:1', 'Unknown', 'Private network'],
  ])('looks %s up as the IPv4 address it carries', async (ip, asn, reserved) => {
    const body = await (await request(`/api/lookup/${ip}`)).json() as { data: { ip: string; ip_version: string; asn: string; reserved: string | null } };
    expect(body.data.asn).toBe(asn);
    expect(body.data.reserved).toBe(reserved);
    expect(body.data.ip_version).toBe('ipv6');
  });

  it('keeps the range just past it (64:ff9b::1:0:0) reserved', async () => {
    const body = await (await request('/api/lookup/64:ff9b::1:0:0')).json() as { data: { reserved: string | null } };
    expect(body.data.reserved).toBe('Reserved');
  });
});

describe('over a socket', () => {
  it('serves / as HTML with its charset', async () => {
    const server = await startTestServer();
    try {
      const res = await fetch(server.url + '/', { headers: { 'user-agent': 'Mozilla/5.0', accept: 'text/html' } });
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    } finally {
      await server.close();
    }
  });

  it('writes nothing to the log when clients abort their uploads', async () => {
    const server = await startTestServer();
    // What the server may say while it starts (the city index loads in the background) is not about aborts.
    await server.routes.cities.ready;
    const { port } = new URL(server.url);
    const abortOne = () => new Promise<void>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write('POST /api/lookup/bulk HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n["8.8');
        setTimeout(() => { socket.destroy(); resolve(); }, 5);
      });
    });
    try {
      const lines = await consoleLines(async () => {
        for (let i = 0; i < 50; i++) await abortOne();
        // The server had its chance to log the aborts once it has served the next request.
        expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      });
      expect(lines).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
