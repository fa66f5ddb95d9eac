/**
 * The analytics database goes away during a burst of lookups: a PostgreSQL cluster of
 * this test's own (tests/support/throwaway-postgres.ts) is stopped and started again
 * while browsers keep looking up. Lookups stay 200 and as fast as before, /healthz says
 * the store is degraded, and once the database is back every queued row arrives; past
 * the queue's bound, rows are dropped and counted, never more than the bound kept. The
 * outage is logged when it starts and when it ends. And a DATABASE_URL that cannot work
 * shows on /healthz at start, before any lookup.
 */
import { createServer, type AddressInfo } from 'node:net';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from './support/http-harness.ts';
import { startThrowawayPostgres, throwawayPostgres, type ThrowawayPostgres } from './support/throwaway-postgres.ts';

const binaries = throwawayPostgres();
const BROWSER = {
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'sec-fetch-mode': 'cors',
};

let cluster: ThrowawayPostgres;
beforeAll(async () => { if (!binaries.skip) cluster = await startThrowawayPostgres(binaries.get()); }, 120_000);
afterAll(async () => { await cluster?.destroy(); });

/** A distinct public address per request number. */
const addressOf = (i: number) => `81.${(i >> 8) & 255}.${i & 255}.7`;

/** Looks up `count` addresses as a browser, 20 at a time; `during(i)` runs before request i. */
async function burst(server: TestServer, count: number, during: (i: number) => Promise<void> | void = () => undefined, isDown = () => false) {
  const results: { i: number; status: number; ms: number; whileDown: boolean }[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      await during(i);
      const whileDown = isDown();
      const started = performance.now();
      const res = await fetch(`${server.url}/api/lookup`, { headers: { ...BROWSER, 'x-forwarded-for': addressOf(i) } });
      await res.arrayBuffer();
      results.push({ i, status: res.status, ms: performance.now() - started, whileDown: whileDown && isDown() });
    }
  };
  await Promise.all(Array.from({ length: 20 }, worker));
  return results;
}

async function analyticsHealth(server: TestServer) {
  const res = await fetch(`${server.url}/healthz`, { headers: { accept: 'application/json' } });
  return (await res.json()).parts.analytics as { state: string; queued: number; dropped: number; written: number };
}

/** The first value `read` gives that is `done`, or the last one read when none is within `ms` (the caller's assert says what is wrong). */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 60_000): Promise<T> {
  let value: T | undefined;
  await vi.waitFor(async () => {
    value = await read();
    if (!done(value)) throw new Error('not yet');
  }, { timeout: ms, interval: 100 }).catch(() => undefined);
  return value ?? await read();
}

async function countRows(url: string): Promise<number> {
  const sql = postgres(url, { max: 1 });
  try {
    return Number((await sql`SELECT count(*) AS n FROM analytics_lookups`)[0]!.n);
  } finally {
    await sql.end();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

describe.skipIf(binaries.skip)('PostgreSQL outage during a burst', () => {
  it('keeps answering at full speed and writes every queued row once the database is back', async () => {
    const url = `${cluster.url}?search_path=burst`;
    const server = await startTestServer({ DATABASE_URL: url, TRUST_PROXY: 'loopback' });
    try {
      const N = 3000;
      let down: Promise<void> | undefined;
      let up: Promise<void> | undefined;
      let isDown = false;
      let degraded: { state: string } | undefined;
      const results = await burst(server, N, async (i) => {
        if (i === 1000) down = cluster.stop().then(() => { isDown = true; });
        if (i === 2000) {
          await down;
          degraded = await until(() => analyticsHealth(server), (h) => h.state === 'degraded');
          isDown = false;
          up = cluster.start();
        }
      }, () => isDown);
      await up;
      expect(results.filter((r) => r.status !== 200)).toEqual([]);
      expect(degraded).toMatchObject({ state: 'degraded' });
      // Hundreds of lookups ran while the database was down, as quick as before it went.
      const outage = results.filter((r) => r.whileDown).map((r) => r.ms);
      expect(outage.length).toBeGreaterThan(300);
      const before = median(results.filter((r) => r.i < 1000).map((r) => r.ms));
      console.log(`${outage.length} lookups while PostgreSQL was down: median ${median(outage).toFixed(1)} ms; before: ${before.toFixed(1)} ms`);
      expect(median(outage)).toBeLessThan(before * 3 + 5);
      const health = await until(() => analyticsHealth(server), (h) => h.queued === 0 && h.state === 'ok');
      expect(health).toMatchObject({ state: 'ok', queued: 0, dropped: 0, written: N });
      expect(await countRows(url)).toBe(N);
    } finally {
      await server.close();
    }
  }, 180_000);

  it('keeps at most its bound while the database is down, counts the rest as dropped, and writes what it kept', async () => {
    const url = `${cluster.url}?search_path=bounded`;
    const server = await startTestServer({ DATABASE_URL: url, TRUST_PROXY: 'loopback', ANALYTICS_QUEUE_LIMIT: '500' });
    const logged = vi.spyOn(console, 'error');
    const lines = (pattern: RegExp) => logged.mock.calls.map((c) => String(c[0])).filter((line) => pattern.test(line));
    try {
      await burst(server, 10);
      await until(() => analyticsHealth(server), (h) => h.written === 10);
      await cluster.stop();
      const results = await burst(server, 800);
      expect(results.every((r) => r.status === 200)).toBe(true);
      const waiting = await until(() => analyticsHealth(server), (h) => h.state === 'degraded');
      expect(waiting).toMatchObject({ state: 'degraded', queued: 500, dropped: 300 });
      // Said once when it starts, while it lasts: not only at shutdown, not on every retry.
      await vi.waitFor(() => expect(lines(/^analytics: the postgres store fails \(.+\); rows wait in memory \(at most 500\) and are retried$/)).toHaveLength(1));
      expect(lines(/store is back/)).toEqual([]);
      await cluster.start();
      const health = await until(() => analyticsHealth(server), (h) => h.queued === 0 && h.state === 'ok');
      expect(health).toMatchObject({ queued: 0, dropped: 300, written: 510 });
      expect(await countRows(url)).toBe(510);
      expect(lines(/store is back/)).toEqual([expect.stringMatching(/^analytics: the postgres store is back after \d+ s: 500 rows kept and being written, 300 dropped$/)]);
      expect(lines(/store fails/)).toHaveLength(1);
    } finally {
      logged.mockRestore();
      await server.close();
    }
  }, 180_000);
});

describe('a DATABASE_URL that cannot work', () => {
  it('makes /healthz say degraded within seconds of start, before any lookup, and logs it once', async () => {
    // A local port nothing listens on: taken, then given back.
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const logged = vi.spyOn(console, 'error');
    const server = await startTestServer({ DATABASE_URL: `postgres://nobody:secret@127.0.0.1:${closed}/analytics` });
    try {
      const started = Date.now();
      await vi.waitFor(async () => {
        const text = await (await fetch(`${server.url}/healthz`)).text();
        expect(text.split('\n')[0]).toBe('degraded');
      }, { timeout: 5_000, interval: 50 });
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(await analyticsHealth(server)).toMatchObject({ state: 'degraded', queued: 0, written: 0 });
      const lines = logged.mock.calls.map((c) => String(c[0])).filter((line) => line.startsWith('analytics:'));
      expect(lines).toEqual([expect.stringMatching(/^analytics: the postgres store fails \(.*ECONNREFUSED.*\); rows wait/)]);
      // The password is not in the log line.
      expect(lines.join('\n')).not.toContain('secret');
    } finally {
      logged.mockRestore();
      await server.close();
    }
  }, 30_000);
});
