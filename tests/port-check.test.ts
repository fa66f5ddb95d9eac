/**
 * The open-port check, `/port/{n}`: against a listener and a closed port on 127.0.0.1 and
 * ::1 (private callers allowed by PORT_CHECK_PRIVATE, as only tests do), the caller's own
 * address only, bad ports, its own rate limit and the in-flight cap. Nothing connects
 * anywhere but loopback: the limit is tested from a public address with ports refused
 * before any connect, and the cap with a probe that never connects.
 */
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseIp } from '../src/lib/ip-address.ts';
import type { AppRequest, AppResponse } from '../src/server/http/handler.ts';
import { createPortCheck, MAX_CHECKS_IN_FLIGHT } from '../src/server/handlers/port-api.ts';
import { createTestApp, type AppRequestFn } from './support/app-harness.ts';

/** A listener on `host`, port 0, and a port on `host` that nothing listens on (one that was just freed). */
async function ports(host: string): Promise<{ open: number; closed: number; server: Server }> {
  const listen = () => new Promise<Server>((resolve) => { const s = createServer((c) => c.destroy()); s.listen(0, host, () => resolve(s)); });
  const server = await listen();
  const freed = await listen();
  const closed = (freed.address() as AddressInfo).port;
  await new Promise((resolve) => freed.close(resolve));
  return { open: (server.address() as AddressInfo).port, closed, server };
}

let request: AppRequestFn;
let v4: Awaited<ReturnType<typeof ports>>;
let v6: Awaited<ReturnType<typeof ports>>;
beforeAll(async () => {
  [request, v4, v6] = await Promise.all([createTestApp({ PORT_CHECK_PRIVATE: 'on' }), ports('127.0.0.1'), ports('::1')]);
});
afterAll(() => { v4.server.close(); v6.server.close(); });

const get = async (path: string, init: Parameters<AppRequestFn>[1] = {}) => {
  const res = await request(path, init);
  return { res, body: await res.text() };
};

describe('/port/{n} on loopback', () => {
  it.each([
    ['127.0.0.1', () => v4.open, true],
    ['127.0.0.1', () => v4.closed, false],
    ['::1', () => v6.open, true],
    ['::1', () => v6.closed, false],
  ])('from %s: a port is reachable when something listens on it', async (peer, port, reachable) => {
    const { res, body } = await get(`/port/${port()}`, { peer });
    expect(res.status).toBe(200);
    expect(JSON.parse(body)).toEqual({ ip: peer, port: port(), reachable });
    // Other sites' pages may not read it.
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it.each([
    ['curl', 'json', { 'user-agent': 'curl/8.5.0' }],
    ['curl asking for JSON', 'json', { 'user-agent': 'curl/8.5.0', accept: 'application/json' }],
    ['curl sending */*', 'json', { 'user-agent': 'curl/8.5.0', accept: '*/*' }],
    ['a browser', 'json', { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0', accept: 'text/html,*/*;q=0.8' }],
    ['Wget asking for text', 'text', { 'user-agent': 'Wget/1.21', accept: 'text/plain' }],
    ['anyone asking for text', 'text', { accept: 'text/plain; charset=utf-8' }],
  ])('answers %s in %s, as ifconfig.co does', async (_who, kind, headers) => {
    for (const [port, reachable] of [[v4.open, true], [v4.closed, false]] as const) {
      const { res, body } = await get(`/port/${port}`, { headers });
      expect(res.status).toBe(200);
      if (kind === 'text') expect([res.headers.get('content-type'), body]).toEqual(['text/plain; charset=utf-8', reachable ? 'yes\n' : 'no\n']);
      else expect(JSON.parse(body)).toEqual({ ip: '127.0.0.1', port, reachable });
    }
  });
});

describe('/port/{n} refuses', () => {
  it.each([
    ['/port/0', 400, 'invalid_port'],
    ['/port/65536', 400, 'invalid_port'],
    ['/port/99999', 400, 'invalid_port'],
    ['/port/abc', 400, 'invalid_port'],
    ['/port/-1', 400, 'invalid_port'],
    ['/port/1.5', 400, 'invalid_port'],
    ['/port/', 400, 'invalid_port'],
    ['/port/080x', 400, 'invalid_port'],
    ['/port/80?ip=8.8.8.8', 400, 'ip_not_allowed'],
    ['/port/80?ip=', 400, 'ip_not_allowed'],
  ])('%s with %i %s', async (path, status, code) => {
    const { res, body } = await get(path);
    expect(res.status).toBe(status);
    expect(JSON.parse(body).error.code).toBe(code);
  });

  it('carries no CORS on any answer: errors, its rate limit\'s 429 and a method refused', async () => {
    const limited = await createTestApp({ TRUST_PROXY: 'loopback', PORT_CHECK_RATE_LIMIT: '1' });
    const strict = await createTestApp({});
    const from = { headers: { 'x-forwarded-for': '84.17.0.10', origin: 'https://elsewhere.example' } };
    await limited('/port/0', from);
    const answers = await Promise.all([
      request('/port/0'), request('/port/80?ip=8.8.8.8'), request('/port/80', { method: 'POST' }), request('/port/80', { method: 'OPTIONS' }),
      strict('/port/80', { peer: '10.0.0.1' }), limited('/port/0', from),
    ]);
    expect(answers.map((r) => r.status)).toEqual([400, 400, 405, 405, 403, 429]);
    for (const res of answers) {
      expect([...res.headers.keys()].filter((name) => name.startsWith('access-control-')), `${res.status}`).toEqual([]);
    }
  });

  it.each([['1', 200], ['65535', 200]])('takes the edge port %s', async (port, status) => {
    expect((await get(`/port/${port}`)).res.status).toBe(status);
  });

  it('refuses a private or loopback caller unless PORT_CHECK_PRIVATE allows it', async () => {
    const strict = await createTestApp({});
    for (const peer of ['127.0.0.1', '::1', '10.0.0.1']) {
      const res = await strict(`/port/${v4.open}`, { peer });
      expect(res.status).toBe(403);
      expect((await res.json() as { error: { code: string } }).error.code).toBe('private_caller');
    }
  });

  it('limits a public client to PORT_CHECK_RATE_LIMIT checks a minute, with Retry-After, apart from the API limit', async () => {
    // A bad port is counted before it is refused, so no check connects anywhere.
    const app = await createTestApp({ TRUST_PROXY: 'loopback', PORT_CHECK_RATE_LIMIT: '10', RATE_LIMIT: '1000' });
    const from = { headers: { 'x-forwarded-for': '84.17.0.10' } };
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 1000; i++) {
      last = await app('/port/0', from);
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(400));
    expect(new Set(statuses.slice(10))).toEqual(new Set([429]));
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(last!.headers.get('ratelimit-limit')).toBe('10');
    // The API's own count is another: the same client still gets its record.
    expect((await app('/json', from)).status).toBe(200);
  });
});

const requestFrom = (ip: string, path: string): AppRequest => ({
  method: 'GET', path, query: new URLSearchParams(), headers: { get: () => null },
  clientIp: ip, clientAddress: parseIp(ip), body: async () => Buffer.alloc(0),
});

describe('which caller addresses the check connects to', () => {
  // Each row: a caller, and whether the check may connect to it (else 403 private_caller, no connect).
  it.each<[string, string, boolean]>([
    ['8.8.8.8', 'public IPv4', true],
    ['2606:4700::1111', 'public IPv6', true],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback', false],
    ['::ffff:8.8.8.8', 'IPv4-mapped public', true],
    ['2002:7f00:1::', '6to4 of 127.0.0.1', false],
    ['2002:7f00:1:ffff:ffff:ffff:ffff:ffff', '6to4 of 127.0.0.1, the last of its /48', false],
    ['2002:c0a8:101::1', '6to4 of 192.168.1.1', false],
    ['2002:a00:1::1', '6to4 of 10.0.0.1', false],
    ['2002:a9fe:a9fe::1', '6to4 of 169.254.169.254', false],
    ['2002::1', '6to4 of 0.0.0.0', false],
    ['2002:808:808::1', '6to4 of 8.8.8.8', true],
    ['2002:7eff:ffff::1', '6to4 of 126.255.255.255, just below loopback', true],
    ['2002:8000::1', '6to4 of 128.0.0.0, just above loopback', true],
    ['fec0::1', 'site-local, the first of fec0::/10', false],
    ['feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'the last of fec0::/10', false],
    ['fe80::1', 'link-local', false],
    ['fd00::1', 'unique local', false],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo', false],
    ['2001:0:808:808::1', 'Teredo with a public server', false],
    ['64:ff9b::7f00:1', 'NAT64 of 127.0.0.1', false],
    ['64:ff9b::a00:1', 'NAT64 of 10.0.0.1', false],
    ['64:ff9b::808:808', 'NAT64 of 8.8.8.8', true],
    ['64:ff9b:1::808:808', 'local-use NAT64', false],
    ['100::1', 'discard-only', false],
    ['5f00::1', 'SRv6 SIDs', false],
    ['3fff::1', 'documentation 3fff::/20', false],
    ['3fff:1000::1', 'just past 3fff::/20', true],
    ['1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'just below 2000::/3', false],
    ['2000::1', 'the first of 2000::/3', true],
    ['3fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'the last of 2000::/3', true],
    ['4000::1', 'just past 2000::/3', false],
    ['::7f00:1', 'IPv4-compatible', false],
  ])('%s (%s): connects %s', async (ip, _what, connects) => {
    const asked: string[] = [];
    const check = createPortCheck({ allowPrivate: false, probe: async (to) => { asked.push(to); return false; } });
    const answer = await check(requestFrom(ip, '/port/80')) as AppResponse;
    expect(answer.status).toBe(connects ? 200 : 403);
    expect(asked).toEqual(connects ? [ip] : []);
  });
});

describe('checks in flight', () => {
  it(`holds at most ${MAX_CHECKS_IN_FLIGHT} per client, each IPv6 /64 one client, and frees them as they end`, async () => {
    const pending: Array<() => void> = [];
    const probe = () => new Promise<boolean>((resolve) => pending.push(() => resolve(true)));
    const check = createPortCheck({ allowPrivate: false, probe });
    const ask = (ip: string) => check(requestFrom(ip, '/port/80')) as Promise<AppResponse>;
    const first = Array.from({ length: MAX_CHECKS_IN_FLIGHT }, (_, i) => ask(`2a02:2e0::${i + 1}`));
    const refused = await ask('2a02:2e0::ff');
    expect(refused.status).toBe(429);
    expect(JSON.parse(String(refused.body)).error.code).toBe('too_many_checks');
    expect(pending).toHaveLength(MAX_CHECKS_IN_FLIGHT);
    // Another client is not held up by this one.
    const other = ask('84.17.0.10');
    expect(pending).toHaveLength(MAX_CHECKS_IN_FLIGHT + 1);
    pending.splice(0).forEach((resolve) => resolve());
    expect((await Promise.all([...first, other])).map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const after = ask('2a02:2e0::ff');
    expect(pending).toHaveLength(1);
    pending[0]!();
    expect((await after).status).toBe(200);
  });
});
