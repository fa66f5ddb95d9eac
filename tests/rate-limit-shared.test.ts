/**
 * The rate-limit stores shared beyond one process (src/server/rate-limit/shared-stores.ts): limits that hold
 * across the workers of one machine (WEB_CONCURRENCY=2: the primary counts, each key against
 * the limit its hit carries) and across machines (two apps on one Redis, sharing counts only
 * with the same RATE_LIMIT_SECRET); Redis keys that hold no address, only a keyed hash; and
 * failing open when Redis does not answer.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { describe, expect, it, vi } from 'vitest';
import { parseIp } from '../src/lib/ip-address.ts';
import type { AppRequest, AppResponse } from '../src/server/http/handler.ts';
import { withRateLimit } from '../src/server/rate-limit/limit.ts';
import { redisStore } from '../src/server/rate-limit/shared-stores.ts';
import { createTestApp } from './support/app-harness.ts';
import { startServer } from './support/browser-harness.ts';
import { testRedis, uniquePrefix } from './support/redis.ts';

const OK: AppResponse = { status: 200, headers: {}, body: 'ok\n' };
const requestFrom = (ip: string): AppRequest => ({
  method: 'GET', path: '/ip', query: new URLSearchParams(), headers: { get: () => null },
  clientIp: ip, clientAddress: parseIp(ip), body: async () => Buffer.alloc(0),
});
/** The nth public IPv4 address of a walk through 11.0.0.0 upwards (no reserved range on the way for 16M steps). */
const nthAddress = (n: number) => `${11 + (n >>> 24)}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
/** A secret for RATE_LIMIT_SECRET (at least 16 characters). */
const SECRET = 'a-test-secret-of-32-characters!!';
/** A browser's headers: `/` answers it the page, not the API. */
const BROWSER = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36', accept: 'text/html' };

/** Resolves once `state` (a store's, or a /healthz) says Redis answers: until then a new store fails open. */
async function connected(state: () => string | Promise<string>): Promise<void> {
  await vi.waitFor(async () => {
    const now = await state();
    if (!/Redis \(.*\), ok$/m.test(now)) throw new Error(`Redis did not connect: ${now}`);
  }, { timeout: 5_000, interval: 50 });
}

describe('across the workers of one machine (WEB_CONCURRENCY=2)', () => {
  // A fresh connection per request: each may reach either worker (they accept on the shared socket).
  const ask = (url: string, client: string) => fetch(url, { headers: { ...BROWSER, 'x-forwarded-for': client, connection: 'close' } });

  it('counts a client, its IPv6 /48 and its pages once whichever worker answers, each against its own limit', async () => {
    const server = await startServer({ WEB_CONCURRENCY: '2', RATE_LIMIT: '5', PAGE_RATE_LIMIT: '2', TRUST_PROXY: 'loopback' });
    try {
      const answers = [];
      for (let i = 0; i < 8; i++) answers.push(await ask(server.url + '/ip', '8.8.4.4'));
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
      expect(answers.map((r) => r.headers.get('ratelimit-remaining'))).toEqual(['4', '3', '2', '1', '0', '0', '0', '0']);
      // 40 /64s of one /48 (5 each, 40 for the /48), one request each: the 41st is refused by the /48.
      const network = [];
      for (let i = 0; i <= 40; i++) network.push(await ask(server.url + '/ip', `2a00:1450:4001:${i.toString(16)}::1`));
      expect(network.slice(0, 40).map((r) => r.status)).toEqual(Array(40).fill(200));
      expect([network[40]!.status, network[40]!.headers.get('ratelimit-limit')]).toEqual([429, '40']);
      // Pages count apart from the API, as the workers' own limit says.
      const pages = [];
      for (let i = 0; i < 3; i++) pages.push(await ask(server.url + '/', '8.8.4.4'));
      expect(pages.map((r) => [r.status, r.headers.get('ratelimit-limit')])).toEqual([[200, '2'], [200, '2'], [429, '2']]);
      const health = await (await fetch(server.url + '/healthz')).text();
      expect(health).toMatch(/^rate-limit: the cluster primary .*, ok$/m);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 60_000);

  it('holds the port check\'s limit with the API\'s and the pages\' limits off', async () => {
    const server = await startServer({ WEB_CONCURRENCY: '2', RATE_LIMIT: '0', PAGE_RATE_LIMIT: '0', PORT_CHECK_RATE_LIMIT: '3', TRUST_PROXY: 'loopback' });
    try {
      // A bad port is counted before it is refused: no check connects anywhere.
      const statuses = [];
      for (let i = 0; i < 6; i++) statuses.push((await ask(server.url + '/port/0', '8.8.4.4')).status);
      expect(statuses).toEqual([400, 400, 400, 429, 429, 429]);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 60_000);
});

const sharedRedis = testRedis();

describe.skipIf(sharedRedis.skip)('across machines (REDIS_URL)', () => {
  it('counts a client once whichever of two servers on one Redis answers it', async () => {
    const env = { RATE_LIMIT: '3', TRUST_PROXY: 'loopback', REDIS_URL: sharedRedis.get(), REDIS_PREFIX: uniquePrefix('two-machines'), RATE_LIMIT_SECRET: SECRET };
    const [a, b] = await Promise.all([createTestApp(env), createTestApp(env)]);
    // Both connect before the first request; until then they fail open.
    for (const app of [a, b]) await connected(async () => (await app('/healthz')).text());
    const headers = { 'x-forwarded-for': '8.8.4.4' };
    const statuses = [];
    for (const app of [a, b, a, b]) statuses.push((await app('/ip', { headers })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect((await b('/ip', { headers: { 'x-forwarded-for': '9.9.9.9' } })).headers.get('ratelimit-remaining')).toBe('2');
    expect(await (await a('/healthz')).text()).toMatch(/^rate-limit: Redis \(.*\), ok$/m);
  });

  it('keeps a limited client limited while others churn, in Redis too', async () => {
    const store = redisStore({ url: sharedRedis.get(), keyPrefix: uniquePrefix('churn'), secret: SECRET });
    try {
      const limit = withRateLimit({ perMinute: 2, guards: () => true, store }, [() => OK]);
      await connected(() => store.state());
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

describe.skipIf(sharedRedis.skip)('what Redis holds (RATE_LIMIT_SECRET)', () => {
  /** Every key under `prefix`, by SCAN, as another client of the same Redis sees them. */
  async function keysUnder(prefix: string): Promise<string[]> {
    const redis = new Redis(sharedRedis.get());
    try {
      const keys: string[] = [];
      let cursor = '0';
      do {
        const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
        keys.push(...found);
        cursor = next;
      } while (cursor !== '0');
      return keys;
    } finally {
      redis.disconnect();
    }
  }

  it('holds no address, /64 or /48 in its keys, in text or in hex: only a keyed hash of each count', async () => {
    const prefix = uniquePrefix('hashed');
    const app = await createTestApp({ RATE_LIMIT: '100', PAGE_RATE_LIMIT: '100', TRUST_PROXY: 'loopback', REDIS_URL: sharedRedis.get(), REDIS_PREFIX: prefix, RATE_LIMIT_SECRET: SECRET });
    await connected(async () => (await app('/healthz')).text());
    const v4 = ['81.2.69.177', '8.8.4.4', '9.9.9.9'];
    const v6 = [['2a00:1450:4001:81b::200e', '2a00:1450:4001:81b', '2a00:1450:4001'], ['2606:4700:4700::1111', '2606:4700:4700:0', '2606:4700:4700']];
    for (const client of [...v4, ...v6.map(([address]) => address!)]) {
      for (const path of ['/ip', '/']) expect((await app(path, { headers: { ...BROWSER, 'x-forwarded-for': client } })).headers.get('ratelimit-remaining'), path).toBe('99');
    }
    const keys = await keysUnder(prefix);
    // The API's and the pages' count of each client, and for IPv6 of its /48 as well.
    expect(keys).toHaveLength(v4.length * 2 + v6.length * 4);
    for (const key of keys) expect(key).toMatch(new RegExp(`^${prefix}:[\\w-]{22}$`));
    const hex = (ip: string, bits: number) => (parseIp(ip)!.value as bigint >> BigInt(128 - bits)).toString(16);
    const forbidden = [
      ...v4.flatMap((ip) => [ip, (parseIp(ip)!.value as number).toString(16), String(parseIp(ip)!.value)]),
      ...v6.flatMap(([ip, net64, net48]) => [ip!, net64!, net48!, hex(ip!, 64), hex(ip!, 48)]),
    ];
    for (const key of keys) {
      const hashed = key.slice(prefix.length + 1).toLowerCase();
      for (const text of forbidden) expect(hashed, `${key} holds ${text}`).not.toContain(text.toLowerCase());
    }
  });

  it('shares counts between stores with the same secret, and none with a store of another secret', async () => {
    const keyPrefix = uniquePrefix('secrets');
    const [a, b, other] = [SECRET, SECRET, 'another-secret-of-the-same-length'].map((secret) => redisStore({ url: sharedRedis.get(), keyPrefix, secret }));
    try {
      for (const store of [a!, b!, other!]) await connected(() => store.state());
      for (const key of ['81.2.69.177', '2a0014504001081b', '2a0014504001']) {
        expect([(await a!.hit(key, 3))?.used, (await b!.hit(key, 3))?.used, (await other!.hit(key, 3))?.used], key).toEqual([1, 2, 1]);
      }
    } finally {
      await Promise.all([a!, b!, other!].map((store) => store.close()));
    }
  });

  it('draws a secret of its own without RATE_LIMIT_SECRET, says so in one line, and so shares no count', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const env = { RATE_LIMIT: '3', TRUST_PROXY: 'loopback', REDIS_URL: sharedRedis.get(), REDIS_PREFIX: uniquePrefix('no-secret') };
      const said = () => warn.mock.calls.map((c) => String(c[0])).filter((line) => line.startsWith('rate limit:') && line.includes('RATE_LIMIT_SECRET'));
      const a = await createTestApp(env);
      expect(said()).toEqual([expect.stringMatching(/^rate limit: RATE_LIMIT_SECRET is not set: .*counts will not be shared across machines .*until it is set$/)]);
      const b = await createTestApp(env);
      expect(said()).toHaveLength(2);
      for (const app of [a, b]) await connected(async () => (await app('/healthz')).text());
      const headers = { 'x-forwarded-for': '8.8.4.4' };
      const remaining = async (app: typeof a) => (await app('/ip', { headers })).headers.get('ratelimit-remaining');
      expect([await remaining(a), await remaining(a), await remaining(b)]).toEqual(['2', '1', '2']);
    } finally {
      warn.mockRestore();
    }
  });

  it('hands the secret it draws to its workers, which share their counts', async () => {
    const server = await startServer({ WEB_CONCURRENCY: '2', RATE_LIMIT: '3', TRUST_PROXY: 'loopback', REDIS_URL: sharedRedis.get(), REDIS_PREFIX: uniquePrefix('workers'), RATE_LIMIT_SECRET: '' });
    try {
      const ask = (path: string) => fetch(server.url + path, { headers: { 'x-forwarded-for': '8.8.4.4', connection: 'close' } });
      // Each worker connects on its own: two health checks in a row, one from each, must both say so.
      const health = async () => (await ask('/healthz')).text();
      await connected(async () => {
        const first = await health();
        return /Redis \(.*\), ok$/m.test(first) ? health() : first;
      });
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push((await ask('/ip')).status);
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      expect(server.output().match(/RATE_LIMIT_SECRET is not set/g)).toHaveLength(1);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 60_000);
});

/** A redis-server of this test's own on a free port (the shared one is never stopped). */
async function ownRedis(port?: number): Promise<{ port: number; process: ChildProcess }> {
  const free = port ?? await new Promise<number>((resolve) => { const s = createServer().listen(0, '127.0.0.1', () => { const p = (s.address() as { port: number }).port; s.close(() => resolve(p)); }); });
  const child = spawn('redis-server', ['--port', String(free), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  await vi.waitFor(async () => {
    const up = await new Promise<boolean>((resolve) => { const s = createServer(); s.once('error', () => resolve(true)); s.listen(free, '127.0.0.1', () => s.close(() => resolve(false))); });
    if (!up) throw new Error(`redis-server does not listen on ${free} yet`);
  }, { timeout: 5_000, interval: 50 }).catch(() => undefined);
  return { port: free, process: child };
}

describe.skipIf(sharedRedis.skip)('when Redis goes away and comes back', () => {
  it('fails open while it is gone, says so once each way, and limits again once it is back', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    let redis = await ownRedis();
    const store = redisStore({ url: `redis://127.0.0.1:${redis.port}`, keyPrefix: uniquePrefix('outage'), secret: SECRET });
    const limit = withRateLimit({ perMinute: 2, guards: () => true, store }, [() => OK]);
    const status = async () => (await limit(requestFrom('8.8.4.4')))!.status;
    try {
      // Connected first (on a busy machine that can take longer than any fixed wait).
      await vi.waitFor(() => expect(store.state()).toMatch(/, ok$/), { timeout: 10_000, interval: 50 });
      expect([await status(), await status(), await status()]).toEqual([200, 200, 429]);
      const gone = new Promise((r) => redis.process.once('exit', r));
      redis.process.kill('SIGKILL');
      await gone;
      expect([await status(), await status(), await status()]).toEqual([200, 200, 200]);
      expect(store.state()).toMatch(/does not answer, failing open|not connected, failing open/);
      redis = await ownRedis(redis.port);
      // ioredis reconnects on its own schedule; the limit returns with it (a new, empty Redis).
      let back: number[] = [];
      await vi.waitFor(async () => {
        back = [await status(), await status(), await status()];
        expect(back).toContain(429);
      }, { timeout: 10_000, interval: 200 }).catch(() => undefined);
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

describe('settings that must match across machines', () => {
  it.skipIf(sharedRedis.skip)('logs once, naming both values, when another store on the same Redis has another prefix or limit', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const limits = { rateLimitSecret: SECRET, pageRateLimit: 120, portCheck: { perMinute: 10 }, dnsLeakRateLimit: 10 };
    const open = (keyPrefix: string, rateLimit: number) => redisStore({ url: sharedRedis.get(), keyPrefix, secret: SECRET, shared: { ...limits, redisPrefix: keyPrefix, rateLimit } });
    const reader = new Redis(sharedRedis.get());
    const [prefixA, prefixB] = [uniquePrefix('settings-a'), uniquePrefix('settings-b')];
    const a = open(prefixA, 3017);
    let b: ReturnType<typeof open> | undefined;
    try {
      // The second store opens once the first has written its settings: it then compares at once.
      await vi.waitFor(async () => {
        const keys = await reader.keys('whatismyip:settings:*');
        const values = keys.length ? await reader.mget(...keys) : [];
        expect(values.some((v) => v?.includes(prefixA))).toBe(true);
      }, { timeout: 5000 });
      b = open(prefixB, 1013);
      await vi.waitFor(() => {
        const lines = warn.mock.calls.map((c) => String(c[0])).filter((l) => l.startsWith('shared settings:') && l.includes('settings-a') && l.includes('settings-b'));
        // Values no other store on this Redis has: a line about them cannot have been said before.
        expect(lines.some((l) => /RATE_LIMIT: (1013 here, 3017|3017 here, 1013) there/.test(l))).toBe(true);
      }, { timeout: 5000 });
      const said = warn.mock.calls.map((c) => String(c[0])).filter((l) => l.startsWith('shared settings:'));
      expect(new Set(said).size).toBe(said.length);
      expect(said.join('\n')).not.toContain(SECRET);
    } finally {
      await Promise.all([a.close(), b?.close()]);
      reader.disconnect();
      warn.mockRestore();
    }
  });
});
