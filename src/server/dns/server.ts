/**
 * The DNS leak test's responder on the wire: UDP and TCP on one port, answering with
 * answer.ts and telling `onNote` of each query for a token's name (which resolver asked,
 * over which transport). Both go through the UDP responders' message loop
 * (../udp/responder.ts: a bad query, a failed answer or a failed send never ends the
 * process) and a per-source budget (../udp/source-budget.ts), TCP with a loop of its own.
 *
 * UDP sources can be spoofed, so nothing is answered to a source port under 1024 other than
 * 53: those are services (echo, chargen, NTP...) that a reflected answer would hit, never a
 * resolver's query port. TCP is bounded too: at most MAX_TCP_CONNECTIONS at once, each
 * closed after TCP_IDLE_MS without a whole message (a length prefix promising more than ever
 * comes), which is all a 65,535-byte prefix can cost.
 */
import { createServer, type Socket } from 'node:net';
import { normalizeIp } from '../../lib/ip-address.ts';
import { PacketLoop, startUdpResponder, type Peer, type UdpResponder } from '../udp/responder.ts';
import { answerQuery, type DnsZone, type QueryNote } from './answer.ts';

/** What the responder tells of one query for a token's name. */
export interface ResolverNote extends QueryNote {
  /** The resolver's address, as the socket saw it (IPv4-mapped IPv6 as IPv4). */
  resolver: string;
  transport: 'udp' | 'tcp';
  /** When, in ms since the epoch. */
  at: number;
}

/**
 * Each source's budget: a resolver working through one visitor's test sends a few dozen
 * queries; a large resolver's one address carries many visitors, so it gets more than STUN.
 */
export const DNS_BUDGET = { perSecond: 200, burst: 400, maxSources: 50_000 };
/** Open TCP connections at most (per process). */
export const MAX_TCP_CONNECTIONS = 512;
/** A TCP connection without a whole message for this long is closed. */
export const TCP_IDLE_MS = 10_000;

export interface DnsServerOptions {
  host: string;
  /** 0: a free port (the same number for UDP and TCP), for tests. */
  port: number;
  zone: DnsZone;
  onNote: (note: ResolverNote) => void;
}

/** A listening responder. */
export interface DnsServer {
  readonly port: number;
  /** Its line for /healthz. */
  describe(): string;
  close(): Promise<void>;
}

/** True for a UDP source port no resolver queries from (module header). */
const reflectionTarget = (port: number): boolean => port < 1024 && port !== 53;

function answerer(zone: DnsZone, transport: 'udp' | 'tcp', onNote: (note: ResolverNote) => void) {
  return (packet: Buffer, peer: Peer): Buffer | undefined => {
    if (transport === 'udp' && reflectionTarget(peer.port)) return undefined;
    const { answer, note } = answerQuery(packet, zone, transport);
    if (note) onNote({ ...note, resolver: normalizeIp(peer.address.split('%')[0]!) ?? peer.address, transport, at: Date.now() });
    return answer;
  };
}

/** The TCP side: length-prefixed messages, each through `loop`, answered on its connection. */
function startTcp(host: string, port: number, zone: DnsZone, onNote: (note: ResolverNote) => void): Promise<{ loop: PacketLoop; close(): Promise<void> }> {
  const connections = new Map<string, Socket>();
  const sender = {
    send(answer: Buffer, peerPort: number, address: string, callback: (error: Error | null) => void) {
      const socket = connections.get(`${address}|${peerPort}`);
      if (!socket) return callback(new Error('connection closed before its answer'));
      const prefix = Buffer.alloc(2);
      prefix.writeUInt16BE(answer.length);
      socket.write(Buffer.concat([prefix, answer]), (error) => callback(error ?? null));
    },
  };
  const loop = new PacketLoop(sender, { name: 'dns tcp', answer: answerer(zone, 'tcp', onNote), budget: DNS_BUDGET });
  const server = createServer((socket) => {
    const peer = { address: socket.remoteAddress ?? '', port: socket.remotePort ?? 0 };
    const key = `${peer.address}|${peer.port}`;
    if (connections.size >= MAX_TCP_CONNECTIONS || !peer.address) return socket.destroy();
    connections.set(key, socket);
    socket.setTimeout(TCP_IDLE_MS, () => socket.destroy());
    socket.on('error', () => {}); // a peer's reset: its connection ends, nothing else
    socket.on('close', () => connections.delete(key));
    let pending: Buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      while (pending.length >= 2 && pending.length >= 2 + pending.readUInt16BE(0)) {
        const size = pending.readUInt16BE(0);
        loop.handle(pending.subarray(2, 2 + size), peer);
        pending = pending.subarray(2 + size);
      }
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port, exclusive: false }, () => {
      server.off('error', reject);
      server.on('error', (error) => loop.socketError(error));
      resolve({
        loop,
        close: () => new Promise<void>((done) => {
          server.close(() => done());
          for (const socket of connections.values()) socket.destroy();
        }),
      });
    });
  });
}

/**
 * Starts the responder on `host` and `port`, UDP first, then TCP on the port UDP got.
 * Rejects when either cannot be bound (port 53 needs privileges: docs/operations.md).
 */
export async function startDnsServer({ host, port, zone, onNote }: DnsServerOptions): Promise<DnsServer> {
  // With port 0, the free UDP port may be taken over TCP: a few draws find one free on both.
  for (let attempt = 1; ; attempt++) {
    const udp: UdpResponder = await startUdpResponder(host, port, { name: 'dns udp', answer: answerer(zone, 'udp', onNote), budget: DNS_BUDGET });
    try {
      const tcp = await startTcp(host, udp.port, zone, onNote);
      return {
        port: udp.port,
        describe: () => `dns: on, zone ${zone.labels.join('.')}; ${udp.describe()}; ${tcp.loop.describe(udp.port).replace(/^dns tcp: udp/, 'tcp')}`,
        close: async () => {
          await Promise.all([udp.close(), tcp.close()]);
        },
      };
    } catch (error) {
      await udp.close();
      if (port !== 0 || attempt >= 5 || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    }
  }
}
