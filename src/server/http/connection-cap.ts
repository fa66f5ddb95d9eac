/**
 * Caps on open HTTP connections, so that a few clients cannot take every file descriptor of
 * the process (the health check, the analytics store, the data files and the port check's
 * connects need theirs too).
 *
 * - Per client (an IPv4 address or an IPv6 /64, as the UDP budget counts sources:
 *   ../udp/source-budget.ts `sourceKey`): at most `perClient` connections open at once; one
 *   over it is closed at once, before node reads a byte of it (no answer: an answer would hold
 *   the descriptor longer, and the client that opens so many is no browser). Loopback peers
 *   (local health checks) and the peers TRUST_PROXY trusts (whose connections carry everyone)
 *   are not capped this way: behind a proxy the per-client cap is the proxy's to keep
 *   (docs/operations.md).
 * - In total: at most `total` connections, below the process's descriptor limit by a reserve
 *   (`totalConnectionCap`); node itself closes one over it on accept (`server.maxConnections`,
 *   with `dropMaxConnection` in a cluster worker).
 *
 * Counts are this process's: with several workers each keeps its own (a client reaching N
 * workers may hold N times `perClient`), and each has its own descriptor limit.
 */
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { parseIp, reservedKind } from '../../lib/ip-address.ts';
import { sourceKey } from '../udp/source-budget.ts';
import { trustsPeer, type TrustProxy } from './client-ip.ts';

/** The caps a server keeps. */
export interface ConnectionCaps {
  /** Connections one client may hold open at once. */
  perClient: number;
  /** Connections the process holds open at once. */
  total: number;
}

/** Descriptors kept free of connections at least, and as a share of the limit (the larger wins). */
export const RESERVED_DESCRIPTORS = 256;
export const RESERVED_SHARE = 0.1;

/** The total cap where the descriptor limit cannot be read (no /proc: not Linux). */
export const FALLBACK_TOTAL = 4096;

/**
 * The process's descriptor limit (its soft RLIMIT_NOFILE, which node raises to the hard one
 * at start), from `/proc/self/limits` text; undefined when it cannot be read or is unlimited.
 */
export function descriptorLimit(limits: () => string = () => readFileSync('/proc/self/limits', 'utf8')): number | undefined {
  let text: string;
  try {
    text = limits();
  } catch {
    return undefined;
  }
  const soft = /^Max open files\s+(\d+)\s/m.exec(text)?.[1];
  return soft === undefined ? undefined : Number(soft);
}

/**
 * The total cap for a descriptor limit: the limit less its reserve (RESERVED_DESCRIPTORS, or
 * RESERVED_SHARE of it when that is more), at least 1; FALLBACK_TOTAL without a limit.
 */
export function totalConnectionCap(limit: number | undefined): number {
  if (limit === undefined) return FALLBACK_TOTAL;
  return Math.max(1, limit - Math.max(RESERVED_DESCRIPTORS, Math.ceil(limit * RESERVED_SHARE)));
}

/** What the caps did, for /healthz. */
export interface ConnectionCounts {
  /** Connections open now. */
  open: number;
  /** Closed at once: their client already held `perClient`. */
  overClient: number;
  /** Closed by node on accept: the process already held `total`. */
  overTotal: number;
}

/** A server under its caps: what they did, and its /healthz line. */
export interface CappedServer {
  readonly counts: Readonly<ConnectionCounts>;
  describe(): string;
}

/**
 * Puts `server` under `caps`: the total through node's own `maxConnections`, the per-client
 * cap in a `connection` listener ahead of node's HTTP one. Peers TRUST_PROXY trusts, and
 * loopback, are not capped per client.
 */
export function capConnections(server: Server, caps: ConnectionCaps, trust: TrustProxy): CappedServer {
  server.maxConnections = caps.total;
  // A cluster worker at its total closes the connection too: by default node hands it to
  // another worker, which, as full under a flood, hands it back.
  Object.assign(server, { dropMaxConnection: true });
  const counts: ConnectionCounts = { open: 0, overClient: 0, overTotal: 0 };
  const held = new Map<string, number>();
  server.on('drop', () => { counts.overTotal++; });
  server.prependListener('connection', (socket: Socket) => {
    const peer = socket.remoteAddress ?? '';
    const parsed = parseIp(peer);
    counts.open++;
    socket.once('close', () => { counts.open--; });
    if (!parsed || reservedKind(parsed) === 'Loopback' || trustsPeer(parsed, trust)) return;
    const key = sourceKey(peer);
    const count = held.get(key) ?? 0;
    if (count >= caps.perClient) {
      counts.overClient++;
      socket.destroy();
      return;
    }
    held.set(key, count + 1);
    socket.once('close', () => {
      const left = held.get(key)! - 1;
      if (left === 0) held.delete(key);
      else held.set(key, left);
    });
  });
  return {
    counts,
    describe: () => `http: ${counts.open} connections open, at most ${caps.total} (${caps.perClient} a client); `
      + `${counts.overClient} closed over a client's cap, ${counts.overTotal} over the total (this process)`,
  };
}
