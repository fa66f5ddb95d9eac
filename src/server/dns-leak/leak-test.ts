/**
 * The DNS leak test's part of the server: from the configuration, the responder (server.ts)
 * and the store its notes go to (notes.ts, notes-shared.ts), or the reason it is off. Off
 * without DNS_LEAK_ZONE; off, with one log line and its reason on /healthz, when the port
 * cannot be bound (port 53 needs privileges: docs/operations.md). The zone is offered to
 * the browser (ClientConfig's `dnsLeakZone`) only while the responder listens.
 */
import cluster from 'node:cluster';
import { networkInterfaces } from 'node:os';
import { parseIp, reservedKind } from '../../lib/ip-address.ts';
import { oneLine } from '../utils/log.ts';
import type { DnsZone } from './answer.ts';
import { MemoryNotes, type NoteStore } from './notes.ts';
import { ClusterNotes, RedisNotes } from './notes-shared.ts';
import { startDnsServer, type DnsServer } from './server.ts';

/** What the test needs of the configuration (config.ts). */
export interface DnsLeakConfig {
  host: string;
  dnsLeak: { zone: string | undefined; port: number; answer: string[] | undefined };
  redisUrl: string | undefined;
  redisPrefix: string;
  /** What Redis's keys of clients are hashed with (notes-shared.ts). */
  rateLimitSecret: string | undefined;
}

/** The test as the routes see it. */
export interface DnsLeakTest {
  /** The zone, while the responder listens; null when the test is off. */
  zone: string | null;
  /** Where the notes are (undefined when off). */
  notes: NoteStore | undefined;
  /** The responder's port, when it listens. */
  port: number | undefined;
  /** The /healthz line. */
  describe(): string;
  close(): Promise<void>;
}

/**
 * The addresses the zone's names answer when DNS_LEAK_ANSWER is unset: HOST when it names
 * one address; else, for HOST `0.0.0.0` or `::`, the first IPv4 and the first IPv6 address of
 * this machine's interfaces that are neither loopback nor link-local; 127.0.0.1 when there is none.
 */
export function ownAddresses(host: string, interfaces = networkInterfaces()): string[] {
  const parsed = parseIp(host);
  if (parsed && reservedKind(parsed) !== 'Unspecified') return [host];
  const found = Object.values(interfaces).flat().filter((i) => i && !i.internal && !/^(fe80:|169\.254\.)/i.test(i.address));
  const pick = (family: string) => found.find((i) => i!.family === family)?.address.split('%')[0];
  const chosen = [pick('IPv4'), pick('IPv6')].filter((a): a is string => a !== undefined);
  return chosen.length ? chosen : ['127.0.0.1'];
}

/** The zone as the responder answers it, from its name and addresses. */
export function dnsZone(zone: string, addresses: readonly string[]): DnsZone {
  const bytes = (ip: string): Buffer => {
    const p = parseIp(ip)!;
    if (p.version === 4) return Buffer.from([p.value >>> 24, (p.value >>> 16) & 255, (p.value >>> 8) & 255, p.value & 255]);
    const out = Buffer.alloc(16);
    out.writeBigUInt64BE(p.value >> 64n, 0);
    out.writeBigUInt64BE(BigInt.asUintN(64, p.value), 8);
    return out;
  };
  const parsed = addresses.map((ip) => ({ ip, version: parseIp(ip)?.version }));
  return {
    labels: zone.split('.'),
    ipv4: parsed.filter((a) => a.version === 4).map((a) => bytes(a.ip)),
    ipv6: parsed.filter((a) => a.version === 6).map((a) => bytes(a.ip)),
  };
}

/** Where notes go: Redis when configured, else the cluster primary in a worker, else this process. */
function noteStore(config: DnsLeakConfig): NoteStore {
  if (config.redisUrl) return new RedisNotes(config.redisUrl, config.redisPrefix, undefined, undefined, config.rateLimitSecret);
  return cluster.isWorker ? new ClusterNotes() : new MemoryNotes();
}

const off = (why: string): DnsLeakTest => ({ zone: null, notes: undefined, port: undefined, describe: () => `dns: off (${why})`, close: async () => {} });

/** Starts the test's responder when a zone is configured; never rejects (a bind failure turns it off). */
export async function startDnsLeakTest(config: DnsLeakConfig): Promise<DnsLeakTest> {
  const { zone, port, answer } = config.dnsLeak;
  if (!zone) return off('DNS_LEAK_ZONE is not set');
  const notes = noteStore(config);
  let server: DnsServer;
  try {
    server = await startDnsServer({ host: config.host, port, zone: dnsZone(zone, answer ?? ownAddresses(config.host)), onNote: (note) => notes.note(note) });
  } catch (error) {
    await notes.close();
    const why = `could not listen on udp/tcp port ${port} of ${config.host}: ${oneLine(error)}`;
    console.error(`DNS leak test off: ${why}; see DNS_PORT in docs/configuration.md and docs/operations.md`);
    return off(why);
  }
  return {
    zone,
    notes,
    port: server.port,
    describe: () => `${server.describe()}; notes ${notes.state()}`,
    close: async () => { await Promise.all([server.close(), notes.close()]); },
  };
}

/** The browser's runtime config as the server offers it: the test's zone in it only while the responder listens. */
export const offeredClientConfig = <C extends { dnsLeakZone: string | null }>(client: C, test: Pick<DnsLeakTest, 'zone'>): C =>
  ({ ...client, dnsLeakZone: test.zone });
