/**
 * The command-line answers (ifconfig.co-compatible), in-process through app.request(),
 * and the rate limit behind a trusted proxy over a real socket.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { IpInfoSchema } from '../src/lib/record.ts';
import { JsonMemo } from '../src/server/text-endpoints.ts';
import { createTestApp, type AppRequestFn } from './app-harness.ts';
import { startTestServer } from './http-harness.ts';

let request: AppRequestFn;
beforeAll(async () => { request = await createTestApp(); });

const text = async (path: string, headers: Record<string, string> = { 'user-agent': 'curl/8.5.0' }) => {
  const res = await request(path, { headers });
  return { res, body: await res.text() };
};

describe('curl host/', () => {
  it.each(['curl/8.5.0', 'Wget/1.21.4', 'HTTPie/3.2.2', 'Go-http-client/1.1', 'python-requests/2.32',
    'ddclient/3.11.2', 'Mikrotik/7.x Fetch', 'Go 1.1 package http'])(
    'answers %s with the bare IP and a newline', async (ua) => {
      const { res, body } = await text('/', { 'user-agent': ua });
      expect(body).toBe('127.0.0.1\n');
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('private, no-store');
    });

  it.each(['ddclientish/1.0', 'Go 1.10 package http', 'MikrotikFan'])('leaves %s (no known client, only a prefix) to the page', async (ua) => {
    const { body } = await text('/', { 'user-agent': ua });
    expect(body).not.toBe('127.0.0.1\n');
  });

  it('answers Accept: text/plain with the bare IP', async () => {
    expect((await text('/', { accept: 'text/plain', 'user-agent': 'Mozilla/5.0' })).body).toBe('127.0.0.1\n');
  });

  it('answers Accept: application/json with the record', async () => {
    const { body } = await text('/?ip=8.8.8.8', { accept: 'application/json', 'user-agent': 'Mozilla/5.0' });
    expect(IpInfoSchema.parse(JSON.parse(body)).asn).toBe('AS15169');
  });

  it('leaves browsers to the HTML page', async () => {
    // The page renders into node's response: ask over a socket.
    const server = await startTestServer();
    try {
      const res = await fetch(server.url + '/', { headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0 Safari/537.36', accept: 'text/html,*/*' } });
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await res.text()).toContain('<!DOCTYPE html>');
    } finally {
      await server.close();
    }
  });
});

describe('one field per endpoint', () => {
  it.each([
    ['/ip?ip=8.8.8.8', /^8\.8\.8\.8\n$/],
    ['/ip', /^127\.0\.0\.1\n$/],
    ['/country?ip=8.8.8.8', /^United States\n$/],
    ['/country-iso?ip=8.8.8.8', /^US\n$/],
    ['/asn?ip=8.8.8.8', /^AS15169\n$/],
    ['/asn-org?ip=1.1.1.1', /cloudflare/i],
    ['/coordinates?ip=8.8.8.8', /^-?\d+(\.\d+)?,-?\d+(\.\d+)?\n$/],
    ['/city?ip=2001:4860:4860::8888', /^.+\n$/],
    ['/ip?ip=::ffff:1.1.1.1', /^1\.1\.1\.1\n$/],
    ['/country?ip=10.0.0.1', /^Unknown\n$/],
  ])('%s answers %s', async (path, expected) => {
    const { res, body } = await text(path);
    expect(res.status).toBe(200);
    expect(body).toMatch(expected);
  });

  it('answers /json with the full record and Server-Timing', async () => {
    const { res, body } = await text('/json?ip=1.1.1.1');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('server-timing')).toMatch(/^lookup;dur=/);
    expect(IpInfoSchema.parse(JSON.parse(body))).toMatchObject({ ip: '1.1.1.1', asn: 'AS13335' });
  });

  it('answers /json again from its memo, byte for byte what a fresh lookup gives', async () => {
    const first = await text('/json?ip=9.9.9.9');
    const again = await text('/json?ip=9.9.9.9');
    expect(first.res.headers.get('server-timing')).toMatch(/desc="IP lookup"$/);
    expect(again.res.headers.get('server-timing')).toMatch(/desc="IP lookup \(memo\)"$/);
    expect(again.body).toBe(first.body);
    const fresh = await (await request('/api/lookup/9.9.9.9')).json();
    expect(again.body).toBe(JSON.stringify(fresh.data) + '\n');
    expect(JSON.parse(again.body).location_source).toBe('ip');
  });

  it.each(['/ip?ip=bad', '/json?ip=1.2.3', '/country?ip=', '/asn?ip=%E2%80%8B'])('answers %s with 400 invalid_ip', async (path) => {
    const { res, body } = await text(path);
    expect(res.status).toBe(400);
    expect(JSON.parse(body).error.code).toBe('invalid_ip');
  });

  it('refuses POST with 405', async () => {
    const res = await request('/ip', { method: 'POST' });
    expect(res.status).toBe(405);
  });
});

describe('the /json memo', () => {
  it('keeps the newest addresses up to its limit and drops the oldest first', () => {
    const memo = new JsonMemo(2);
    memo.set('1.1.1.1', 'a');
    memo.set('8.8.8.8', 'b');
    memo.set('9.9.9.9', 'c');
    expect([memo.get('1.1.1.1'), memo.get('8.8.8.8'), memo.get('9.9.9.9')]).toEqual([undefined, 'b', 'c']);
  });

  it('keeps nothing longer than an address, and nothing at all with limit 0', () => {
    const memo = new JsonMemo(10);
    const padded = ' '.repeat(40) + '1.1.1.1';
    memo.set(padded, 'a');
    expect(memo.get(padded)).toBeUndefined();
    const off = new JsonMemo(0);
    off.set('1.1.1.1', 'a');
    expect(off.get('1.1.1.1')).toBeUndefined();
  });
});

describe('rate limit', () => {
  it('counts per client behind a trusted proxy and answers 429 with Retry-After', async () => {
    const limited = await startTestServer({ RATE_LIMIT: '3', TRUST_PROXY: 'loopback' });
    try {
      const hit = (ip: string) => fetch(limited.url + '/ip', { headers: { 'x-forwarded-for': ip } });
      const first = await hit('8.8.4.4');
      expect(first.headers.get('ratelimit-limit')).toBe('3');
      expect(first.headers.get('ratelimit-remaining')).toBe('2');
      await hit('8.8.4.4');
      await hit('8.8.4.4');
      const refused = await hit('8.8.4.4');
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await refused.json()).error.code).toBe('rate_limited');
      expect((await hit('9.9.9.9')).status).toBe(200);
      // IPv6 clients share a bucket per /64; an IPv4-mapped address is its IPv4 address.
      expect((await hit('2a00:1450:1:2::1')).headers.get('ratelimit-remaining')).toBe('2');
      expect((await hit('2a00:1450:1:2:ffff::9')).headers.get('ratelimit-remaining')).toBe('1');
      expect((await hit('2a00:1450:1:3::1')).headers.get('ratelimit-remaining')).toBe('2');
      expect((await hit('::ffff:9.9.9.9')).headers.get('ratelimit-remaining')).toBe('1');
      // Loopback (our own proxies, health checks) is never limited.
      for (let i = 0; i < 5; i++) expect((await fetch(limited.url + '/ip')).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
