/**
 * The visitor's address. The socket peer by default; when the peer is a proxy we were
 * told to trust (TRUST_PROXY), the one header that proxy sets (TRUST_PROXY_HEADER,
 * `X-Forwarded-For` unless configured, as echoip's `-H`), walked from the right and
 * stopping at the first untrusted hop. Never a precedence among several headers: a
 * client can send any of them, and the proxy appends to or replaces only its own.
 * A hop a trusted proxy wrote that is not an address (`unknown`, `_hidden`, garbage, empty)
 * makes the client unknown: never the proxy itself, whose loopback or private address would
 * exempt the client from the rate limit and open the operator's data to it.
 */
import { cidrContains, formatIp, parseCidr, parseIp, reservedKind, type Cidr, type ParsedIp } from '../../lib/ip-address.ts';

/**
 * Which peers may speak for the client (none, the nearest N hops, or peers inside CIDRs)
 * and the header, lower case, their proxy writes the chain into.
 */
export type TrustProxy =
  | { kind: 'none' }
  | { kind: 'hops'; hops: number; header: string }
  | { kind: 'cidrs'; cidrs: Cidr[]; header: string };

/** The header proxies write the client chain into unless TRUST_PROXY_HEADER says otherwise. */
export const DEFAULT_PROXY_HEADER = 'X-Forwarded-For';

const NAMED_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  private: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
};

/**
 * Parses TRUST_PROXY: empty or `false` (trust nobody), a hop count (`1`), or a comma list
 * of CIDRs, addresses and the names `loopback`, `private`, `linklocal`; and
 * TRUST_PROXY_HEADER, one header name (`X-Forwarded-For`, `Forwarded`, `X-Real-IP`, ...).
 * Throws with a one-line reason on anything else.
 */
export function parseTrustProxy(value: string | undefined, headerName: string = DEFAULT_PROXY_HEADER): TrustProxy {
  if (!/^[A-Za-z0-9-]+$/.test(headerName)) {
    throw new Error(`TRUST_PROXY_HEADER "${headerName}" must be one header name, such as X-Forwarded-For or Forwarded`);
  }
  const header = headerName.toLowerCase();
  const text = (value ?? '').trim();
  if (text === '' || text === 'false' || text === '0') return { kind: 'none' };
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > 32) throw new Error(`TRUST_PROXY hop count ${hops} is implausible (max 32)`);
    return { kind: 'hops', hops, header };
  }
  const cidrs: Cidr[] = [];
  for (const item of text.split(',').map((s) => s.trim()).filter(Boolean)) {
    for (const entry of NAMED_RANGES[item] ?? [item]) {
      const cidr = parseCidr(entry);
      if (!cidr) throw new Error(`TRUST_PROXY entry "${item}" is not a CIDR, an address, a hop count or loopback/private/linklocal`);
      cidrs.push(cidr);
    }
  }
  return { kind: 'cidrs', cidrs, header };
}

/** Strips brackets, ports and quotes from one hop as proxies write it; undefined for garbage. */
export function parseHop(raw: string): ParsedIp | undefined {
  let text = raw.trim().replace(/^"(.*)"$/, '$1');
  if (text.startsWith('[')) {
    const end = text.indexOf(']');
    if (end === -1) return undefined;
    text = text.slice(1, end);
  } else if (/^[\d.]+:\d+$/.test(text)) {
    text = text.slice(0, text.lastIndexOf(':'));
  }
  return parseIp(text);
}

/** The value of parameter `name` (`for`, `proto`) in one element of a `Forwarded` header. */
function forwardedParam(element: string, name: string): string {
  const pair = element.split(';').map((p) => p.trim()).find((p) => p.toLowerCase().startsWith(name + '='));
  return pair ? pair.slice(name.length + 1) : '';
}

/** The hops the proxy's header names, left (client side) to right; a header sent empty is one empty hop. */
function forwardedChain(headers: Headers, header: string): string[] {
  const value = headers.get(header);
  if (value === null || value === undefined) return [];
  const elements = value.split(',');
  return header === 'forwarded' ? elements.map((element) => forwardedParam(element, 'for')) : elements;
}

/** Minimal header access, satisfied by `Headers` and by a node-request adapter. */
export interface Headers { get(name: string): string | null | undefined }

/** The client's address, parsed, and as canonical text (`::ffff:1.2.3.4` becomes `1.2.3.4`). */
export interface ClientAddress {
  /** Undefined when the address is unknown: no usable socket peer, or a trusted hop that is not an address. */
  parsed: ParsedIp | undefined;
  text: string;
}

/** What a trusted proxy could not name: the client is unknown (UNKNOWN_CLIENT.text is `unknown`). */
export const UNKNOWN_CLIENT: ClientAddress = Object.freeze({ parsed: undefined, text: 'unknown' });

/**
 * Whether `ip`, reached after `hops` trusted hops already walked, may speak for the client:
 * within the hop count, or inside a trusted CIDR. The one trust rule for the address and
 * for the protocol (HSTS).
 */
function trusts(trust: TrustProxy, ip: ParsedIp, hops: number): boolean {
  if (trust.kind === 'none') return false;
  return trust.kind === 'hops' ? hops < trust.hops : trust.cidrs.some((c) => cidrContains(c, ip));
}

/**
 * Whether a socket peer is a proxy TRUST_PROXY trusts (any peer for a hop count): its
 * connections carry many clients, so no per-client cap applies to it (connection-cap.ts).
 */
export const trustsPeer = (peer: ParsedIp, trust: TrustProxy): boolean => trusts(trust, peer, 0);

/**
 * Derives the client address from the socket peer and, for trusted peers, the proxy chain.
 */
export function clientAddress(peer: string, headers: Headers, trust: TrustProxy): ClientAddress {
  const peerIp = parseIp(peer);
  if (!peerIp) return { parsed: undefined, text: peer };
  // A dotted-quad peer is already canonical text: no need to print it again.
  if (trust.kind === 'none') return { parsed: peerIp, text: peerIp.version === 4 && !peer.includes(':') ? peer : formatIp(peerIp) };
  const chain = forwardedChain(headers, trust.header);
  let current = peerIp;
  let trustedHops = 0;
  for (let i = chain.length - 1; i >= 0 && trusts(trust, current, trustedHops); i--) {
    const hop = parseHop(chain[i]!);
    if (!hop) return UNKNOWN_CLIENT;
    trustedHops++;
    current = hop;
  }
  return { parsed: current, text: formatIp(current) };
}

/** The headers proxies write the client into. */
const FORWARDED_HEADERS = ['X-Forwarded-For', 'Forwarded', 'X-Real-IP'] as const;

/**
 * The forwarded header a request carries while no proxy is trusted, when its peer is
 * private or loopback (a proxy in front, most likely, whose visitors would all appear as
 * it: exempt from the rate limit, operators of the analytics); undefined otherwise. What
 * a public peer sends is a client's own, and says nothing of a proxy.
 */
export function untrustedProxyHeader(peer: string, headers: Headers, trust: TrustProxy): string | undefined {
  if (trust.kind !== 'none') return undefined;
  const name = FORWARDED_HEADERS.find((header) => headers.get(header) != null);
  if (name === undefined) return undefined;
  const peerIp = parseIp(peer);
  return peerIp && reservedKind(peerIp) ? name : undefined;
}

/** The client address as canonical text (see clientAddress). */
export const clientIp = (peer: string, headers: Headers, trust: TrustProxy): string => clientAddress(peer, headers, trust).text;

/**
 * Whether the request reached the trusted proxy over TLS (for HSTS): only believed when
 * the peer itself is trusted, and read from the value that proxy appended, the rightmost
 * (`proto=` of the last `Forwarded` element when the proxy sets `Forwarded`, else the last
 * `X-Forwarded-Proto` value): anything left of it may come from the client.
 */
export function forwardedProtoIsHttps(peer: string, headers: Headers, trust: TrustProxy): boolean {
  const peerIp = trust.kind === 'none' ? undefined : parseIp(peer);
  if (!peerIp || !trusts(trust, peerIp, 0)) return false;
  const forwarded = trust.kind !== 'none' && trust.header === 'forwarded';
  const value = headers.get(forwarded ? 'forwarded' : 'x-forwarded-proto') ?? '';
  const last = value.slice(value.lastIndexOf(',') + 1);
  const proto = forwarded ? forwardedParam(last, 'proto') : last;
  return proto.trim().replace(/^"(.*)"$/, '$1').toLowerCase() === 'https';
}
