/**
 * The DNS_RESOLVERS setting: comma-separated `host:port` (IPv6 as `[addr]:port`), each an
 * address node's resolver can ask directly (a name would need a resolver of its own).
 */
import { isIP } from 'node:net';

/** The resolvers named in `raw`, as node's `Resolver.setServers` takes them; throws a one-line Error for a bad entry. */
export function parseResolvers(raw: string | undefined): string[] {
  if (!raw?.trim()) return [];
  return raw.split(',').map((entry) => entry.trim()).map((entry) => {
    if (isIP(entry) === 6) return `[${entry}]:53`;
    const m = /^(?:\[([^\]]+)\]|([^:]+))(?::(\d{1,5}))?$/.exec(entry);
    const host = m?.[1] ?? m?.[2] ?? '';
    const port = m?.[3] === undefined ? 53 : Number(m[3]);
    if (!m || isIP(host) === 0 || (m[1] !== undefined && isIP(host) !== 6) || port < 1 || port > 65535) {
      throw new Error(`DNS_RESOLVERS entry "${entry}" must be an address with an optional port: 127.0.0.1:53 or [::1]:53`);
    }
    return isIP(host) === 6 ? `[${host}]:${port}` : `${host}:${port}`;
  });
}
