/**
 * The DNS leak test across processes: the resolver's query and the page's poll may reach
 * different processes, and each must see what the other noted. With WEB_CONCURRENCY=2 the
 * workers share their notes through the cluster primary; with REDIS_URL two servers share
 * them through Redis (src/server/dns-leak/notes-shared.ts).
 */
import { describe, expect, it, vi } from 'vitest';
import { startServer, type RunningServer } from './support/browser-harness.ts';
import { sendDnsQuery } from './support/dns-query.ts';
import { testRedis, uniquePrefix } from './support/redis.ts';

const ZONE = 'dns.example.com';
const DNS_ENV = { DNS_LEAK_ZONE: ZONE, DNS_PORT: '0', DNS_LEAK_ANSWER: '192.0.2.10', RATE_LIMIT: '0', PAGE_RATE_LIMIT: '0' };
// A fresh connection per request: each may reach either worker (they accept on the shared socket).
const ask = (url: string, init: RequestInit = {}) => fetch(url, { ...init, headers: { connection: 'close' } });

/** Resolves with the DNS port once `count` processes say their responder listens. */
async function dnsPort(server: RunningServer, count: number): Promise<number> {
  const ports = await vi.waitFor(() => {
    const found = [...server.output().matchAll(/DNS leak test responder on udp and tcp port (\d+)/g)].map((m) => Number(m[1]));
    if (found.length < count) throw new Error(`the DNS responder did not start in ${count} processes:\n${server.output()}`);
    return found;
  }, { timeout: 10_000, interval: 50 });
  expect(new Set(ports).size).toBe(1);
  return ports[0]!;
}

interface Started { token: string; names: string[] }
interface Seen { names_seen: number; resolvers: Array<{ ip: string; transports: string[]; queries: number }> }

/**
 * The token's answer once it shows `names` names seen (within 3 s): a note travels to the
 * primary or Redis apart from the answer to the query, so the first poll may come before it.
 */
async function seenOnce(url: string, token: string, names: number): Promise<Seen> {
  let seen: Seen | undefined;
  await vi.waitFor(async () => {
    const res = await ask(`${url}/api/dns-leak/${token}`);
    expect(res.status).toBe(200);
    seen = await res.json() as Seen;
    if (seen.names_seen !== names) throw new Error(`${seen.names_seen} names seen, not ${names}`);
  }, { timeout: 3_000, interval: 50 }).catch((error: unknown) => { if (!seen) throw error; });
  return seen!;
}

/** Each worker's count of TCP answers, by worker, from /healthz asked until both workers have answered it. */
async function tcpAnsweredByWorker(url: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (let i = 0; i < 100 && counts.size < 2; i++) {
    const text = await (await ask(`${url}/healthz`)).text();
    const worker = /^worker (\d+) \(this one\)/m.exec(text)?.[1];
    const tcp = /tcp \d+, (\d+) answered/.exec(text)?.[1];
    if (worker && tcp) counts.set(worker, Number(tcp));
  }
  return counts;
}

describe('across the workers of one machine (WEB_CONCURRENCY=2)', () => {
  it('shows every worker the queries any worker answered', async () => {
    const server = await startServer({ ...DNS_ENV, WEB_CONCURRENCY: '2' });
    try {
      const port = await dnsPort(server, 2);
      const { token, names } = await (await ask(`${server.url}/api/dns-leak`, { method: 'POST' })).json() as Started;
      // Each TCP connection goes to whichever worker accepts it, UDP to whichever reads the
      // shared socket first: TCP queries go on until both workers have answered some, so that
      // each noted only part of what either shows below.
      let tcp = 0;
      let answered = new Map<string, number>();
      for (let round = 0; round < 10; round++) {
        for (const name of names.slice(0, 4)) { await sendDnsQuery(name, { port, from: '127.0.0.21', transport: 'tcp' }); tcp++; }
        answered = await tcpAnsweredByWorker(server.url);
        if (answered.size === 2 && [...answered.values()].every((n) => n > 0)) break;
      }
      expect(answered.size).toBe(2);
      expect([...answered.values()].every((n) => n > 0)).toBe(true);
      expect([...answered.values()].reduce((a, b) => a + b, 0)).toBe(tcp);
      for (const name of names.slice(4)) await sendDnsQuery(name, { port, from: '127.0.0.22' });
      for (let i = 0; i < 4; i++) {
        const seen = await seenOnce(server.url, token, 6);
        expect(seen.names_seen).toBe(6);
        expect(seen.resolvers).toEqual([
          expect.objectContaining({ ip: '127.0.0.21', transports: ['tcp'], queries: tcp }),
          expect.objectContaining({ ip: '127.0.0.22', transports: ['udp'], queries: 2 }),
        ]);
      }
    } finally {
      await server.stop();
    }
  });
});

// Per case: without Redis this case skips locally and fails under CI; the two-worker case runs either way.
const redis = testRedis();

describe.skipIf(redis.skip)('across machines (two servers sharing one Redis)', () => {
  it('shows on one server the queries the other one\'s responder answered', async () => {
    const env = { ...DNS_ENV, REDIS_URL: redis.get(), REDIS_PREFIX: uniquePrefix('dns-leak') };
    const [a, b] = await Promise.all([startServer(env), startServer(env)]);
    try {
      const [portA, portB] = await Promise.all([dnsPort(a, 1), dnsPort(b, 1)]);
      const { token, names } = await (await ask(`${a.url}/api/dns-leak`, { method: 'POST' })).json() as Started;
      await sendDnsQuery(names[0]!, { port: portB, from: '127.0.0.31' });
      await sendDnsQuery(names[1]!, { port: portA, from: '127.0.0.32', transport: 'tcp' });
      for (const server of [a, b]) {
        const seen = await seenOnce(server.url, token, 2);
        expect(seen.names_seen).toBe(2);
        expect(seen.resolvers.map((r) => [r.ip, r.transports])).toEqual([['127.0.0.31', ['udp']], ['127.0.0.32', ['tcp']]]);
      }
      expect(await (await ask(`${b.url}/healthz`)).text()).toMatch(/notes in Redis \(127\.0\.0\.1:6379\), ok$/m);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});
