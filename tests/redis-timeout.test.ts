/**
 * A Redis that hangs instead of refusing (a stopped process: the socket stays open, nothing
 * answers) costs a request at most REDIS_COMMAND_TIMEOUT_MS, then the request goes through
 * as when Redis refuses (rate-limit/shared-stores.ts fails open; the DNS leak notes of
 * dns-leak/notes-shared.ts say they are unavailable). Two hangs: a local server that accepts and
 * never answers from the start, and a proxy to the real Redis (TEST_REDIS_URL) that freezes
 * after it has answered.
 */
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { REDIS_COMMAND_TIMEOUT_MS, redisStore } from '../src/server/rate-limit/shared-stores.ts';
import { RedisNotes } from '../src/server/dns-leak/notes-shared.ts';
import { testRedis, uniquePrefix } from './support/redis.ts';

const redis = testRedis();
/** The most a hung Redis may cost a request here: the command timeout and a heavily loaded test machine's timer slack (still under the 500 ms it cost before). */
const BOUND_MS = 300;

const servers: Server[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `redis://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Accepts connections and never answers. */
const silent = () => listen(createServer((socket) => { sockets.push(socket); socket.on('error', () => {}); }));

/** Forwards to `target` until frozen; then holds every byte, both ways, keeping the sockets open. */
async function freezable(target: string): Promise<{ url: string; freeze: () => void }> {
  const { hostname, port } = new URL(target);
  let frozen = false;
  const url = await listen(createServer((client) => {
    const upstream = connect(Number(port), hostname);
    sockets.push(client, upstream);
    for (const s of [client, upstream]) s.on('error', () => {});
    client.on('data', (chunk) => { if (!frozen) upstream.write(chunk); });
    upstream.on('data', (chunk) => { if (!frozen) client.write(chunk); });
  }));
  return { url, freeze: () => { frozen = true; } };
}

/** How long each of `n` calls took, in turn. */
async function timed(n: number, call: () => Promise<unknown>): Promise<number[]> {
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await call().catch(() => undefined);
    ms.push(performance.now() - started);
  }
  return ms;
}

describe('a Redis that hangs', () => {
  it('states a bound of a tenth of a second at most', () => {
    expect(REDIS_COMMAND_TIMEOUT_MS).toBeLessThanOrEqual(100);
  });

  it('that never answered: each rate-limit hit fails open at once', async () => {
    const store = redisStore({ url: await silent(), keyPrefix: uniquePrefix('hang'), secret: 'test-secret' });
    try {
      const verdicts: unknown[] = [];
      const ms = await timed(10, async () => { verdicts.push(await store.hit('198.51.100.7', 60)); });
      expect(verdicts).toEqual(Array(10).fill(undefined));
      expect(Math.max(...ms)).toBeLessThan(BOUND_MS);
    } finally {
      await store.close();
    }
  });

  it.skipIf(redis.skip)('after it answered: each rate-limit hit waits at most the command timeout, then fails open', async () => {
    const proxy = await freezable(redis.get());
    const store = redisStore({ url: proxy.url, keyPrefix: uniquePrefix('hang'), secret: 'test-secret' });
    try {
      // Counted while Redis answers.
      await expect.poll(() => store.hit('198.51.100.7', 60), { timeout: 5_000, interval: 20 }).toBeDefined();
      proxy.freeze();
      const verdicts: unknown[] = [];
      const ms = await timed(10, async () => { verdicts.push(await store.hit('198.51.100.7', 60)); });
      expect(verdicts).toEqual(Array(10).fill(undefined));
      expect(Math.max(...ms)).toBeLessThan(BOUND_MS);
      expect(store.state()).toMatch(/does not answer, failing open/);
    } finally {
      await store.close();
    }
  });

  it.skipIf(redis.skip)('after it answered: a DNS leak note read waits at most the command timeout, then fails', async () => {
    const proxy = await freezable(redis.get());
    const notes = new RedisNotes(proxy.url, uniquePrefix('hang'));
    try {
      await notes.issue('a'.repeat(32), 6);
      proxy.freeze();
      const ms = await timed(5, () => notes.read('a'.repeat(32)));
      await expect(notes.read('a'.repeat(32))).rejects.toThrow(/timed out/i);
      expect(Math.max(...ms)).toBeLessThan(BOUND_MS);
    } finally {
      await notes.close();
    }
  });
});
