/**
 * IP address parsing shared by server and browser: canonical text, IPv4/IPv6 family,
 * CIDR matching and the special-purpose ranges (IANA registries) that are answered
 * without a database lookup. No Node built-ins, so islands can use it too.
 */

/** A parsed address: IPv4 as a 32-bit number, IPv6 as a 128-bit bigint. */
export type ParsedIp = { version: 4; value: number } | { version: 6; value: bigint };

const IPV4_PART = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** Parses dotted-quad IPv4 (no leading zeros, no shorthand). */
export function parseIPv4(text: string): number | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0;
  for (const part of parts) {
    if (!IPV4_PART.test(part)) return undefined;
    value = value * 256 + Number(part);
  }
  return value;
}

/** Parses IPv6 text, including `::` compression, an embedded IPv4 tail and a `%zone` (dropped). */
export function parseIPv6(input: string): bigint | undefined {
  let text = input;
  const zone = text.indexOf('%');
  if (zone !== -1) text = text.slice(0, zone);
  if (text.length < 2 || text.length > 45 || !/^[0-9a-fA-F:.]+$/.test(text)) return undefined;
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const toGroups = (part: string): number[] | undefined => {
    if (part === '') return [];
    const groups: number[] = [];
    const pieces = part.split(':');
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i]!;
      if (i === pieces.length - 1 && piece.includes('.')) {
        const v4 = parseIPv4(piece);
        if (v4 === undefined) return undefined;
        groups.push(v4 >>> 16, v4 & 0xffff);
      } else {
        if (!/^[0-9a-fA-F]{1,4}$/.test(piece)) return undefined;
        groups.push(parseInt(piece, 16));
      }
    }
    return groups;
  };
  const head = toGroups(halves[0]!);
  const tail = halves.length === 2 ? toGroups(halves[1]!) : [];
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const groups = [...head, ...new Array<number>(missing).fill(0), ...tail];
  let value = 0n;
  for (const g of groups) value = (value << 16n) | BigInt(g);
  return value;
}

const V4_MAPPED_PREFIX = 0xffffn << 32n;

/** Parses either family; an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) becomes IPv4. */
export function parseIp(text: string): ParsedIp | undefined {
  const trimmed = text.trim();
  if (trimmed.includes(':')) {
    const value = parseIPv6(trimmed);
    if (value === undefined) return undefined;
    if (value >> 32n === 0xffffn) return { version: 4, value: Number(value - V4_MAPPED_PREFIX) };
    return { version: 6, value };
  }
  const value = parseIPv4(trimmed);
  return value === undefined ? undefined : { version: 4, value };
}

/** Canonical text: dotted quad, or RFC 5952 IPv6 (lower case, longest zero run compressed). */
export function formatIp(ip: ParsedIp): string {
  if (ip.version === 4) {
    const v = ip.value;
    return `${v >>> 24}.${(v >>> 16) & 255}.${(v >>> 8) & 255}.${v & 255}`;
  }
  const groups: number[] = [];
  for (let i = 7; i >= 0; i--) groups.push(Number((ip.value >> BigInt(i * 16)) & 0xffffn));
  let bestStart = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) { i++; continue; }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) { bestStart = i; bestLen = j - i; }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart === -1) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLen).join(':')}`;
}

/** Normalises any accepted spelling to canonical text, or undefined when it is not an address. */
export function normalizeIp(text: string): string | undefined {
  const parsed = parseIp(text);
  return parsed && formatIp(parsed);
}

/** A CIDR block, e.g. `10.0.0.0/8` or `2001:db8::/32`. */
export interface Cidr {
  version: 4 | 6;
  base: bigint;
  bits: number;
  /** IPv4 only: network and mask as unsigned 32-bit numbers, so matching needs no BigInt. */
  base4?: number;
  mask4?: number;
}

/** Parses `addr/len` (or a bare address, as a /32 or /128). */
export function parseCidr(text: string): Cidr | undefined {
  const [addr = '', len, extra] = text.trim().split('/');
  if (extra !== undefined) return undefined;
  const ip = parseIp(addr);
  if (!ip) return undefined;
  const max = ip.version === 4 ? 32 : 128;
  const bits = len === undefined ? max : /^\d{1,3}$/.test(len) ? Number(len) : NaN;
  if (!(bits >= 0 && bits <= max)) return undefined;
  const value = BigInt(ip.value);
  const shift = BigInt(max - bits);
  const base = (value >> shift) << shift;
  if (ip.version === 6) return { version: 6, base, bits };
  const mask4 = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return { version: 4, base, bits, base4: Number(base), mask4 };
}

/** Whether `ip` lies inside `cidr`. */
export function cidrContains(cidr: Cidr, ip: ParsedIp): boolean {
  if (cidr.version !== ip.version) return false;
  if (ip.version === 4) return ((ip.value & cidr.mask4!) >>> 0) === cidr.base4;
  const shift = BigInt((ip.version === 4 ? 32 : 128) - cidr.bits);
  return BigInt(ip.value) >> shift === cidr.base >> shift;
}

/** What a special-purpose address is, in words a visitor understands. */
export type ReservedKind =
  | 'Private network' | 'Loopback' | 'Link-local' | 'Carrier-grade NAT' | 'Documentation'
  | 'Multicast' | 'Unspecified' | 'Broadcast' | 'Benchmarking' | 'Reserved';

// From the IANA IPv4 and IPv6 Special-Purpose Address Registries (RFC 6890 and updates).
const RESERVED: ReadonlyArray<readonly [string, ReservedKind]> = [
  ['0.0.0.0/8', 'Unspecified'],
  ['10.0.0.0/8', 'Private network'],
  ['100.64.0.0/10', 'Carrier-grade NAT'],
  ['127.0.0.0/8', 'Loopback'],
  ['169.254.0.0/16', 'Link-local'],
  ['172.16.0.0/12', 'Private network'],
  ['192.0.0.0/24', 'Reserved'],
  ['192.0.2.0/24', 'Documentation'],
  ['192.88.99.0/24', 'Reserved'],
  ['192.168.0.0/16', 'Private network'],
  ['198.18.0.0/15', 'Benchmarking'],
  ['198.51.100.0/24', 'Documentation'],
  ['203.0.113.0/24', 'Documentation'],
  ['224.0.0.0/4', 'Multicast'],
  ['255.255.255.255/32', 'Broadcast'],
  ['240.0.0.0/4', 'Reserved'],
  ['::/128', 'Unspecified'],
  ['::1/128', 'Loopback'],
  ['64:ff9b:1::/48', 'Reserved'],
  ['100::/64', 'Reserved'],
  ['2001::/23', 'Reserved'],
  ['2001:db8::/32', 'Documentation'],
  ['3fff::/20', 'Documentation'],
  ['fc00::/7', 'Private network'],
  ['fe80::/10', 'Link-local'],
  ['ff00::/8', 'Multicast'],
  ['::/8', 'Reserved'],
];
const RESERVED_CIDRS = RESERVED.map(([cidr, kind]) => [parseCidr(cidr)!, kind] as const);

/** The special-purpose range an address belongs to, or undefined for a public address. */
export function reservedKind(ip: ParsedIp): ReservedKind | undefined {
  for (const [cidr, kind] of RESERVED_CIDRS) if (cidrContains(cidr, ip)) return kind;
  return undefined;
}

/** True for an address that is routable on the public internet. */
export function isPublicIp(text: string): boolean {
  const ip = parseIp(text);
  return ip !== undefined && reservedKind(ip) === undefined;
}
