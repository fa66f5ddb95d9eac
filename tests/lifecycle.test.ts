/**
 * The process as an operator runs it (src/server/main.ts, 1 and 2 workers): SIGTERM under
 * keep-alive traffic and slow uploads answers every request already sent and exits 0; a
 * worker that dies is replaced and the primary says so once.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { Agent, request as httpRequest } from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import { startServer, type RunningServer } from './support/browser-harness.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Sends raw bytes over one socket (parts apart in time) and resolves with all it read until the server closed it. */
function rawExchange(port: number, parts: Array<{ bytes: string; after?: () => Promise<unknown> }>): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (d) => { received += d.toString(); });
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
    socket.once('connect', async () => {
      for (const part of parts) {
        await part.after?.();
        socket.write(part.bytes);
      }
    });
  });
}

const statusLines = (raw: string) => raw.match(/^HTTP\/1\.1 \d{3}/gm) ?? [];
const workerPids = (server: RunningServer) =>
  readFileSync(`/proc/${server.process.pid}/task/${server.process.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);

describe.each(['1', '2'])('with WEB_CONCURRENCY=%s', (workers) => {
  it('answers a request pipelined behind a slow upload after SIGTERM, with Connection: close, and exits 0', async () => {
    const server = await startServer({ WEB_CONCURRENCY: workers });
    const body = JSON.stringify(['8.8.8.8', '1.1.1.1']);
    const head = `POST /api/lookup/bulk HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const exited = new Promise<number | null>((r) => server.process.once('exit', (code) => r(code)));
    const raw = await rawExchange(server.port, [
      { bytes: head + body.slice(0, 5) },
      { bytes: body.slice(5) + 'GET /ip HTTP/1.1\r\nHost: x\r\n\r\n', after: async () => { await sleep(200); server.process.kill('SIGTERM'); await sleep(300); } },
    ]);
    expect(statusLines(raw)).toEqual(['HTTP/1.1 200', 'HTTP/1.1 200']);
    expect(raw).toMatch(/\r\n127\.0\.0\.1\n$/);
    expect(raw.toLowerCase()).toContain('connection: close');
    expect(await exited).toBe(0);
    expect(server.output()).not.toMatch(/ERR_HTTP_HEADERS_SENT|died/);
  }, 60_000);

  it('completes every request already sent under mixed keep-alive load and slow uploads, and exits 0', async () => {
    const server = await startServer({ WEB_CONCURRENCY: workers });
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    const get = (path: string) => new Promise<number>((resolve) => {
      httpRequest(server.url + path, { agent }, (res) => { res.resume(); res.on('end', () => resolve(res.statusCode!)); })
        .on('error', () => resolve(-1)).end();
    });
    let stopping = false;
    const outcomes: number[] = [];
    const paths = ['/ip', '/json?ip=8.8.8.8', '/json?ip=2001:4860:4860::8888', '/country?ip=1.1.1.1', '/api/lookup/9.9.9.9', '/'];
    const loops = Array.from({ length: 8 }, async (_, i) => {
      for (let n = i; !stopping; n++) outcomes.push(await get(paths[n % paths.length]!));
    });
    // Slow uploads: each trickles its body over about 1.2 s, across the SIGTERM.
    const body = JSON.stringify(Array.from({ length: 40 }, (_, i) => `8.8.${i}.8`));
    const slow = Array.from({ length: 4 }, () => rawExchange(server.port, [
      { bytes: `POST /api/lookup/bulk HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\n\r\n` },
      ...Array.from({ length: 6 }, (_, k) => ({ bytes: body.slice(k * 100, k === 5 ? undefined : (k + 1) * 100), after: () => sleep(200) })),
    ]));
    await sleep(1500);
    const exited = new Promise<number | null>((r) => server.process.once('exit', (code) => r(code)));
    stopping = true;
    server.process.kill('SIGTERM');
    await Promise.all(loops);
    const uploads = await Promise.all(slow);
    agent.destroy();
    expect(outcomes.length).toBeGreaterThan(20);
    expect(outcomes.filter((s) => s !== 200)).toEqual([]);
    for (const raw of uploads) expect(statusLines(raw)).toEqual(['HTTP/1.1 200']);
    expect(await exited).toBe(0);
  }, 60_000);
});

describe('with two workers', () => {
  it('replaces a worker that dies, says so once, and keeps answering', async () => {
    const server = await startServer({ WEB_CONCURRENCY: '2' });
    try {
      await vi.waitFor(() => expect((server.output().match(/listening on/g) ?? []).length).toBeGreaterThanOrEqual(2), { timeout: 30_000, interval: 100 }).catch(() => undefined);
      const before = workerPids(server);
      expect(before).toHaveLength(2);
      process.kill(before[0]!, 'SIGKILL');
      let after = workerPids(server);
      await vi.waitFor(() => {
        after = workerPids(server);
        if (after.length < 2 || after.includes(before[0]!)) throw new Error('the dead worker is not replaced yet');
      }, { timeout: 10_000, interval: 100 }).catch(() => undefined);
      expect(after).toHaveLength(2);
      expect(after).not.toContain(before[0]);
      for (let i = 0; i < 10; i++) expect((await fetch(server.url + '/ip')).status).toBe(200);
      const lines = server.output().split('\n').filter((l) => l.includes(String(before[0])));
      expect(lines).toEqual([`worker ${before[0]} died (SIGKILL); starting another`]);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 60_000);

  it('waits longer each time a worker dies before it could listen, and still stops on SIGTERM', async () => {
    // The port is taken: every worker dies at listen().
    const taken = createServer().listen(0, '127.0.0.1');
    await new Promise((r) => taken.once('listening', r));
    const port = (taken.address() as { port: number }).port;
    const child = spawn(process.execPath, ['src/server/main.ts'], { env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), STUN_PORT: '0', WEB_CONCURRENCY: '2', DATA_REFRESH: 'off', REVERSE_DNS: 'off' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => { output += d; });
    child.stderr.on('data', (d) => { output += d; });
    try {
      await vi.waitFor(() => expect(output).toContain('starting another in 2 s'), { timeout: 40_000, interval: 100 }).catch(() => undefined);
      const deaths = output.split('\n').filter((l) => /^worker \d+ died/.test(l));
      expect(deaths[0]).toMatch(/died \(exit code 1\); starting another in 1 s$/);
      expect(deaths.some((l) => l.endsWith('starting another in 2 s'))).toBe(true);
      // A fork loop would have died dozens of times by now.
      expect(deaths.length).toBeLessThanOrEqual(4);
    } finally {
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      child.kill('SIGTERM');
      expect(await exited).not.toBeNull();
      taken.close();
    }
  }, 60_000);
});
