/**
 * The caps on open HTTP connections (src/server/http/connection-cap.ts) over real sockets.
 * A client must not be loopback to be capped, so those clients, and their server, run in a
 * network namespace the test makes for itself (tests/support/netns.ts: root and iproute2's
 * `ip`), connecting between test addresses on that namespace's own `lo`; without one, those
 * cases skip, and fail under CI. The cases whose clients are loopback run here on 127.0.0.1.
 * The last case is the one that matters: a server whose process has few descriptors
 * (`ulimit -n`), two addresses opening as many connections as they can, and /healthz from a
 * third asked throughout.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../src/server/config.ts';
import { createAppServer } from '../src/server/server.ts';
import { startServer } from './support/browser-harness.ts';
import { agentIn, serveIn, testNamespace, type Agent } from './support/netns.ts';
import { ask, held, open as openHere, type Opened, type Target } from './support/sockets.ts';

/** The namespace's test addresses: the server's of each family, and a client of each (its own IPv6 /64). */
const SERVER4 = '10.77.0.1';
const SERVER6 = 'fd77::1';
const CLIENT4 = '10.77.0.2';
const CLIENT6 = 'fd77:0:0:2::2';
const netns = testNamespace('whatismyip-conncap', [`${SERVER4}/32`, `${CLIENT4}/32`, `${SERVER6}/128`, `${CLIENT6}/128`]);
afterAll(() => netns.remove());
const inNamespace = it.skipIf(netns.skip);

const stops: Array<() => Promise<unknown>> = [];
afterEach(async () => { await Promise.all(stops.splice(0).map((stop) => stop())); });

/** The server in-process on `::` (both families), a free port. */
async function serve(env: Record<string, string>): Promise<number> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'whatismyip-conn-'));
  const config = loadConfig({ HOST: '::', PORT: '0', DATA_REFRESH: 'off', REVERSE_DNS: 'off', DATA_DIR: dataDir, ...env });
  const { server, routes } = await createAppServer(config, 'dist');
  await new Promise<void>((resolve) => server.listen(0, '::', resolve));
  stops.push(async () => {
    await new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); });
    await routes.analytics.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return (server.address() as AddressInfo).port;
}

/** Opens `n` connections from 127.0.0.1 to 127.0.0.1:`port` in this process, closed after the case. */
async function open(n: number, port: number): Promise<Opened> {
  const opened = await openHere(n, { host: '127.0.0.1', port, from: '127.0.0.1' });
  stops.push(async () => { for (const s of opened.sockets) s.destroy(); });
  return opened;
}

/** The server (src/server/main.ts) and the socket agent, its clients, inside the namespace. */
async function serveInNamespace(env: Record<string, string>, options: { ulimit?: number } = {}): Promise<{ agent: Agent; to(from: string): Target }> {
  const server = await serveIn(netns.get(), env, options);
  stops.push(server.stop);
  const agent = agentIn(netns.get());
  stops.push(agent.stop);
  // A client asks the server's address of its own family (the namespace's loopback for 127.0.0.1).
  const to = (from: string): Target => ({ from, port: server.port, host: from === '127.0.0.1' ? from : from.includes(':') ? SERVER6 : SERVER4 });
  return { agent, to };
}

describe('a client\'s connections', () => {
  inNamespace.each([['IPv4', CLIENT4], ['IPv6', CLIENT6]])('are at most HTTP_CLIENT_CONNECTIONS (%s): one more is closed at once, those held answer, and a closed one frees its place', async (_, from) => {
    const { agent, to } = await serveInNamespace({ HTTP_CLIENT_CONNECTIONS: '4' });
    const group = await agent.call<number>('open', { n: 10, target: to(from) });
    await vi.waitFor(async () => expect(await agent.call('closed', { group })).toBe(6));
    expect(await agent.call('ask', { group })).toEqual(Array(4).fill('HTTP/1.1 200 OK'));
    expect(await agent.call('destroy', { group, count: 1 })).toBe(1);
    // Its place is free once the server has seen it close: a new connection is then held.
    await vi.waitFor(async () => {
      const again = await agent.call<number>('open', { n: 1, target: to(from) });
      expect(await agent.call('ask', { group: again })).toEqual(['HTTP/1.1 200 OK']);
    }, { timeout: 5_000 });
  });

  it('from loopback are not capped per client', async () => {
    const port = await serve({ HTTP_CLIENT_CONNECTIONS: '4' });
    const { sockets, closed } = await open(10, port);
    expect(await Promise.all(sockets.map((s) => ask(s)))).toEqual(Array(10).fill('HTTP/1.1 200 OK'));
    expect(closed.size).toBe(0);
  });

  inNamespace('from a peer TRUST_PROXY trusts are not capped per client', async () => {
    const { agent, to } = await serveInNamespace({ HTTP_CLIENT_CONNECTIONS: '4', TRUST_PROXY: CLIENT4 });
    const group = await agent.call<number>('open', { n: 10, target: to(CLIENT4) });
    expect(await agent.call('ask', { group })).toEqual(Array(10).fill('HTTP/1.1 200 OK'));
    expect(await agent.call('closed', { group })).toBe(0);
  });

  inNamespace('are shown on /healthz', async () => {
    const { agent, to } = await serveInNamespace({ HTTP_CLIENT_CONNECTIONS: '2', HTTP_MAX_CONNECTIONS: '50' });
    const group = await agent.call<number>('open', { n: 3, target: to(CLIENT4) });
    await vi.waitFor(async () => expect(await agent.call('closed', { group })).toBe(1));
    const health = await agent.call<{ body: string }>('get', { target: to('127.0.0.1'), path: '/healthz' });
    expect(health.body.split('\n').find((line) => line.startsWith('http:'))).toBe('http: 3 connections open, at most 50 (2 a client); 1 closed over a client\'s cap, 0 over the total (this process)');
  });
});

describe('the process\'s connections', () => {
  it('are at most HTTP_MAX_CONNECTIONS: node closes one more on accept', async () => {
    const port = await serve({ HTTP_MAX_CONNECTIONS: '5' });
    const { sockets, closed } = await open(8, port);
    await vi.waitFor(() => expect(closed.size).toBe(3));
    expect(await Promise.all(held({ sockets, closed }).map((s) => ask(s)))).toEqual(Array(5).fill('HTTP/1.1 200 OK'));
  });
});

describe('the connections of a cluster\'s workers (WEB_CONCURRENCY=2)', () => {
  it('are at most HTTP_MAX_CONNECTIONS each: one more is closed, not handed from worker to worker', async () => {
    const server = await startServer({ WEB_CONCURRENCY: '2', HTTP_MAX_CONNECTIONS: '3' });
    stops.push(() => server.stop());
    const { sockets, closed } = await open(10, server.port);
    await vi.waitFor(() => expect(closed.size).toBeGreaterThanOrEqual(4), { timeout: 10_000 });
    // More may still be on their way to being closed (one worker may have had 8 of the 10):
    // each still open is asked, and either answers or is closed without an answer.
    const asked = await Promise.allSettled(held({ sockets, closed }).map((s) => ask(s)));
    const answers = asked.flatMap((a) => (a.status === 'fulfilled' ? [a.value] : []));
    expect(answers.length).toBeLessThanOrEqual(6);
    expect(answers).toEqual(Array(answers.length).fill('HTTP/1.1 200 OK'));
    expect(closed.size).toBe(10 - answers.length);
  }, 60_000);
});

describe('a server with few descriptors, flooded from two addresses', () => {
  inNamespace('answers /healthz from a third address every time', async () => {
    // 600 descriptors: 344 connections at most, 128 a client, 256 left for the rest.
    const { agent, to } = await serveInNamespace({}, { ulimit: 600 });
    // Each address opens connections as fast as it can, all the while, and holds them
    // (50 at once each, 20,000 tries in all at most).
    await agent.call('flood', { targets: [to(CLIENT4), to(CLIENT6)], maxTries: 20_000 });
    const answers: number[] = [];
    try {
      // Once the flood has had its chance at every descriptor (700 connects tried, far past the 600)...
      await vi.waitFor(async () => expect((await agent.call<{ tried: number }>('flooded')).tried).toBeGreaterThan(700), { timeout: 20_000, interval: 50 });
      // ...from the namespace's loopback, a third address.
      for (let i = 0; i < 20; i++) {
        const res = await agent.call<{ status: number }>('get', { target: to('127.0.0.1'), path: '/healthz' }).catch(() => ({ status: 0 }));
        answers.push(res.status);
      }
    } finally {
      await agent.call('stopFlood');
    }
    expect(answers).toEqual(Array(20).fill(200));
    // What the two addresses held at the end: their caps' worth, no more.
    await vi.waitFor(async () => expect((await agent.call<{ held: number }>('flooded')).held).toBeLessThanOrEqual(2 * 128), { timeout: 10_000 });
  }, 60_000);
});
