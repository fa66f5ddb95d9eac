/**
 * The DNS leak test's responder on the wire: UDP and TCP on one port, answering with
 * answer.ts and telling `onNote` of each query for a token's name (which resolver asked,
 * over which transport). Both go through the UDP responders' message loop
 * (../udp/responder.ts: a bad query, a failed answer or a failed send never ends the
 * process) and a per-source budget (../udp/source-budget.ts), TCP with a loop of its own.
 *
 * UDP sources can be spoofed, so nothing is answered to a source port under 1024 other than
 * 53: those are services (echo, chargen, NTP...) that a reflected answer would hit, never a
 * resolver's query port. TCP is bounded too, so that no source holds the port for others:
 * at most MAX_TCP_PER_SOURCE connections per source (an IPv4 address or an IPv6 /64, as the
 * budget counts them) and MAX_TCP_CONNECTIONS in all. When all are taken, a newcomer that
 * holds at least two fewer than the source holding the most takes that source's oldest
 * connection; else it is refused (many sources of one connection each keep theirs). Each
 * message must arrive whole within TCP_MESSAGE_MS of its first byte (a byte every few
 * seconds does not keep a connection), and a connection without a whole message for
 * TCP_IDLE_MS is closed: all a 65,535-byte length prefix can cost.
 */
import { createServer, type Socket } from 'node:net';
import { normalizeIp } from '../../lib/ip-address.ts';
import { PacketLoop, startUdpResponder, type Peer, type UdpResponder } from '../udp/responder.ts';
import { sourceKey } from '../udp/source-budget.ts';
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
/** Open TCP connections at most per source (per process): a resolver's address needs a few. */
export const MAX_TCP_PER_SOURCE = 16;
/** A TCP connection without a whole message for this long (since it opened, or its last message) is closed. */
export const TCP_IDLE_MS = 10_000;
/** A TCP message (its length prefix and all it promises) must arrive within this long of its first byte. */
export const TCP_MESSAGE_MS = 2_000;

/** The TCP side's bounds (the constants above; tests make them small). */
export interface TcpLimits {
  connections: number;
  perSource: number;
  idleMs: number;
  messageMs: number;
}
const TCP_LIMITS: TcpLimits = { connections: MAX_TCP_CONNECTIONS, perSource: MAX_TCP_PER_SOURCE, idleMs: TCP_IDLE_MS, messageMs: TCP_MESSAGE_MS };

export interface DnsServerOptions {
  host: string;
  /** 0: a free port (the same number for UDP and TCP), for tests. */
  port: number;
  zone: DnsZone;
  onNote: (note: ResolverNote) => void;
  /** The TCP side's bounds, in part (default: the constants above). */
  tcp?: Partial<TcpLimits>;
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

/**
 * The open connections, by peer (for the answers) and by source (for their caps): which
 * may open one more, and which connection makes room for it (module header).
 */
class TcpConnections {
  readonly byPeer = new Map<string, Socket>();
  /** Each connection's peer and source keys. */
  readonly #keys = new Map<Socket, { peerKey: string; source: string }>();
  /** Per source key, its connections, oldest first. */
  readonly #bySource = new Map<string, Set<Socket>>();
  readonly #limits: TcpLimits;

  constructor(limits: TcpLimits) {
    this.#limits = limits;
  }

  /** Takes `socket` in under `source`, making room if it may; false when it is refused. */
  admit(socket: Socket, peerKey: string, source: string): boolean {
    const own = this.#bySource.get(source)?.size ?? 0;
    if (own >= this.#limits.perSource) return false;
    if (this.byPeer.size >= this.#limits.connections) {
      let heaviest: Set<Socket> | undefined;
      for (const held of this.#bySource.values()) if (!heaviest || held.size > heaviest.size) heaviest = held;
      // Room is made only by a source that would still hold as many as the newcomer.
      if (!heaviest || heaviest.size < own + 2) return false;
      const [oldest] = heaviest;
      this.forget(oldest!);
      oldest!.destroy();
    }
    this.byPeer.set(peerKey, socket);
    this.#keys.set(socket, { peerKey, source });
    const held = this.#bySource.get(source) ?? new Set();
    this.#bySource.set(source, held.add(socket));
    return true;
  }

  /** Forgets a connection (once it closes, or as it is closed to make room); twice is harmless. */
  forget(socket: Socket): void {
    const keys = this.#keys.get(socket);
    if (!keys) return;
    const { peerKey, source } = keys;
    this.#keys.delete(socket);
    if (this.byPeer.get(peerKey) === socket) this.byPeer.delete(peerKey);
    const held = this.#bySource.get(source);
    if (held?.delete(socket) && held.size === 0) this.#bySource.delete(source);
  }

  destroyAll(): void {
    for (const socket of this.byPeer.values()) socket.destroy();
  }
}

/** The TCP side: length-prefixed messages, each through `loop`, answered on its connection. */
function startTcp(host: string, port: number, zone: DnsZone, onNote: (note: ResolverNote) => void, limits: TcpLimits): Promise<{ loop: PacketLoop; close(): Promise<void> }> {
  const connections = new TcpConnections(limits);
  const sender = {
    send(answer: Buffer, peerPort: number, address: string, callback: (error: Error | null) => void) {
      const socket = connections.byPeer.get(`${address}|${peerPort}`);
      if (!socket) return callback(new Error('connection closed before its answer'));
      const prefix = Buffer.alloc(2);
      prefix.writeUInt16BE(answer.length);
      socket.write(Buffer.concat([prefix, answer]), (error) => callback(error ?? null));
    },
  };
  const loop = new PacketLoop(sender, { name: 'dns tcp', answer: answerer(zone, 'tcp', onNote), budget: DNS_BUDGET });
  const server = createServer((socket) => {
    const peer = { address: socket.remoteAddress ?? '', port: socket.remotePort ?? 0 };
    const peerKey = `${peer.address}|${peer.port}`;
    socket.on('error', () => {}); // a peer's reset: its connection ends, nothing else
    if (!peer.address || !connections.admit(socket, peerKey, sourceKey(peer.address))) return socket.destroy();
    const end = () => socket.destroy();
    // Refreshed by each whole message; the message's own deadline runs from its first byte.
    const idle = setTimeout(end, limits.idleMs);
    let message: NodeJS.Timeout | undefined;
    socket.on('close', () => {
      clearTimeout(idle);
      clearTimeout(message);
      connections.forget(socket);
    });
    let pending: Buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      let started = pending.length === 0;
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      while (pending.length >= 2 && pending.length >= 2 + pending.readUInt16BE(0)) {
        const size = pending.readUInt16BE(0);
        loop.handle(pending.subarray(2, 2 + size), peer);
        pending = pending.subarray(2 + size);
        idle.refresh();
        started = true;
      }
      if (!pending.length) {
        clearTimeout(message);
        message = undefined;
      } else if (started) {
        // A message began in this chunk: its deadline starts now.
        clearTimeout(message);
        message = setTimeout(end, limits.messageMs);
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
          connections.destroyAll();
        }),
      });
    });
  });
}

/**
 * Starts the responder on `host` and `port`, UDP first, then TCP on the port UDP got.
 * Rejects when either cannot be bound (port 53 needs privileges: docs/operations.md).
 */
export async function startDnsServer({ host, port, zone, onNote, tcp: limits }: DnsServerOptions): Promise<DnsServer> {
  // With port 0, the free UDP port may be taken over TCP: a few draws find one free on both.
  for (let attempt = 1; ; attempt++) {
    const udp: UdpResponder = await startUdpResponder(host, port, { name: 'dns udp', answer: answerer(zone, 'udp', onNote), budget: DNS_BUDGET });
    try {
      const tcp = await startTcp(host, udp.port, zone, onNote, { ...TCP_LIMITS, ...limits });
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
