/**
 * `/port/{n}`: whether TCP port n of the caller's own address accepts connections, as
 * ifconfig.co's: `{ ip, port, reachable }` to every client (curl included, as ifconfig.co
 * answers it), `yes`/`no` only when asked with `Accept: text/plain`. Only
 * ever the caller's address: `?ip=` is refused, so the check cannot be turned on another
 * host; a caller whose address is not public (the server's own network, or one that leads
 * there: `uncheckableKind`) is refused unless
 * the operator allows it (PORT_CHECK_PRIVATE, for tests). Each client has a few checks in
 * flight at most; its rate limit, stricter than the API's, is its route's class (routes.ts).
 * No answer of it carries CORS, its errors and its limit's 429 included (its route row in
 * routes.ts does not opt in, so http/route-table.ts sends no Access-Control-* header):
 * another site's page must not learn which ports its visitors have open, nor probe them.
 */
import { connect } from 'node:net';
import { nat64Embedded, reservedKind, type ParsedIp, type ReservedKind } from '../../lib/ip-address.ts';
import { clientKey } from '../../lib/client-key.ts';
import { json, jsonError, methodNotAllowed, text, type AppRequest, type Handler } from '../http/handler.ts';

const PREFIX = '/port/';

/** How long a connect may take before the port counts as not reachable. */
export const PROBE_TIMEOUT_MS = 2000;

/** Whether `ip`:`port` accepts a TCP connection within `timeoutMs`: one connect, closed at once. Never rejects. */
export function tcpProbe(ip: string, port: number, timeoutMs = PROBE_TIMEOUT_MS): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: ip, port, timeout: timeoutMs });
    const done = (reachable: boolean) => { socket.destroy(); resolve(reachable); };
    socket.once('connect', () => done(true));
    socket.once('timeout', () => done(false));
    socket.once('error', () => done(false));
  });
}

/** Checks one client may have in flight at once. */
export const MAX_CHECKS_IN_FLIGHT = 3;

export interface PortCheckOptions {
  /** Whether callers with a private or loopback address may be checked (tests). */
  allowPrivate: boolean;
  /** The connect; a test may replace it. */
  probe?: (ip: string, port: number) => Promise<boolean>;
}

/**
 * Why the check will not connect to `ip`, or undefined for an address it may: the
 * special-purpose ranges of the IANA registries (`reservedKind`, which judges a NAT64
 * `64:ff9b::/96` address by the IPv4 address it carries and refuses Teredo, `2001::/32`,
 * within `2001::/23`); a 6to4 address (`2002::/16`, RFC 3056) judged by the IPv4 address in
 * its bits 16-47, which is where its packets go (`2002:7f00:1::` is 127.0.0.1); and in IPv6
 * anything outside `2000::/3`, the only global unicast space IANA allocates (the rest is
 * reserved by the IETF: `fec0::/10`, the deprecated site-local, `5f00::/16` SRv6 SIDs,
 * `100::/64` discard), NAT64 aside.
 */
export function uncheckableKind(ip: ParsedIp): ReservedKind | undefined {
  const kind = reservedKind(ip);
  if (kind !== undefined || ip.version === 4) return kind;
  const first = Number(ip.value >> 112n);
  if (first === 0x2002) return reservedKind({ version: 4, value: Number(BigInt.asUintN(32, ip.value >> 80n)) });
  if (first >> 13 !== 1 && !nat64Embedded(ip)) return 'Reserved';
  return undefined;
}

/** Whether the caller asked for plain text (`Accept: text/plain` first): only then `yes`/`no`. */
const asksPlainText = (req: AppRequest): boolean => /^text\/plain\b/i.test((req.headers.get('accept') ?? '').trim());


/** Creates the `/port/{n}` handler. */
export function createPortCheck({ allowPrivate, probe = tcpProbe }: PortCheckOptions): Handler {
  const inFlight = new Map<string, number>();
  return async (req) => {
    if (!req.path.startsWith(PREFIX)) return undefined;
    if (req.method !== 'GET' && req.method !== 'HEAD') return methodNotAllowed('GET, HEAD', 'Use GET here.');
    const asked = req.path.slice(PREFIX.length);
    const port = /^\d{1,5}$/.test(asked) ? Number(asked) : NaN;
    if (!(port >= 1 && port <= 65535)) {
      return jsonError(400, 'invalid_port', `"${asked.slice(0, 64)}" is not a port: give a whole number from 1 to 65535.`);
    }
    if (req.query.has('ip')) {
      return jsonError(400, 'ip_not_allowed', 'The port check tests your own address only: remove ?ip=.');
    }
    const address = req.clientAddress;
    if (!address) return jsonError(400, 'unknown_client', 'Your address could not be read, so there is nothing to check.');
    if (uncheckableKind(address) && !allowPrivate) {
      return jsonError(403, 'private_caller', `Your address (${req.clientIp}) is not a public one: the server cannot reach it from outside.`);
    }
    const key = clientKey(address);
    const running = inFlight.get(key) ?? 0;
    if (running >= MAX_CHECKS_IN_FLIGHT) {
      return jsonError(429, 'too_many_checks', `At most ${MAX_CHECKS_IN_FLIGHT} port checks at once: wait for one to finish.`, { 'retry-after': '2' });
    }
    inFlight.set(key, running + 1);
    let reachable: boolean;
    try {
      reachable = await probe(req.clientIp, port);
    } finally {
      const left = inFlight.get(key)! - 1;
      if (left === 0) inFlight.delete(key);
      else inFlight.set(key, left);
    }
    return asksPlainText(req) ? text(200, reachable ? 'yes' : 'no') : json(200, { ip: req.clientIp, port, reachable });
  };
}
