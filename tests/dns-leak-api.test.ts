/**
 * The DNS leak test end to end in one process: the real app with a zone, its responder on a
 * free port, real queries from other loopback addresses (tests/support/dns-query.ts) and
 * through node's own stub resolver, then the API's answer: the resolvers seen, looked up,
 * and the verdict. Also: the test off (no zone, a port that cannot be bound), bad tokens,
 * expiry, and what /healthz and /api/config say.
 */
import { Resolver } from 'node:dns/promises';
import { createSocket } from 'node:dgram';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DnsLeakResultSchema, DnsLeakStartSchema } from '../src/lib/dns-leak-record.ts';
import { loadConfig } from '../src/server/config.ts';
import { buildApp, type BuiltApp } from '../src/server/server.ts';
import { sendDnsQuery } from './support/dns-query.ts';
import { testRedis, uniquePrefix } from './support/redis.ts';

const ZONE = 'dns.example.com';
const build = (env: Record<string, string> = {}) =>
  buildApp(loadConfig({ HOST: '127.0.0.1', PORT: '0', STUN_PORT: '0', DATA_DIR: mkdtempSync(path.join(tmpdir(), 'whatismyip-dns-')), REVERSE_DNS: 'off', ...env }), 'dist');

interface Seen {
  token: string; names_total: number; names_seen: number;
  resolvers: Array<Record<string, unknown> & { ip: string; transports: string[] }>;
  verdict: { state: string; text: string };
}

describe('with a zone', () => {
  let built: BuiltApp;
  let port: number;
  beforeAll(async () => {
    built = await build({ DNS_LEAK_ZONE: `${ZONE}.`, DNS_PORT: '0', DNS_LEAK_ANSWER: '192.0.2.10, 2001:db8::10', RATE_LIMIT: '0' });
    port = built.routes.dnsLeak.port!;
  });
  afterAll(() => built.routes.dnsLeak.close());
  const request = (p: string, init?: Parameters<BuiltApp['app']['request']>[1]) => built.app.request(p, init);
  const start = async (query = '') => {
    const res = await request(`/api/dns-leak${query}`, { method: 'POST' });
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toContain('no-store');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    // The page reads it through this schema (src/lib/dns-leak-record.ts).
    return DnsLeakStartSchema.parse(await res.json());
  };
  const seen = async (token: string, peer?: string): Promise<Seen> => {
    const res = await request(`/api/dns-leak/${token}`, { peer });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toContain('no-store');
    const body = await res.json() as Seen;
    DnsLeakResultSchema.parse(body);
    return body;
  };

  it('offers the zone to the browser', async () => {
    expect(await (await request('/api/config')).json()).toMatchObject({ dnsLeakZone: ZONE });
  });

  it('issues a 128-bit token and 6 names under the zone, 36 when extended', async () => {
    const standard = await start();
    expect(standard.token).toMatch(/^[0-9a-f]{32}$/);
    expect(standard.names).toEqual([1, 2, 3, 4, 5, 6].map((n) => `${standard.token}-${n}.${ZONE}`));
    expect(standard.expires_in).toBe(120);
    const extended = await start('?extended=1');
    expect(extended.names).toHaveLength(36);
    expect(extended.names[35]).toBe(`${extended.token}-36.${ZONE}`);
    expect(extended.token).not.toBe(standard.token);
  });

  it('shows each resolver that asked, by transport, Client Subnet and DO bit, and the names seen', async () => {
    const { token, names } = await start();
    expect(await seen(token)).toMatchObject({ token, names_total: 6, names_seen: 0, resolvers: [], verdict: { state: 'waiting' } });
    const a = await sendDnsQuery(names[0]!, { port, from: '127.0.0.7', ecs: '198.51.100.0/24', dnssecOk: true });
    expect(a.answers!.map((r) => (r as { data: unknown }).data)).toEqual(['192.0.2.10']);
    await sendDnsQuery(names[1]!, { port, from: '127.0.0.7', type: 'AAAA', transport: 'tcp' });
    // node's own stub resolver, as a real client asks.
    const resolver = new Resolver();
    resolver.setServers([`127.0.0.1:${port}`]);
    expect(await resolver.resolve6(names[2]!.toUpperCase())).toEqual(['2001:db8::10']);
    const result = await seen(token);
    expect(result.names_seen).toBe(3);
    expect(result.resolvers).toEqual([
      expect.objectContaining({ ip: '127.0.0.7', transports: ['udp', 'tcp'], ecs: '198.51.100.0/24', dnssec_ok: true, queries: 2, asn: null, operator: null, country: null, network_type: 'private' }),
      expect.objectContaining({ ip: '127.0.0.1', transports: ['udp'], ecs: null, dnssec_ok: false, queries: 1 }),
    ]);
    expect(Date.parse(result.resolvers[0]!.first_seen as string)).toBeGreaterThan(Date.now() - 60_000);
    // Loopback resolvers belong to no network: nothing to compare.
    expect(result.verdict.state).toBe('not_conclusive');
  });

  it('names a public resolver and gives the verdict against the caller\'s network', async () => {
    const { token } = await start();
    // Cloudflare's resolver, as the responder would note it (no test can send from its address).
    built.routes.dnsLeak.notes!.note({ token, name: 1, ecs: null, dnssecOk: false, resolver: '1.1.1.1', transport: 'udp', at: Date.now() });
    const result = await seen(token, '8.8.8.8');
    expect(result.resolvers).toEqual([expect.objectContaining({ ip: '1.1.1.1', asn: 13335, operator: 'Cloudflare', as_name: expect.any(String), country_name: expect.any(String) })]);
    // The same privacy flags as /json (here without lists: null, "not available").
    expect(result.resolvers[0]!.privacy).toMatchObject({ vpn: null, tor: null, reasons: { vpn: expect.any(String) } });
    expect(result.verdict).toEqual({ state: 'no_leak', text: expect.stringMatching(/^Your DNS queries go to Cloudflare \(AS13335\)/) });
  });

  it('ignores queries for names or tokens it did not issue', async () => {
    const { token } = await start();
    const other = '0'.repeat(32);
    await sendDnsQuery(`${other}-1.${ZONE}`, { port, from: '127.0.0.9' });
    await sendDnsQuery(`${token}-7.${ZONE}`, { port, from: '127.0.0.9' });
    expect((await seen(token)).resolvers).toEqual([]);
    expect((await request(`/api/dns-leak/${other}`)).status).toBe(404);
  });

  it.each([
    ['/api/dns-leak/0123', 400, 'invalid_token'],
    ['/api/dns-leak/0123456789ABCDEF0123456789ABCDEF', 400, 'invalid_token'],
    ['/api/dns-leak/%00', 400, 'invalid_token'],
    [`/api/dns-leak/${'f'.repeat(32)}`, 404, 'unknown_token'],
  ])('answers GET %s with %i %s', async (p, status, code) => {
    const res = await request(p);
    expect(res.status).toBe(status);
    expect(await res.json()).toMatchObject({ error: { code, message: expect.any(String) } });
  });

  it.each([
    ['GET', '/api/dns-leak', 405],
    ['DELETE', `/api/dns-leak/${'f'.repeat(32)}`, 405],
    ['POST', '/api/dns-leak?extended=yes', 400],
  ])('answers %s %s with %i', async (method, p, status) => {
    const res = await request(p, { method });
    expect(res.status).toBe(status);
    expect(await res.json()).toMatchObject({ error: { code: expect.any(String) } });
  });

  it('tells /healthz that the responder is on, with its counts', async () => {
    const text = await (await request('/healthz')).text();
    expect(text).toMatch(new RegExp(`^dns: on, zone ${ZONE.replaceAll('.', '\\.')}; dns udp: udp ${port}, \\d+ answered`, 'm'));
    expect(text).toMatch(/notes in this process's memory, \d+ tokens$/m);
  });
});

// Per case: without Redis its cases skip locally and fail under CI; the memory cases run either way.
const redis = testRedis();

describe.each([
  ['in memory', () => ({}), true],
  ['in Redis', () => ({ REDIS_URL: redis.get(), REDIS_PREFIX: uniquePrefix('dns-leak-flood'), RATE_LIMIT_SECRET: 'a secret of the tests' }), !redis.skip],
] as const)('a flood of starts, notes %s', (_, store, available) => {
  /** 80 public addresses, as a script with 80 machines would have. */
  const FLOOD = Array.from({ length: 80 }, (_, i) => `11.0.${i}.1`);
  const VICTIM = '11.1.0.1';
  /** Starts `count` tests, spread over the flood's addresses, a batch at a time; the statuses they got. */
  async function flood(built: BuiltApp, count: number): Promise<Record<number, number>> {
    const statuses: Record<number, number> = {};
    for (let at = 0; at < count; at += 500) {
      const batch = Array.from({ length: Math.min(500, count - at) }, (_, i) => built.app.request('/api/dns-leak', { method: 'POST', peer: FLOOD[(at + i) % FLOOD.length] }));
      for (const res of await Promise.all(batch)) statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    }
    return statuses;
  }
  const startAs = async (built: BuiltApp, peer: string) => {
    const res = await built.app.request('/api/dns-leak', { method: 'POST', peer });
    expect(res.status).toBe(201);
    return DnsLeakStartSchema.parse(await res.json()).token;
  };
  const withApp = async (env: Record<string, string>, run: (built: BuiltApp) => Promise<void>) => {
    const built = await build({ DNS_LEAK_ZONE: ZONE, DNS_PORT: '0', DNS_LEAK_ANSWER: '192.0.2.10', ...store(), ...env });
    try {
      await run(built);
    } finally {
      await built.routes.dnsLeak.close();
    }
  };

  it.runIf(available)('keeps a victim\'s test through 21,000 starts from 80 addresses, with the default limits', async () => {
    await withApp({}, async (built) => {
      const token = await startAs(built, VICTIM);
      const statuses = await flood(built, 21_000);
      // 10 starts a minute per address (DNS_LEAK_RATE_LIMIT), the rest refused: 800 in one
      // minute's window, up to twice that when the flood runs across a window's end.
      expect(Object.keys(statuses).sort()).toEqual(['201', '429']);
      expect(statuses[201]! + statuses[429]!).toBe(21_000);
      expect(statuses[201]).toBeGreaterThanOrEqual(800);
      expect(statuses[201]).toBeLessThanOrEqual(1600);
      expect((await built.app.request(`/api/dns-leak/${token}`, { peer: VICTIM })).status).toBe(200);
    });
  }, 60_000);

  it.runIf(available)('keeps it with every rate limit off too: each address holds 10 live tests at most, and ends its own oldest', async () => {
    await withApp({ RATE_LIMIT: '0', DNS_LEAK_RATE_LIMIT: '0' }, async (built) => {
      const token = await startAs(built, VICTIM);
      const own = await startAs(built, FLOOD[0]!);
      expect(await flood(built, 21_000)).toEqual({ 201: 21_000 });
      expect((await built.app.request(`/api/dns-leak/${token}`, { peer: VICTIM })).status).toBe(200);
      // The flooding address's own first test is the one its flood ended.
      expect((await built.app.request(`/api/dns-leak/${own}`, { peer: FLOOD[0] })).status).toBe(404);
    });
  }, 60_000);

  it.runIf(available)('limits starts apart from the API: the 4th start of 3 a minute is refused, reading results is not', async () => {
    await withApp({ DNS_LEAK_RATE_LIMIT: '3' }, async (built) => {
      const tokens = [await startAs(built, VICTIM), await startAs(built, VICTIM), await startAs(built, VICTIM)];
      const refused = await built.app.request('/api/dns-leak', { method: 'POST', peer: VICTIM });
      expect(refused.status).toBe(429);
      expect(refused.headers.get('ratelimit-limit')).toBe('3');
      expect(await refused.json()).toMatchObject({ error: { code: 'rate_limited', message: expect.stringContaining('at most 3 a minute') } });
      const read = await built.app.request(`/api/dns-leak/${tokens[0]}`, { peer: VICTIM });
      expect([read.status, read.headers.get('ratelimit-limit')]).toEqual([200, '300']);
    });
  });
});

describe('without a zone', () => {
  it('offers no zone, answers 503 dns_leak_off, and /healthz says why', async () => {
    const built = await build();
    const config = await (await built.app.request('/api/config')).json();
    expect(config).toMatchObject({ dnsLeakZone: null });
    const res = await built.app.request('/api/dns-leak', { method: 'POST' });
    expect([res.status, (await res.json() as { error: { code: string } }).error.code]).toEqual([503, 'dns_leak_off']);
    expect(await (await built.app.request('/healthz')).text()).toMatch(/^dns: off \(DNS_LEAK_ZONE is not set\)$/m);
  });
});

describe('when the port cannot be bound', () => {
  it('logs one line, turns the test off and says why on /healthz', async () => {
    const taken = createSocket('udp4');
    await new Promise<void>((done) => taken.bind(0, '127.0.0.1', () => done()));
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const built = await build({ DNS_LEAK_ZONE: ZONE, DNS_PORT: String(taken.address().port) });
      const lines = errors.mock.calls.map((c) => String(c[0])).filter((l) => l.includes('DNS leak test'));
      expect(lines).toEqual([expect.stringMatching(/^DNS leak test off: could not listen on udp\/tcp port \d+ of 127\.0\.0\.1: .*EADDRINUSE/)]);
      expect(await (await built.app.request('/api/config')).json()).toMatchObject({ dnsLeakZone: null });
      expect((await built.app.request('/api/dns-leak', { method: 'POST' })).status).toBe(503);
      expect(await (await built.app.request('/healthz')).text()).toMatch(/^dns: off \(could not listen on udp\/tcp port \d+ of 127\.0\.0\.1: .*EADDRINUSE.*\)$/m);
    } finally {
      errors.mockRestore();
      taken.close();
    }
  });
});
