/**
 * The rate limits: what a client reads off the answers (RateLimit-* headers, 429 and
 * Retry-After at request N+1 and at the window's exact edges, on Vitest's fake Date); IPv6
 * clients counted per /64 and per /48, the headers showing the tighter count; the pages' own
 * limit, over a socket; and the memory store: window edges, a bounded memory under millions
 * of keys with limited clients kept limited. The stores shared by workers and machines
 * (cluster primary, Redis) are tested in rate-limit-shared.test.ts.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseIp } from '../src/lib/ip-address.ts';
import type { AppRequest, AppResponse } from '../src/server/http/handler.ts';
import { createPageLimit, NETWORK_FACTOR, withRateLimit } from '../src/server/rate-limit/limit.ts';
import { WINDOW_MS, WindowCounts, type RateLimitStore, type Verdict } from '../src/server/rate-limit/memory-store.ts';
import { createTestApp, type AppRequestFn } from './support/app-harness.ts';
import { startTestServer, type TestServer } from './support/http-harness.ts';

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

  it('counts the /64s of one IPv6 /48 together, with 8 times the budget, and not those of another /48', async () => {
    expect(NETWORK_FACTOR).toBe(8);
    const app = await limitedApp();
    const NETWORK = String(LIMIT * 8);
    const inNetwork = (i: number) => `2a00:1450:4001:${i.toString(16)}::1`;
    const network = (remaining: number) => ({ ...allowed(remaining, 60), limit: NETWORK });
    // One request from each of 22 /64s: each /64 has fewer left than the /48, and shows it.
    for (let i = 0; i < 22; i++) expect(await seen(await app('/ip', from(inNetwork(i)))), inNetwork(i)).toEqual(allowed(2, 60));
    // From here the /48 has fewer left than any fresh /64: its count is the one shown.
    expect(await seen(await app('/ip', from(inNetwork(22))))).toEqual(network(1));
    expect(await seen(await app('/ip', from(inNetwork(23))))).toEqual(network(0));
    const refusedByNetwork = { ...refused(60), limit: NETWORK };
    expect(await seen(await app('/ip', from(inNetwork(24))))).toEqual(refusedByNetwork);
    expect(await seen(await app('/ip', from(inNetwork(0))))).toEqual(refusedByNetwork);
    const res = await app('/ip', from(inNetwork(0xffff)));
    expect(await res.json()).toEqual({ error: { code: 'rate_limited', message: `Too many requests: at most ${NETWORK} a minute from your IPv6 /48 network. Try again in 60 s.` } });
    // Another /48, even the next one, and IPv4 clients have their own counts.
    expect(await seen(await app('/ip', from('2a00:1450:4002::1')))).toEqual(allowed(2, 60));
    expect(await seen(await app('/ip', from('2a00:1450:4000:ffff::1')))).toEqual(allowed(2, 60));
    expect(await seen(await app('/ip', from('8.8.4.4')))).toEqual(allowed(2, 60));
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

  it('says 0 ms left as 1 s, never 0', async () => {
    expect((await answerTo({ used: 4, resetMs: 0 })).headers).toMatchObject({ 'ratelimit-reset': '1', 'retry-after': '1' });
  });
});

/** What a client reads off an answer without RateLimit headers. */
const NONE = { status: 200, limit: undefined, remaining: undefined, reset: undefined, retryAfter: undefined, message: undefined };

describe('an IPv6 client\'s two counts, its /64 (limit 3) and its /48 (limit 24)', () => {
  type Said = [used: number, resetMs: number] | undefined;
  /** A /48's key: its 12 hex digits (a /64's has 16). */
  const isNetwork = (key: string) => key.length === 12;
  /** Stores that say `own` for the /64 and `network` for the /48, at once or later. */
  const STORES: ReadonlyArray<[string, (said: Verdict | undefined, key: string) => Verdict | Promise<Verdict | undefined>]> = [
    ['a store that answers at once', (said) => said!],
    ['a store that answers later', (said) => Promise.resolve(said)],
    ['a store that answers the /48 later', (said, key) => isNetwork(key) ? Promise.resolve(said) : said!],
    ['a store that answers the /64 later', (said, key) => isNetwork(key) ? said! : Promise.resolve(said)],
  ];
  const verdictOf = (said: Said): Verdict | undefined => said && { used: said[0], resetMs: said[1] };

  async function answerTo(own: Said, network: Said, answer: (typeof STORES)[number][1]) {
    const store: RateLimitStore = { hit: (key) => answer(verdictOf(isNetwork(key) ? network : own), key), state: () => 'test' };
    const res = (await withRateLimit({ perMinute: 3, guards: () => true, store }, [() => OK])(requestFrom('2a00:1450:4001:81b::1')))!;
    const h = res.headers ?? {};
    return {
      status: res.status, limit: h['ratelimit-limit'], remaining: h['ratelimit-remaining'], reset: h['ratelimit-reset'], retryAfter: h['retry-after'],
      message: res.status === 429 ? (JSON.parse(String(res.body)) as { error: { message: string } }).error.message : undefined,
    };
  }
  const ok = (limit: string, remaining: string, reset: string) => ({ status: 200, limit, remaining, reset, retryAfter: undefined, message: undefined });
  const no = (limit: string, reset: string) => ({
    status: 429, limit, remaining: '0', reset, retryAfter: reset,
    message: `Too many requests: at most ${limit} a minute${limit === '24' ? ' from your IPv6 /48 network' : ''}. Try again in ${reset} s.`,
  });

  const BOTH_ANSWER: ReadonlyArray<[string, Said, Said, ReturnType<typeof ok> | ReturnType<typeof no>]> = [
    // [what, the /64's [used, ms left], the /48's, what the client reads]
    ['shows the /64 while it has fewer left', [1, 60_000], [1, 60_000], ok('3', '2', '60')],
    ['shows the /64 when both have as many left and start again together', [2, 30_000], [23, 30_000], ok('3', '1', '30')],
    ['shows the /48 once it has fewer left', [1, 60_000], [23, 60_000], ok('24', '1', '60')],
    ['shows the one with fewer left, even if it starts again sooner', [1, 60_000], [23, 1_000], ok('24', '1', '1')],
    ['shows the /64 with fewer left, though the /48 starts again later', [2, 10_000], [1, 50_000], ok('3', '1', '10')],
    ['shows the /48 when both have as many left and it starts again later', [2, 10_000], [23, 20_000], ok('24', '1', '20')],
    ['shows the /64 when both have as many left and it starts again later', [2, 20_000], [23, 10_000], ok('3', '1', '20')],
    ['lets through the last request of both counts', [3, 10_000], [24, 10_000], ok('3', '0', '10')],
    ['refuses one past the /64\'s limit', [4, 10_000], [5, 10_000], no('3', '10')],
    ['refuses one past the /48\'s limit', [1, 10_000], [25, 10_000], no('24', '10')],
    ['refuses one past the /64\'s limit until the /48, at its own, starts again', [4, 10_000], [24, 30_000], no('24', '30')],
    ['refuses one past the /48\'s limit until the /64, at its own, starts again', [3, 30_000], [25, 10_000], no('3', '30')],
  ];
  describe.each(STORES)('from %s', (_, answer) => {
    it.each(BOTH_ANSWER)('%s', async (_what, own, network, expected) => {
      expect(await answerTo(own, network, answer)).toEqual(expected);
    });
  });

  it.each<[string, Said, Said, ReturnType<typeof ok> | ReturnType<typeof no> | typeof NONE]>([
    ['answers from the /64 alone when the /48 does not answer', [1, 60_000], undefined, ok('3', '2', '60')],
    ['answers from the /48 alone when the /64 does not answer', undefined, [25, 5_000], no('24', '5')],
    ['lets the request through without headers when neither answers', undefined, undefined, NONE],
  ])('%s', async (_what, own, network, expected) => {
    expect(await answerTo(own, network, STORES[1]![1])).toEqual(expected);
  });
});

describe('what a limit asks its store', () => {
  /** The keys and limits a store is asked for one request from `ip`, to the API and to a page (limits 3 and 5). */
  function asked(ip: string) {
    const hits: Array<[string, number]> = [];
    const store: RateLimitStore = { hit: (key, limit) => { hits.push([key, limit]); return { used: 1, resetMs: 1000 }; }, state: () => 'test' };
    const api = withRateLimit({ perMinute: 3, guards: () => true, store }, [() => OK])(requestFrom(ip));
    const page = createPageLimit({ perMinute: 5, store })!(requestFrom(ip));
    // The memory store answers at once: so do the limits, without a promise on the hot path.
    expect(api).not.toBeInstanceOf(Promise);
    expect(page).not.toBeInstanceOf(Promise);
    return hits;
  }

  it.each([
    ['an IPv4 client once, by its address', '8.8.4.4', [['8.8.4.4', 3], ['page 8.8.4.4', 5]]],
    ['an IPv6 client twice, by its /64 and its /48 with 8 times the limit', '2a00:1450:4001:81b:1:2:3:4',
      [['2a0014504001081b', 3], ['2a0014504001', 24], ['page 2a0014504001081b', 5], ['page 2a0014504001', 40]]],
    ['the last address of a /64 in that /64', '2a00:1450:4001:81b:ffff:ffff:ffff:ffff',
      [['2a0014504001081b', 3], ['2a0014504001', 24], ['page 2a0014504001081b', 5], ['page 2a0014504001', 40]]],
    ['a /64 whose first digit is 0 in 16 digits all the same, and its /48 in 12', '400:1:2:3::1',
      [['0400000100020003', 3], ['040000010002', 24], ['page 0400000100020003', 5], ['page 040000010002', 40]]],
    ['nothing for a private or loopback client', '10.1.2.3', []],
    ['nothing for a private IPv6 client', 'fd00::1', []],
    ['nothing for a client whose address is unknown', 'unknown', []],
  ])('counts %s, the pages apart from the API', (_, ip, keys) => {
    expect(asked(ip)).toEqual(keys);
  });

  it('asks nothing and answers nothing when the limit is 0', () => {
    expect(createPageLimit({ perMinute: 0 })).toBeUndefined();
  });

  it('answers a page through a store in another process too: the headers, then the refusal', async () => {
    let used = 0;
    const store: RateLimitStore = { hit: () => Promise.resolve({ used: ++used, resetMs: 30_000 }), state: () => 'test' };
    const limit = createPageLimit({ perMinute: 1, store })!;
    const first = await limit(requestFrom('8.8.4.4'));
    expect(first).toEqual({ headers: expect.objectContaining({ 'ratelimit-limit': '1', 'ratelimit-remaining': '0', 'ratelimit-reset': '30' }), refusal: undefined });
    const second = await limit(requestFrom('8.8.4.4'));
    expect(second!.refusal).toMatchObject({ status: 429, cors: false, body: 'Too many pages asked: at most 1 a minute. Try again in 30 s.\n' });
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

  it('is off at 0 a minute: every request answered, without RateLimit headers', async () => {
    const limit = withRateLimit({ perMinute: 0, guards: () => true }, [() => OK]);
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await limit(requestFrom('8.8.4.4')));
    expect(answers.map((a) => [a!.status, a!.headers?.['ratelimit-limit']])).toEqual([[200, undefined], [200, undefined], [200, undefined]]);
  });

  it('starts counting again exactly when the window ends, not a millisecond before', () => {
    let now = 1_000_000;
    const counts = new WindowCounts({ now: () => now });
    expect(counts.hit('a', 1).used).toBe(1);
    now += WINDOW_MS - 1;
    expect(counts.hit('a', 1)).toEqual({ used: 2, resetMs: 1 });
    now += 1;
    expect(counts.hit('a', 1)).toEqual({ used: 1, resetMs: WINDOW_MS });
  });

  /**
   * The `used` counts of a store that keeps `maxKeys` keys, for hits by the clients named in
   * turn, each with a limit of `perMinute` (an upper-case client: twice that, as a /48's is higher).
   */
  const usedFor = (perMinute: number, maxKeys: number, clients: string) => {
    const counts = new WindowCounts({ maxKeys, now: () => 0 });
    return [...clients].map((key) => counts.hit(key, key === key.toUpperCase() ? perMinute * 2 : perMinute).used);
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
    // Each key against its own limit: A (limit 2) is within it where a (limit 1) is past it.
    ['forgets a key at its own limit like any other, though a lower limit would have kept it', 1, 2, 'AAbcA', [1, 2, 1, 1, 1]],
    ['keeps a key past its own limit and forgets one as often asked within a higher limit', 1, 2, 'AAaabcAa', [1, 2, 1, 2, 1, 1, 1, 3]],
  ])('%s', (_, perMinute, maxKeys, clients, used) => {
    expect(usedFor(perMinute, maxKeys, clients)).toEqual(used);
  });

  it.each([
    ['a', 1], ['aa', 1], ['aaa', 1], ['ab', 2], ['aab', 2],
  ])('counts each client once in /healthz after hits %j', (clients, n) => {
    const counts = new WindowCounts({ maxKeys: 10, now: () => 0 });
    for (const key of clients) counts.hit(key, 1);
    expect(counts.state()).toBe(`memory, this process only (${n} keys this minute, at most 10)`);
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
    const counts = new WindowCounts({ maxKeys: 100_000 });
    for (let i = 0; i < 5; i++) counts.hit('limited', 3);
    counts.hit('near-limit', 3);
    gc();
    const before = process.memoryUsage().heapUsed;
    // The first 100k fill the store; every hit after them evicts one: it must cost about the same.
    const timed = (from: number, to: number) => {
      const started = performance.now();
      for (let i = from; i < to; i++) counts.hit(nthAddress(i), 3);
      return performance.now() - started;
    };
    const filling = timed(0, 100_000);
    timed(100_000, 900_000);
    const evicting = timed(900_000, 1_000_000);
    gc();
    const grownMb = (process.memoryUsage().heapUsed - before) / 1e6;
    expect(counts.size).toBe(100_001);
    expect(grownMb).toBeLessThan(20);
    expect(counts.hit('limited', 3).used).toBe(6);
    // Forgotten: it was among the oldest within the limit.
    expect(counts.hit('near-limit', 3).used).toBe(1);
    // An eviction that looked through the store would make the last 100k hits thousands of
    // times slower than the first; the wide bound leaves room for a busy machine (4.7x seen
    // under CI-like load, where the work of the two rounds is the same).
    expect(evicting / filling).toBeLessThan(20);
  }, 120_000);
});


describe('the pages\' own limit (PAGE_RATE_LIMIT), over a socket', () => {
  // Pages render through their shell or through Astro, which only a socket shows whole.
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ PAGE_RATE_LIMIT: '3', RATE_LIMIT: '2', TRUST_PROXY: 'loopback' });
  }, 60_000);
  afterAll(() => server?.close());

  const BROWSER = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36', accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
  /** What a browser at `client` reads off the answer to `path`. */
  async function visit(path: string, client?: string) {
    const res = await fetch(server.url + path, { headers: { ...BROWSER, ...(client ? { 'x-forwarded-for': client } : {}) } });
    const body = await res.text();
    return {
      status: res.status, type: res.headers.get('content-type'), body,
      limit: res.headers.get('ratelimit-limit'), remaining: res.headers.get('ratelimit-remaining'),
      reset: res.headers.get('ratelimit-reset'), retryAfter: res.headers.get('retry-after'),
      // A page is a document, not an API answer: other sites' scripts may not read it.
      cors: res.headers.get('access-control-allow-origin'),
    };
  }
  const page = (remaining: string) => expect.objectContaining({ status: 200, type: expect.stringMatching(/^text\/html/), limit: '3', remaining, retryAfter: null, cors: null });

  it('sends 3 pages a minute, each with RateLimit headers, then a 429 a person can read, with Retry-After', async () => {
    expect(await visit('/', '8.8.4.4')).toEqual(page('2'));
    expect(await visit('/ip-2', '8.8.4.4')).toEqual(page('1'));
    expect(await visit('/lookup/1.1.1.1', '8.8.4.4')).toEqual(page('0'));
    for (const path of ['/', '/lookup/9.9.9.9', '/ip-2']) {
      const refused = await visit(path, '8.8.4.4');
      expect(refused).toMatchObject({ status: 429, type: 'text/plain; charset=utf-8', limit: '3', remaining: '0', cors: null });
      expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(refused.retryAfter)).toBeLessThanOrEqual(60);
      expect(refused.reset).toBe(refused.retryAfter);
      expect(refused.body).toBe(`Too many pages asked: at most 3 a minute. Try again in ${refused.retryAfter} s.\n`);
    }
  });

  it('sends the headers with a page Astro renders per request too', async () => {
    expect(await visit('/lookup/not-an-address', '8.8.4.5')).toEqual(expect.objectContaining({ status: 400, type: expect.stringMatching(/^text\/html/), limit: '3', remaining: '2' }));
  });

  it('counts pages apart from the API: a client past one limit still gets the other', async () => {
    const api = async (client: string) => (await fetch(`${server.url}/ip`, { headers: { 'x-forwarded-for': client } })).status;
    expect([await api('8.8.4.6'), await api('8.8.4.6'), await api('8.8.4.6')]).toEqual([200, 200, 429]);
    expect(await visit('/', '8.8.4.6')).toEqual(page('2'));
    for (let i = 0; i < 3; i++) await visit('/', '8.8.4.7');
    expect((await visit('/', '8.8.4.7')).status).toBe(429);
    const res = await fetch(`${server.url}/ip`, { headers: { 'x-forwarded-for': '8.8.4.7' } });
    expect([res.status, res.headers.get('ratelimit-limit'), res.headers.get('ratelimit-remaining')]).toEqual([200, '2', '1']);
  });

  it('counts the /64s of one IPv6 /48 together for pages too', async () => {
    for (let i = 0; i < 24; i++) expect((await visit('/', `2a00:1450:4003:${i.toString(16)}::1`)).status).toBe(200);
    expect(await visit('/', '2a00:1450:4003:ffff::1')).toMatchObject({ status: 429, limit: '24', body: expect.stringContaining('at most 24 a minute from your IPv6 /48 network') });
    expect(await visit('/', '2a00:1450:4004::1')).toEqual(page('2'));
  });

  it.each([['a private client', '10.1.2.3'], ['a loopback client (no proxy header)', undefined]])('never limits %s', async (_, client) => {
    for (let i = 0; i < 5; i++) {
      const seen = await visit('/', client);
      expect(seen.status).toBe(200);
      expect(seen.limit).toBeNull();
    }
  });

  it('is off with PAGE_RATE_LIMIT=0', async () => {
    const app = await createTestApp({ PAGE_RATE_LIMIT: '0', TRUST_PROXY: 'loopback' });
    for (let i = 0; i < 5; i++) {
      const res = await app('/', { headers: { ...BROWSER, 'x-forwarded-for': '8.8.4.4' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBeNull();
    }
  });
});
