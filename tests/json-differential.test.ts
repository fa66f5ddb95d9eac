/**
 * The /json answer byte for byte against the plain path it was first written as, over
 * 100,000 seeded random addresses (IPv4 and IPv6, reserved ones among them) on the real
 * databases and privacy lists with hits, misses, labels and fetched ages: the reference is
 * a lookup that builds every part afresh (`engineFrom(sources, { reuse: false })`), its
 * record serialized whole, as the handler did before the flags and reasons were shared per
 * network (src/server/lookup/privacy-memo.ts). `/json?ip=`, `/` asked as JSON, the memo's
 * answers (an address asked three times) and `/api/lookup/{ip}`, which carries the same
 * record, are compared; so is an answer across the moment a list's age in words changes.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ifconfigFields, ifconfigUserAgent } from '../src/lib/ifconfig-fields.ts';
import { createTextEndpoints, JsonMemo } from '../src/server/handlers/command-line-api.ts';
import { createApi } from '../src/server/handlers/lookup-api.ts';
import type { AppRequest, AppResponse } from '../src/server/http/handler.ts';
import { engineFrom, type Engine } from '../src/server/lookup/engine.ts';
import { defaultListPaths, type PrivacyLists } from '../src/server/data/privacy-lists.ts';
import { openSources, type Sources } from '../src/server/data/sources.ts';
import { hostnameMembers, setHostname } from '../src/server/reverse-dns/record-hostname.ts';
import { REVERSE_DNS_OFF } from '../src/server/reverse-dns/reverse-dns.ts';
import { clientConfigFromEnv } from '../src/lib/client-config.ts';

const COUNT = 100_000;
/** The instant every answer of the first case is made at, so a list's age reads the same in both paths however long the run. */
const NOW = Date.parse('2026-11-27T12:00:00.000Z');
const MINUTE = 60_000;
const dir = mkdtempSync(path.join(tmpdir(), 'json-differential-'));
const paths = defaultListPaths(dir);
let sources: Sources;
let lists: PrivacyLists;
let reference: Engine;
let engine: Engine;

/** Populated IPv6 /12s of the five registries (and Google's /32, Deutsche Telekom's /19). */
const V6_PREFIXES = [0x2001, 0x2003, 0x2400, 0x2401, 0x2404, 0x2406, 0x2600, 0x2601, 0x2602, 0x2604, 0x2605, 0x2607, 0x2800, 0x2803, 0x2a00, 0x2a01, 0x2a02, 0x2a03, 0x2a05, 0x2c0f];
const hex = (n: number) => Math.floor(n).toString(16);

/** mulberry32, as bench/seeded-random.mjs: the same seed, the same addresses. */
function seededRandom(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A seeded address: 60% IPv4 (uniform, so reserved ranges appear), 40% IPv6 in populated space, a few in other spellings. */
function addressFrom(random: () => number): string {
  const kind = random();
  const byte = () => Math.floor(random() * 256);
  if (kind < 0.6) return `${byte()}.${byte()}.${byte()}.${byte()}`;
  if (kind < 0.62) return `::ffff:${byte()}.${byte()}.${byte()}.${byte()}`;
  if (kind < 0.63) return `64:ff9b::${byte()}.${byte()}.${byte()}.${byte()}`;
  if (kind < 0.64) return ` ${byte()}.${byte()}.${byte()}.${byte()}\t`;
  const first = V6_PREFIXES[Math.floor(random() * V6_PREFIXES.length)]!;
  const groups = [hex(first + (first === 0x2001 || first === 0x2003 ? 0 : random() * 16)), ...Array.from({ length: 7 }, () => hex(random() * 65536))];
  // Some with zero groups in the middle (the '::' form), some written in capitals.
  if (random() < 0.3) groups.splice(3, 3, '0', '0', '0');
  const text = groups.join(':');
  return random() < 0.05 ? text.toUpperCase() : text;
}

/** List files with ranges drawn from the same generator: hits on every list, labelled and not, two sources in one file. */
function writeLists(random: () => number, now: number): void {
  const v4 = (bits: number) => `${Math.floor(random() * 224)}.${Math.floor(random() * 256)}.0.0/${bits}`;
  const v6 = () => `${hex(V6_PREFIXES[Math.floor(random() * V6_PREFIXES.length)]! + random() * 16)}:${hex(random() * 65536)}::/28`;
  const ranges = (n: number, label?: () => string) => Array.from({ length: n }, (_, i) => `${i % 5 === 0 ? v6() : v4(i % 2 ? 16 : 14)}${label ? `,${label()}` : ''}`).join('\n');
  const service = () => ['ExampleVPN', 'Other VPN', ''][Math.floor(random() * 3)]!;
  const at = (minutesAgo: number) => new Date(now - minutesAgo * MINUTE - 17_000).toISOString();
  mkdirSync(path.dirname(paths.tor), { recursive: true });
  writeFileSync(paths.tor, `# source tor fetched ${at(12)}: the Tor Project's exit list\n${ranges(150)}\n`);
  writeFileSync(paths.relay, `${ranges(100, () => ['GB,GB-EN,London,', 'US,US-CA,Los Angeles,', ''][Math.floor(random() * 3)]!)}\n`);
  writeFileSync(paths.vpn, `# source x4b-vpn fetched ${at(200)}: X4BNet's VPN list\n${ranges(150, service)}\n`);
  writeFileSync(paths.proxy, `${ranges(100, service)}\n`);
  writeFileSync(paths.hosting, [
    `# source aws fetched ${at(3000)} as AWS: Amazon's published ranges`, ranges(120, () => 'AWS'),
    `# source x4b-dc fetched ${at(59)}: X4BNet's datacenter list`, ranges(120),
  ].join('\n') + '\n');
}

const request = (p: string, query: string, clientIp: string, userAgent: string | null, accept: string | null = null): AppRequest => ({
  method: 'GET', path: p, query: new URLSearchParams(query), clientIp, clientAddress: undefined, body: async () => Buffer.alloc(0),
  headers: { get: (name) => (name === 'user-agent' ? userAgent : name === 'accept' ? accept : null) },
});

/** A body as the text its bytes are (/json's is a Buffer, written with its headers in one go). */
const text = (body: AppResponse['body']): string => (typeof body === 'string' ? body : Buffer.from(body!).toString('utf8'));

/** The body a handler answered with (none of these wait: reverse DNS is off). */
async function bodyOf(answer: ReturnType<ReturnType<typeof createTextEndpoints>>): Promise<string> {
  const reply = (await answer) as AppResponse;
  expect(reply.status).toBe(200);
  return text(reply.body);
}

/** The /json body as the handler first wrote it: the record serialized whole, the host name and user agent spliced in. */
function referenceJson(ip: string, userAgent: string | null): string {
  const { data } = reference.lookup(ip);
  const body = JSON.stringify(Object.assign(data, ifconfigFields(data)));
  const agent = ifconfigUserAgent(userAgent);
  return body.slice(0, -1) + hostnameMembers(REVERSE_DNS_OFF.cached(data.ip)!) + (agent ? `,"user_agent":${JSON.stringify(agent)}` : '') + '}\n';
}

/** /api/lookup/{ip} as it was: the whole response serialized, the host name set on its record. */
function referenceApi(ip: string): string {
  const result = reference.lookup(ip);
  setHostname(result.data, REVERSE_DNS_OFF.cached(result.data.ip)!);
  return JSON.stringify(result) + '\n';
}

beforeAll(async () => {
  writeLists(seededRandom(0x51ed), NOW);
  ({ sources } = await openSources({ lists: paths, listPollMs: 0 }));
  lists = sources.lists!;
  reference = engineFrom(sources, { reuse: false });
  engine = engineFrom(sources);
}, 60_000);
afterAll(() => {
  lists?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('/json and /api/lookup against the plain path', () => {
  it(`answer ${COUNT.toLocaleString('en')} seeded random addresses byte for byte as the record serialized whole`, async () => {
    const random = seededRandom(0x28b);
    const json = createTextEndpoints(engine);
    const api = createApi(engine, clientConfigFromEnv({}, 0));
    vi.spyOn(Date, 'now').mockReturnValue(NOW);
    const agents = [null, 'curl/8.5.0', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36', 'Wget', '"quoted" \\ agent\u2028'];
    const again: string[] = [];
    const seen = { listed: 0, v6: 0, reserved: 0, memo: 0, compared: 0 };
    for (let i = 0; i < COUNT; i++) {
      // Every 50th asks again one of the first 40 kept, each every 2,000 requests: within what the memo keeps, so it answers.
      const ip = i % 50 === 0 && again.length ? again[(i / 50) % Math.min(40, again.length)]! : addressFrom(random);
      if (i % 97 === 0) again.push(ip);
      const agent = agents[i % agents.length]!;
      // Two of three by ?ip=, one of three as the caller's own address on `/` asked as JSON.
      const asked = i % 3 === 0 ? request('/', '', ip.trim(), agent, 'application/json') : request('/json', `ip=${encodeURIComponent(ip)}`, '127.0.0.1', agent);
      const expected = referenceJson(asked.query.get('ip') ?? asked.clientIp, agent);
      const reply = await json(asked) as AppResponse;
      if (reply.headers!['server-timing']!.includes('memo')) seen.memo++;
      expect(text(reply.body), `${ip} (${agent})`).toBe(expected);
      if (i % 4 === 0) expect(await bodyOf(api(request(`/api/lookup/${ip.trim()}`, '', '127.0.0.1', null))), ip).toBe(referenceApi(ip.trim()));
      if (expected.includes('"reserved":"')) seen.reserved++;
      if (/"(tor|relay|proxy)":true|In the list of (VPN|hosting) ranges/.test(expected)) seen.listed++;
      if (expected.includes('"ip_version":"ipv6"')) seen.v6++;
      seen.compared++;
    }
    // The draw reached what it is meant to: list hits, IPv6, reserved addresses and the memo.
    expect(seen.compared).toBe(COUNT);
    expect(seen.listed).toBeGreaterThan(COUNT / 100);
    expect(seen.v6).toBeGreaterThan(COUNT / 4);
    expect(seen.reserved).toBeGreaterThan(COUNT / 50);
    expect(seen.memo).toBeGreaterThan(50);
    vi.restoreAllMocks();
  }, 120_000);

  it("changes a list's age in words in the very minute the plain path does", async () => {
    // No memo: it is renewed by the minute of the clock (engine-holder.ts), not of each list's age.
    const json = createTextEndpoints(engine, new JsonMemo(0));
    // An address on no list: its reasons name each list's age ("fetched 12 minutes ago").
    const ip = '8.8.4.4';
    const start = NOW;
    const now = vi.spyOn(Date, 'now');
    try {
      // Every second over three minutes, each answer against the plain path at the same instant.
      for (let s = 0; s < 180; s++) {
        now.mockReturnValue(start + s * 1000);
        const body = await bodyOf(json(request('/json', `ip=${ip}`, '127.0.0.1', null)));
        expect(body, `${s} s on`).toBe(referenceJson(ip, null));
      }
    } finally {
      now.mockRestore();
    }
  });
});
