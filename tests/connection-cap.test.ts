/**
 * The caps on open HTTP connections (src/server/http/connection-cap.ts) over real sockets.
 * A client must not be loopback to be capped, so the clients connect from this machine's own
 * non-loopback addresses (to themselves): without one, those cases skip, and fail under CI.
 * The last case is the one that matters: a server whose process has few descriptors
 * (`ulimit -n`), two addresses opening as many connections as they can, and /healthz from a
 * third asked throughout.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../src/server/config.ts';
import { createAppServer } from '../src/server/server.ts';
import { startServer } from './support/browser-harness.ts';
import { underCi } from './support/required-service.ts';

/** This machine's addresses that are not loopback or link-local, IPv4 first: the clients' (and servers') addresses. */
const OWN = Object.values(networkInterfaces()).flat()
  .filter((i) => i !== undefined && !i.internal && !i.address.startsWith('fe80'))
  .sort((a, b) => a!.family.localeCompare(b!.family)).map((i) => i!.address);
const missing = OWN.length === 0 ? 'this machine has no address but loopback and link-local: no client to cap' : undefined;
if (missing && underCi()) throw new Error(`a non-loopback address is required under CI: ${missing}`);
const withOwn = it.skipIf(missing !== undefined);

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

interface Opened { sockets: Socket[]; closed: Set<Socket> }

/** Opens `n` connections from `from` to `from`:`port`; resolves once all connected, noting which the server closes. */
async function open(n: number, from: string, port: number): Promise<Opened> {
  const opened: Opened = { sockets: [], closed: new Set() };
  await Promise.all(Array.from({ length: n }, () => new Promise<void>((resolve, reject) => {
    const socket = connect({ host: from, port, localAddress: from });
    opened.sockets.push(socket);
    socket.on('error', () => {});
    socket.on('close', () => opened.closed.add(socket));
    socket.once('connect', () => resolve());
    socket.once('error', reject);
  })));
  stops.push(async () => { for (const s of opened.sockets) s.destroy(); });
  return opened;
}

/** The status line of GET `target` asked on an open socket. */
function ask(socket: Socket, target = '/ip'): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      if (text.includes('\r\n\r\n')) resolve(text.slice(0, text.indexOf('\r\n')));
    });
    socket.once('close', () => reject(new Error(`closed before an answer: ${text}`)));
    socket.write(`GET ${target} HTTP/1.1\r\nhost: test\r\n\r\n`);
  });
}

describe('a client\'s connections', () => {
  withOwn('are at most HTTP_CLIENT_CONNECTIONS: one more is closed at once, those held answer, and a closed one frees its place', async () => {
    const port = await serve({ HTTP_CLIENT_CONNECTIONS: '4' });
    const from = OWN[0]!;
    const { sockets, closed } = await open(10, from, port);
    await vi.waitFor(() => expect(closed.size).toBe(6));
    const held = sockets.filter((s) => !closed.has(s));
    expect(await Promise.all(held.map((s) => ask(s)))).toEqual(Array(4).fill('HTTP/1.1 200 OK'));
    held[0]!.destroy();
    // Its place is free once the server has seen it close: a new connection is then held.
    await vi.waitFor(async () => {
      const again = await open(1, from, port);
      expect(await ask(again.sockets[0]!)).toBe('HTTP/1.1 200 OK');
    });
  });

  it.each<[string, () => string, Record<string, string>]>([
    ['loopback', () => '127.0.0.1', {}],
    ['a peer TRUST_PROXY trusts', () => OWN[0]!, { TRUST_PROXY: OWN[0] ?? '' }],
  ])('from %s are not capped per client', async (_, from, env) => {
    if (env.TRUST_PROXY === '' && missing) return;
    const port = await serve({ HTTP_CLIENT_CONNECTIONS: '4', ...env });
    const { sockets, closed } = await open(10, from(), port);
    expect(await Promise.all(sockets.map((s) => ask(s)))).toEqual(Array(10).fill('HTTP/1.1 200 OK'));
    expect(closed.size).toBe(0);
  });

  withOwn('are shown on /healthz', async () => {
    const port = await serve({ HTTP_CLIENT_CONNECTIONS: '2', HTTP_MAX_CONNECTIONS: '50' });
    const { closed } = await open(3, OWN[0]!, port);
    await vi.waitFor(() => expect(closed.size).toBe(1));
    const health = await (await fetch(`http://127.0.0.1:${port}/healthz`)).text();
    expect(health.split('\n').find((line) => line.startsWith('http:'))).toBe('http: 3 connections open, at most 50 (2 a client); 1 closed over a client\'s cap, 0 over the total (this process)');
  });
});

describe('the process\'s connections', () => {
  it('are at most HTTP_MAX_CONNECTIONS: node closes one more on accept', async () => {
    const port = await serve({ HTTP_MAX_CONNECTIONS: '5' });
    const { sockets, closed } = await open(8, '127.0.0.1', port);
    await vi.waitFor(() => expect(closed.size).toBe(3));
    const held = sockets.filter((s) => !closed.has(s));
    expect(await Promise.all(held.map((s) => ask(s)))).toEqual(Array(5).fill('HTTP/1.1 200 OK'));
  });
});

describe('the connections of a cluster\'s workers (WEB_CONCURRENCY=2)', () => {
  it('are at most HTTP_MAX_CONNECTIONS each: one more is closed, not handed from worker to worker', async () => {
    const server = await startServer({ WEB_CONCURRENCY: '2', HTTP_MAX_CONNECTIONS: '3' });
    stops.push(() => server.stop());
    const { sockets, closed } = await open(10, '127.0.0.1', server.port);
    await vi.waitFor(() => expect(closed.size).toBeGreaterThanOrEqual(4), { timeout: 10_000 });
    const held = sockets.filter((s) => !closed.has(s));
    expect(held.length).toBeLessThanOrEqual(6);
    expect(await Promise.all(held.map((s) => ask(s)))).toEqual(Array(held.length).fill('HTTP/1.1 200 OK'));
  }, 60_000);
});

describe('a server with few descriptors, flooded from two addresses', () => {
  const floodFrom = OWN.slice(0, 2);
  it.skipIf(floodFrom.length < 2)('answers /healthz from a third address every time', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'whatismyip-fd-'));
    // 600 descriptors: 344 connections at most, 128 a client, 256 left for the rest.
    const child = spawn('sh', ['-c', `ulimit -n 600 && exec "${process.execPath}" src/server/main.ts`], {
      env: { ...process.env, HOST: '::', PORT: '0', DATA_DIR: dataDir, DATABASE_URL: '', DATA_REFRESH: 'off', REVERSE_DNS: 'off', STUN_PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => { output += c.toString(); });
    child.stderr.on('data', (c: Buffer) => { output += c.toString(); });
    stops.push(async () => {
      if (child.exitCode === null) await new Promise((resolve) => { child.once('exit', resolve); child.kill('SIGKILL'); });
      rmSync(dataDir, { recursive: true, force: true });
    });
    await vi.waitFor(() => expect(output).toMatch(/listening on http:\/\/\[::\]:\d+/), { timeout: 30_000, interval: 100 });
    const port = Number(/listening on http:\/\/\[::\]:(\d+)/.exec(output)![1]);
    // Each address opens connections as fast as it can, all the while, and holds them.
    let flooding = true;
    const held = { count: 0 };
    const flood = floodFrom.map(async (from) => {
      while (flooding) {
        await Promise.all(Array.from({ length: 50 }, () => new Promise<void>((resolve) => {
          const socket = connect({ host: from, port, localAddress: from });
          socket.on('error', () => resolve());
          socket.once('connect', () => {
            held.count++;
            socket.once('close', () => { held.count--; });
            resolve();
          });
          stops.push(async () => { socket.destroy(); });
        })));
      }
    });
    const answers: number[] = [];
    try {
      // Once the flood has had its chance at every descriptor (700 connects tried, far past the 600)...
      await vi.waitFor(() => expect(stops.length).toBeGreaterThan(700), { timeout: 20_000, interval: 50 });
      for (let i = 0; i < 20; i++) {
        const res = await fetch(`http://127.0.0.1:${port}/healthz`, { headers: { connection: 'close' } }).catch((error: unknown) => error as Error);
        answers.push(res instanceof Response ? res.status : 0);
      }
    } finally {
      flooding = false;
      await Promise.all(flood);
    }
    expect(answers).toEqual(Array(20).fill(200));
    // What the two addresses held at the end: their caps' worth, no more.
    await vi.waitFor(() => expect(held.count).toBeLessThanOrEqual(2 * 128));
  }, 60_000);
});
