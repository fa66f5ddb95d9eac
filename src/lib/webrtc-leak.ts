/**
 * The WebRTC rule: what each public address the browser's ICE probe gathered means,
 * against the address the page was loaded through.
 *
 * | candidate address                                   | kind           | a leak? |
 * |-----------------------------------------------------|----------------|---------|
 * | the page's own address (any spelling)               | not listed     | no      |
 * | private, loopback, link-local, CGNAT, mDNS name     | not listed     | no      |
 * | other family, same network (same ASN or same org)   | `other-family` | no: the visitor's other address |
 * | same family, same network, another address          | `same-network` | no: e.g. an IPv6 privacy address |
 * | a different network, either family                  | `leak`         | yes     |
 * | a network we cannot name (no ASN data for either)   | `leak`         | yes: nothing shows it is the visitor's own network |
 *
 * A dual-stack visitor who loads the page over IPv6 and whose STUN answer comes over IPv4
 * (or the reverse) sees their other address, not a leak; a VPN that tunnels IPv4 only and
 * lets native IPv6 out is still caught, because that IPv6 address belongs to another
 * network than the VPN's. Which network an address belongs to needs the ASN data, which
 * lives on the server: the engine classifies (src/server/lookup/engine.ts) and the API
 * returns the result, so the browser only shows it.
 */
import { formatIp, normalizeIp, parseIp, reservedKind, type ParsedIp } from './ip-address.ts';
import type { WebrtcAddress } from './record.ts';

/** The network an address belongs to, from the ASN data. */
export interface Network {
  asn: number;
  org: string;
}

/** Looks a public address up in the ASN data; null when no range holds it. */
export type NetworkOf = (ip: ParsedIp) => Network | null;

/**
 * The address in a candidate: a bare address, `[v6]`, or a full ICE candidate line
 * (`candidate:1 1 udp 2122260223 203.0.113.7 54321 typ srflx ...`, address in field 5).
 */
function candidateAddress(candidate: string): string {
  const text = candidate.trim();
  if (/^(a=)?candidate:/i.test(text)) return text.split(/\s+/)[4] ?? '';
  return text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
}

/** Organisation names compared without case, punctuation or spacing ('Comcast Cable, LLC' = 'COMCAST CABLE LLC'). */
const orgKey = (org: string): string => org.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/** Same ASN, or the same organisation under two ASNs (providers often announce IPv6 from another one). */
export function sameNetwork(a: Network | null, b: Network | null): boolean {
  if (!a || !b) return false;
  if (a.asn === b.asn) return true;
  const key = orgKey(a.org);
  return key !== '' && key === orgKey(b.org);
}

/**
 * Classifies the public candidates against `pageIp` (the address the server saw), each
 * address once, in the order first seen. `networkOf` answers from the ASN data.
 */
export function classifyWebrtc(candidates: readonly string[], pageIp: string, networkOf: NetworkOf): WebrtcAddress[] {
  const page = parseIp(pageIp);
  const pageText = normalizeIp(pageIp);
  const pageNetwork = page && !reservedKind(page) ? networkOf(page) : null;
  const out: WebrtcAddress[] = [];
  for (const candidate of candidates) {
    const parsed = parseIp(candidateAddress(candidate));
    if (!parsed || reservedKind(parsed)) continue;
    const ip = formatIp(parsed);
    if (ip === pageText || out.some((a) => a.ip === ip)) continue;
    const same = sameNetwork(pageNetwork, networkOf(parsed));
    const kind = !same ? 'leak' : parsed.version !== page?.version ? 'other-family' : 'same-network';
    out.push({ ip, ip_version: parsed.version === 4 ? 'ipv4' : 'ipv6', kind });
  }
  return out;
}

/** The addresses that count as a leak: the only ones the VPN score takes in. */
export function webrtcLeaks(addresses: readonly WebrtcAddress[]): string[] {
  return addresses.filter((a) => a.kind === 'leak').map((a) => a.ip);
}
