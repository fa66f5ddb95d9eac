/**
 * A DNS server on 127.0.0.1 (UDP, port 0) for the reverse-DNS tests: it answers PTR and
 * A/AAAA questions from a table, so the server's resolver (DNS_RESOLVERS) never leaves the
 * machine. An entry can answer late (`delayMs`, past the resolver's timeout) or not at all,
 * and the server counts the questions it was asked.
 */
import { createSocket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import * as packet from 'dns-packet';

/** What a name answers: PTR names, addresses, and how long to wait first. */
export interface DnsEntry {
  ptr?: string[];
  a?: string[];
  aaaa?: string[];
  ttl?: number;
  /** Answer after this many ms (past the resolver's timeout: a slow resolver). */
  delayMs?: number;
  /** Never answer. */
  silent?: boolean;
}

export interface TestDnsServer {
  /** `127.0.0.1:{port}`, for DNS_RESOLVERS. */
  address: string;
  /** Questions asked, as `TYPE name`, in order. */
  asked: string[];
  close(): Promise<void>;
}

/** The reverse name of an address: `1.0.0.127.in-addr.arpa`, or the nibbles under ip6.arpa. */
export function reverseName(ip: string): string {
  if (!ip.includes(':')) return `${ip.split('.').reverse().join('.')}.in-addr.arpa`;
  const [head = '', tail = ''] = ip.split('::');
  const groups = (part: string) => (part ? part.split(':') : []);
  const missing = 8 - groups(head).length - groups(tail).length;
  const full = [...groups(head), ...Array<string>(ip.includes('::') ? missing : 0).fill('0'), ...groups(tail)];
  return `${full.map((g) => g.padStart(4, '0')).join('').split('').reverse().join('.')}.ip6.arpa`;
}

/** Starts the server over `records` (keys: names, lower case, reverse names included). */
export async function startDnsServer(records: Record<string, DnsEntry>): Promise<TestDnsServer> {
  const socket = createSocket('udp4');
  const asked: string[] = [];
  socket.on('message', (message, from) => {
    let query: packet.Packet;
    try { query = packet.decode(message); } catch { return; }
    const question = query.questions?.[0];
    if (!question) return;
    asked.push(`${question.type} ${question.name}`);
    const entry = records[question.name.toLowerCase()];
    if (entry?.silent) return;
    const ttl = entry?.ttl ?? 300;
    const answers: packet.Answer[] = [];
    if (question.type === 'PTR') for (const data of entry?.ptr ?? []) answers.push({ type: 'PTR', name: question.name, ttl, data });
    if (question.type === 'A') for (const data of entry?.a ?? []) answers.push({ type: 'A', name: question.name, ttl, data });
    if (question.type === 'AAAA') for (const data of entry?.aaaa ?? []) answers.push({ type: 'AAAA', name: question.name, ttl, data });
    const reply = packet.encode({
      id: query.id, type: 'response', flags: packet.RECURSION_DESIRED | packet.RECURSION_AVAILABLE | (entry ? 0 : 3),
      questions: query.questions, answers,
    });
    const send = () => socket.send(reply, from.port, from.address);
    if (entry?.delayMs) setTimeout(send, entry.delayMs).unref();
    else send();
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address() as AddressInfo;
  return { address: `127.0.0.1:${port}`, asked, close: () => new Promise((resolve) => socket.close(() => resolve())) };
}

/** The addresses of the hostname tests, each with the reverse DNS its name says. */
export const NAMED = { confirmed: '84.17.0.10', unconfirmed: '84.17.0.11', slow: '84.17.0.12', none: '84.17.0.13', hostile: '84.17.0.14' } as const;

/**
 * Records for NAMED: a name that resolves back, one that points elsewhere, one that answers
 * after `slowMs`, none at all, and `hostileName` (markup or control characters) for the last.
 */
export function namedRecords(slowMs: number, hostileName: string): Record<string, DnsEntry> {
  return {
    [reverseName(NAMED.confirmed)]: { ptr: ['host.example.test'] },
    'host.example.test': { a: [NAMED.confirmed] },
    [reverseName(NAMED.unconfirmed)]: { ptr: ['liar.example.test'] },
    'liar.example.test': { a: ['84.17.0.99'] },
    [reverseName(NAMED.slow)]: { ptr: ['slow.example.test'], delayMs: slowMs },
    [reverseName(NAMED.hostile)]: { ptr: [hostileName] },
  };
}
