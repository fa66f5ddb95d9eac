/**
 * The rate limit: what a client reads off the answers (RateLimit-* headers, 429 and
 * Retry-After at request N+1 and at the window's exact edges, on Vitest's fake Date), window
 * edges, a bounded memory under millions of clients with limited clients kept limited, and
 * limits that hold across the workers of one machine (WEB_CONCURRENCY=2) and across
 * machines (two apps on one Redis), failing open when Redis does not answer.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseIp } from '../src/lib/ip-address.ts';
import type { AppRequest, AppResponse } from '../src/server/http.ts';
import { withRateLimit } from '../src/server/rate-limit.ts';
import { redisStore } from '../src/server/rate-limit-shared.ts';
import { WINDOW_MS, WindowCounts } from '../src/server/rate-limit-store.ts';
import { createTestApp, type AppRequestFn } from './app-harness.ts';
import { startServer } from './e2e/harness.ts';
import { testRedisUrl, uniquePrefix } from './support/redis.ts';

const OK: AppResponse = { status: 200, headers: {}, body: 'ok\n' };
const requestFrom = (ip: string): AppRequest => ({
  method: 'GET', path: '/ip', query: new URLSearchParams(), headers: { get: () => null },
  clientIp: ip, clientAddress: parseIp(ip), body: async () => Buffer.alloc(0),
});
/** The nth public IPv4 address of a walk through 11.0.0.0 upwards (no reserved range on the way for 16M steps). */
const nthAddress = (n: number) => `${11 + (n >>> 24)}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;

describe('as a client sees it', () => {
  // Only the answers are read, never the limiter's state, so these hold for any store.
  const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
  const LIMIT = 3;
  afterEach(() => { vi.useRealTimers(); });

  /** An app limiting public clients to `limit` a minute behind a trusted proxy, started at T0 on a fake Date. */
  async function limitedApp(limit = String(LIMIT)): Promise<AppRequestFn> {
    vi.useFakeTimers({ toFake: ['Date'], now: T0 });
    return createTestApp({ RATE_LIMIT: limit, TRUST_PROXY: 'loopback' });
  }
  const from = (client: string) => ({ headers: { 'x-forwarded-for': client } });

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

  it('allows exactly N requests a minute and refuses request N+1 until the minute is over', async () => {
    const app = await limitedApp();
    const at = async (ms: number) => {
      vi.setSystemTime(T0 + ms);
      return seen(await app('/ip', from('8.8.4.4')));
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
    const app = await limitedApp();
    for (let i = 0; i < LIMIT; i++) await app('/ip', from('8.8.4.4'));
    expect((await app('/ip', from('8.8.4.4'))).status).toBe(429);
    const remaining = async (client: string) => (await app('/ip', from(client))).headers.get('ratelimit-remaining');
    expect(await remaining('9.9.9.9')).toBe('2');
    expect(await remaining('2a00:1450:1:2::1')).toBe('2');
    expect(await remaining('2a00:1450:1:2:ffff::9')).toBe('1');
    expect(await remaining('2a00:1450:1:3::1')).toBe('2');
    expect(await remaining('::ffff:9.9.9.9')).toBe('1');
  });

  it('counts the API and the command-line answers, not pages, and never limits loopback or private clients', async () => {
    const app = await limitedApp();
    expect(await seen(await app('/api/lookup/1.1.1.1', from('8.8.4.4')))).toEqual(allowed(2, 60));
    expect(await seen(await app('/json?ip=1.1.1.1', from('8.8.4.4')))).toEqual(allowed(1, 60));
    const page = await app('/robots.txt', from('8.8.4.4'));
    expect(page.status).toBe(200);
    expect(page.headers.get('ratelimit-remaining')).toBeNull();
    expect(await seen(await app('/country?ip=1.1.1.1', from('8.8.4.4')))).toEqual(allowed(0, 60));
    for (const client of ['127.0.0.1', '10.1.2.3', '192.168.1.1', 'fd00::1']) {
      for (let i = 0; i <= LIMIT; i++) {
        const res = await app('/ip', from(client));
        expect(res.status, client).toBe(200);
        expect(res.headers.get('ratelimit-limit'), client).toBeNull();
      }
    }
  });

  it('is off with RATE_LIMIT=0', async () => {
    const app = await limitedApp('0');
    for (let i = 0; i < 2; i++) {
      const res = await app('/ip', from('8.8.4.4'));
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBeNull();
    }
  });
});

describe('the answers, whatever the store', () => {
  /** The answer to one request when the store says `verdict` (limit 3). */
  const answerTo = async (verdict: { used: number; resetMs: number } | undefined) => {
    const store = { hit: () => Promise.resolve(verdict), state: () => 'test' };
    return (await withRateLimit({ perMinute: 3, guards: () => true, store }, [() => OK])(requestFrom('8.8.4.4')))!;
  };

  it.each([
    // [ms left in the window, RateLimit-Reset and Retry-After in whole seconds, rounded up]
    [1, '1'], [999, '1'], [1000, '1'], [1001, '2'], [29_999, '30'], [30_000, '30'], [60_000, '60'],
  ])('says %i ms left as %s s', async (resetMs, seconds) => {
    const allowed = await answerTo({ used: 3, resetMs });
    expect(allowed.status).toBe(200);
    expect(allowed.headers).toMatchObject({ 'ratelimit-limit': '3', 'ratelimit-remaining': '0', 'ratelimit-reset': seconds });
    const refused = await answerTo({ used: 4, resetMs });
    expect(refused.status).toBe(429);
    expect(refused.headers).toMatchObject({ 'ratelimit-remaining': '0', 'ratelimit-reset': seconds, 'retry-after': seconds });
    expect(JSON.parse(String(refused.body))).toEqual({ error: { code: 'rate_limited', message: `Too many requests: at most 3 a minute. Try again in ${seconds} s.` } });
  });

  it('lets a request through without RateLimit headers when the store cannot answer', async () => {
    const res = await answerTo(undefined);
    expect(res.status).toBe(200);
    expect(Object.keys(res.headers ?? {}).filter((h) => h.startsWith('ratelimit') || h === 'retry-after')).toEqual([]);
  });
});

describe('the memory store', () => {
  it.each([
    // [requests in the window, status of the last, RateLimit-Remaining of the last]
    [1, 200, '2'], [3, 200, '0'], [4, 429, '0'],
  ])('answers request %i of a limit of 3 with %i', async (n, status, remaining) => {
    const limit = withRateLimit({ perMinute: 3, guards: () => true }, [() => OK]);
    let last: AppResponse | undefined;
    for (let i = 0; i < n; i++) last = await limit(requestFrom('8.8.4.4'));
    expect(last!.status).toBe(status);
    expect(last!.headers!['ratelimit-remaining']).toBe(remaining);
  });

  it('starts counting again exactly when the window ends, not a millisecond before', () => {
    let now = 1_000_000;
    const counts = new WindowCounts({ perMinute: 1, now: () => now });
    expect(counts.hit('a').used).toBe(1);
    now += WINDOW_MS - 1;
    expect(counts.hit('a')).toEqual({ used: 2, resetMs: 1 });
    now += 1;
    expect(counts.hit('a')).toEqual({ used: 1, resetMs: WINDOW_MS });
  });

  /** The `used` counts of a store that keeps `maxKeys` clients, for hits by the clients named in turn. */
  const usedFor = (perMinute: number, maxKeys: number, clients: string) => {
    const counts = new WindowCounts({ perMinute, maxKeys, now: () => 0 });
    return [...clients].map((key) => counts.hit(key).used);
  };

  it.each([
    // [what, per minute, clients kept, hits, `used` of each]
    ['keeps exactly as many clients within the limit as it may', 5, 2, 'abab', [1, 1, 2, 2]],
    ['forgets the oldest client within the limit when one more comes', 5, 2, 'abca', [1, 1, 1, 1]],
    ['forgets a client that reached the limit without passing it like any other', 2, 2, 'aabca', [1, 2, 1, 1, 1]],
    ['keeps exactly as many clients past the limit as it may', 1, 2, 'aabba', [1, 2, 1, 2, 3]],
    ['forgets the oldest client past the limit when one more passes it', 1, 2, 'aabbccab', [1, 2, 1, 2, 1, 2, 1, 3]],
    // A client moved past the limit no longer takes a place among those within it.
    ['keeps the clients within the limit when another one passes it', 1, 2, 'xaabx', [1, 1, 2, 1, 2]],
  ])('%s', (_, perMinute, maxKeys, clients, used) => {
    expect(usedFor(perMinute, maxKeys, clients)).toEqual(used);
  });

  it.each([
    ['a', 1], ['aa', 1], ['aaa', 1], ['ab', 2], ['aab', 2],
  ])('counts each client once in /healthz after hits %j', (clients, n) => {
    const counts = new WindowCounts({ perMinute: 1, maxKeys: 10, now: () => 0 });
    for (const key of clients) counts.hit(key);
    expect(counts.state()).toBe(`memory, this process only (${n} clients this minute, at most 10)`);
  });

  it('keeps a limited client limited while 241,000 others pass (the old table was wiped at 200k)', async () => {
    const limit = withRateLimit({ perMinute: 3, guards: () => true }, [() => OK]);
    for (let i = 0; i < 4; i++) await limit(requestFrom('8.8.4.4'));
    for (let i = 0; i < 241_000; i++) limit(requestFrom(nthAddress(i)));
    expect((await limit(requestFrom('8.8.4.4')))!.status).toBe(429);
  }, 60_000);

  it('holds 1M distinct clients in a fixed bound, forgetting the oldest within the limit, never a limited one', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const counts = new WindowCounts({ perMinute: 3, maxKeys: 100_000 });
    for (let i = 0; i < 5; i++) counts.hit('limited');
    counts.hit('near-limit');
    gc();
    const before = process.memoryUsage().heapUsed;
    // The first 100k fill the store; every hit after them evicts one: it must cost about the same.
    const timed = (from: number, to: number) => {
      const started = performance.now();
      for (let i = from; i < to; i++) counts.hit(nthAddress(i));
      return performance.now() - started;
    };
    const filling = timed(0, 100_000);
    timed(100_000, 900_000);
    const evicting = timed(900_000, 1_000_000);
    gc();
    const grownMb = (process.memoryUsage().heapUsed - before) / 1e6;
    expect(counts.size).toBe(100_001);
    expect(grownMb).toBeLessThan(20);
    expect(counts.hit('limited').used).toBe(6);
    // Forgotten: it was among the oldest within the limit.
    expect(counts.hit('near-limit').used).toBe(1);
    expect(evicting / filling).toBeLessThan(3);
  }, 120_000);
});

describe('across the workers of one machine (WEB_CONCURRENCY=2)', () => {
  it('counts a client once whichever worker answers it', async () => {
    const server = await startServer({ WEB_CONCURRENCY: '2', RATE_LIMIT: '5', TRUST_PROXY: 'loopback' });
    try {
      // A fresh connection per request: the primary hands connections to the workers in turn.
      const hit = () => fetch(server.url + '/ip', { headers: { 'x-forwarded-for': '8.8.4.4', connection: 'close' } });
      const answers = [];
      for (let i = 0; i < 8; i++) answers.push(await hit());
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
      expect(answers.map((r) => r.headers.get('ratelimit-remaining'))).toEqual(['4', '3', '2', '1', '0', '0', '0', '0']);
      const health = await (await fetch(server.url + '/healthz')).text();
      expect(health).toMatch(/^rate-limit: the cluster primary .*, ok$/m);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 60_000);
});

const redisUrl = testRedisUrl();

describe.skipIf(!redisUrl)('across machines (REDIS_URL)', () => {
  it('counts a client once whichever of two servers on one Redis answers it', async () => {
    const env = { RATE_LIMIT: '3', TRUST_PROXY: 'loopback', REDIS_URL: redisUrl!, REDIS_PREFIX: uniquePrefix('two-machines') };
    const [a, b] = await Promise.all([createTestApp(env), createTestApp(env)]);
    // Both connect before the first request; until then they fail open.
    await new Promise((r) => setTimeout(r, 300));
    const headers = { 'x-forwarded-for': '8.8.4.4' };
    const statuses = [];
    for (const app of [a, b, a, b]) statuses.push((await app('/ip', { headers })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect((await b('/ip', { headers: { 'x-forwarded-for': '9.9.9.9' } })).headers.get('ratelimit-remaining')).toBe('2');
    expect(await (await a('/healthz')).text()).toMatch(/^rate-limit: Redis \(.*\), ok$/m);
  });

  it('keeps a limited client limited while others churn, in Redis too', async () => {
    const store = redisStore({ url: redisUrl!, perMinute: 2, keyPrefix: uniquePrefix('churn') });
    try {
      const limit = withRateLimit({ perMinute: 2, guards: () => true, store }, [() => OK]);
      await new Promise((r) => setTimeout(r, 300));
      for (let i = 0; i < 3; i++) await limit(requestFrom('8.8.4.4'));
      for (let batch = 0; batch < 20; batch++) {
        await Promise.all(Array.from({ length: 100 }, (_, i) => limit(requestFrom(nthAddress(batch * 100 + i)))));
      }
      expect((await limit(requestFrom('8.8.4.4')))!.status).toBe(429);
    } finally {
      await store.close();
    }
  });
});

/** A redis-server of this test's own on a free port (the shared one is never stopped). */
async function ownRedis(port?: number): Promise<{ port: number; process: ChildProcess }> {
  const free = port ?? await new Promise<number>((resolve) => { const s = createServer().listen(0, '127.0.0.1', () => { const p = (s.address() as { port: number }).port; s.close(() => resolve(p)); }); });
  const child = spawn('redis-server', ['--port', String(free), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    const up = await new Promise<boolean>((resolve) => { const s = createServer(); s.once('error', () => resolve(true)); s.listen(free, '127.0.0.1', () => s.close(() => resolve(false))); });
    if (up) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return { port: free, process: child };
}

describe.skipIf(!redisUrl)('when Redis goes away and comes back', () => {
  it('fails open while it is gone, says so once each way, and limits again once it is back', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    let redis = await ownRedis();
    const store = redisStore({ url: `redis://127.0.0.1:${redis.port}`, perMinute: 2, keyPrefix: uniquePrefix('outage') });
    const limit = withRateLimit({ perMinute: 2, guards: () => true, store }, [() => OK]);
    const status = async () => (await limit(requestFrom('8.8.4.4')))!.status;
    try {
      await new Promise((r) => setTimeout(r, 300));
      expect([await status(), await status(), await status()]).toEqual([200, 200, 429]);
      redis.process.kill('SIGKILL');
      await new Promise((r) => setTimeout(r, 300));
      expect([await status(), await status(), await status()]).toEqual([200, 200, 200]);
      expect(store.state()).toMatch(/does not answer, failing open|not connected, failing open/);
      redis = await ownRedis(redis.port);
      // ioredis reconnects on its own schedule; the limit returns with it (a new, empty Redis).
      let back: number[] = [];
      for (let i = 0; i < 50 && !back.includes(429); i++) {
        await new Promise((r) => setTimeout(r, 200));
        back = [await status(), await status(), await status()];
      }
      expect(back).toContain(429);
      expect(error.mock.calls.map((c) => String(c[0]))).toEqual([
        expect.stringMatching(/^rate limit: Redis \(127\.0\.0\.1:\d+\) does not answer/),
        expect.stringMatching(/^rate limit: Redis \(127\.0\.0\.1:\d+\) answers again; limiting again$/),
      ]);
    } finally {
      await store.close();
      redis.process.kill('SIGKILL');
      error.mockRestore();
    }
  }, 60_000);
});

describe('when Redis does not answer', () => {
  it('lets requests through without RateLimit headers, says so once in the log and on /healthz', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      // Port 9 on loopback: nothing listens there.
      const app = await createTestApp({ RATE_LIMIT: '1', TRUST_PROXY: 'loopback', REDIS_URL: 'redis://127.0.0.1:9', REDIS_PREFIX: uniquePrefix('down') });
      const statuses = [];
      for (let i = 0; i < 5; i++) {
        const res = await app('/ip', { headers: { 'x-forwarded-for': '8.8.4.4' } });
        statuses.push(res.status);
        expect(res.headers.has('ratelimit-remaining')).toBe(false);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200]);
      expect(error.mock.calls.map((c) => String(c[0]))).toEqual([expect.stringMatching(/^rate limit: Redis \(127\.0\.0\.1:9\) does not answer .*requests go through unlimited/)]);
      const health = await app('/healthz');
      expect(health.status).toBe(200);
      expect(await health.text()).toMatch(/^rate-limit: Redis \(127\.0\.0\.1:9\) does not answer, failing open/m);
    } finally {
      error.mockRestore();
    }
  });
});
