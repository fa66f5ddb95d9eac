/**
 * Who counts as one client wherever the server counts clients (the rate limit, the port
 * check's checks in flight, the DNS leak test's live tokens, the UDP responders' and the TCP
 * listeners' per-source budgets): an IPv4 address, or an IPv6 /64, since one host or home
 * usually owns a whole /64 and can pick any address in it. Above a /64, the rate limit also
 * counts its /48, the network a site is usually given.
 */
import { formatIp, type ParsedIp } from './ip-address.ts';

/** Hex digits of an IPv6 /48 network's key: the first 12 of its /64's `clientKey`. */
export const V6_NETWORK_KEY_LENGTH = 12;

/**
 * A client's key: the IPv4 address as canonical text (`203.0.113.9`, also for
 * `::ffff:203.0.113.9`), or the IPv6 /64 as its 16 hex digits (`20010db8000000a0`). The two
 * never meet: an IPv4 key has dots.
 */
export function clientKey(ip: ParsedIp): string {
  return ip.version === 4 ? formatIp(ip) : (ip.value >> 64n).toString(16).padStart(16, '0');
}

/** The key of an IPv6 client's /48 network, from its `clientKey` (`20010db80000`). */
export const networkKey = (v6ClientKey: string): string => v6ClientKey.slice(0, V6_NETWORK_KEY_LENGTH);
