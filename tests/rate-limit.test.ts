/**
 * The rate limit over HTTP, as a client sees it: RateLimit-Limit/-Remaining/-Reset on each
 * answer, 429 with Retry-After past the limit, a fresh allowance when the minute is over.
 * Only the answers are checked, never the limiter's state, so these hold for any
 * implementation (src/server/rate-limit.ts, or a library behind it). The clock is Vitest's
 * fake Date, set before the server starts: the window is moved to its exact edges.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from './http-harness.ts';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
const LIMIT = 3;

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  vi.useRealTimers();
});

/** A server limiting public clients to `limit` a minute, reached through a trusted proxy. */
async function limitedServer(limit: string): Promise<TestServer> {
  server = await startTestServer({ RATE_LIMIT: limit, TRUST_PROXY: 'loopback' });
  return server;
}

const hit = (s: TestServer, client: string, path = '/ip') => fetch(s.url + path, { headers: { 'x-forwarded-for': client } });

/** What a client reads off one answer. */
async function seen(res: Response) {
  const body = await res.text();
  return {
    status: res.status,
    limit: res.headers.get('ratelimit-limit'),
    remaining: res.headers.get('ratelimit-remaining'),
    reset: res.headers.get('ratelimit-reset'),
    retryAfter: res.headers.get('retry-after'),
    code: res.status === 429 ? (JSON.parse(body) as { error: { code: string } }).error.code : undefined,
  };
}

const allowed = (remaining: number, reset: number) =>
  ({ status: 200, limit: String(LIMIT), remaining: String(remaining), reset: String(reset), retryAfter: null, code: undefined });
const refused = (seconds: number) =>
  ({ status: 429, limit: String(LIMIT), remaining: '0', reset: String(seconds), retryAfter: String(seconds), code: 'rate_limited' });

describe('rate limit of one client', () => {
  it('allows exactly N requests a minute and refuses request N+1 until the minute is over', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: T0 });
    const s = await limitedServer(String(LIMIT));
    const at = async (ms: number) => {
      vi.setSystemTime(T0 + ms);
      return seen(await hit(s, '8.8.4.4'));
    };
    expect(await at(0)).toEqual(allowed(2, 60));
    expect(await at(0)).toEqual(allowed(1, 60));
    expect(await at(0)).toEqual(allowed(0, 60));
    expect(await at(0)).toEqual(refused(60));
    expect(await at(30_000)).toEqual(refused(30));
    expect(await at(59_999)).toEqual(refused(1));
    // Exactly one minute after the first request: a new minute, a full allowance.
    expect(await at(60_000)).toEqual(allowed(2, 60));
  });

  it('counts each client on its own, IPv6 clients per /64, an IPv4-mapped address as its IPv4 address', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: T0 });
    const s = await limitedServer(String(LIMIT));
    for (let i = 0; i < LIMIT; i++) await hit(s, '8.8.4.4');
    expect((await hit(s, '8.8.4.4')).status).toBe(429);
    const remaining = async (client: string) => (await hit(s, client)).headers.get('ratelimit-remaining');
    expect(await remaining('9.9.9.9')).toBe('2');
    expect(await remaining('2a00:1450:1:2::1')).toBe('2');
    expect(await remaining('2a00:1450:1:2:ffff::9')).toBe('1');
    expect(await remaining('2a00:1450:1:3::1')).toBe('2');
    expect(await remaining('::ffff:9.9.9.9')).toBe('1');
  });

  it('counts the API and the command-line answers, not pages, and never limits loopback or private clients', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: T0 });
    const s = await limitedServer(String(LIMIT));
    expect(await seen(await hit(s, '8.8.4.4', '/api/lookup/1.1.1.1'))).toEqual(allowed(2, 60));
    expect(await seen(await hit(s, '8.8.4.4', '/json?ip=1.1.1.1'))).toEqual(allowed(1, 60));
    const page = await hit(s, '8.8.4.4', '/robots.txt');
    expect(page.status).toBe(200);
    expect(page.headers.get('ratelimit-remaining')).toBeNull();
    expect(await seen(await hit(s, '8.8.4.4', '/country?ip=1.1.1.1'))).toEqual(allowed(0, 60));
    for (const client of ['127.0.0.1', '10.1.2.3', '192.168.1.1', 'fd00::1']) {
      for (let i = 0; i <= LIMIT; i++) {
        const res = await hit(s, client);
        expect(res.status, client).toBe(200);
        expect(res.headers.get('ratelimit-limit'), client).toBeNull();
      }
    }
  });

  it('is off with RATE_LIMIT=0', async () => {
    const s = await limitedServer('0');
    for (let i = 0; i < 2; i++) {
      const res = await hit(s, '8.8.4.4');
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBeNull();
    }
  });
});
