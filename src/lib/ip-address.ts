/**
 * IP address parsing shared by server and browser: canonical text, IPv4/IPv6 family,
 * CIDR matching and the special-purpose ranges (IANA registries) that are answered
 * without a database lookup. No Node built-ins, so islands can use it too.
 */

/** A parsed address: IPv4 as a 32-bit number, IPv6 as a 128-bit bigint. */
export type ParsedIp = { version: 4; value: number } | { version: 6; value: bigint };

/** Parses dotted-quad IPv4 (no leading zeros, no shorthand). */
export function parseIPv4(text: string): number | undefined {
  // A character scan, not split + regex: this runs on every request.
  let value = 0;
  let part = 0;
  let digits = 0;
  let dots = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 46) {
      if (digits === 0 || ++dots > 3) return undefined;
      value = value * 256 + part;
      part = 0;
      digits = 0;
    } else if (c >= 48 && c <= 57) {
      if (digits > 0 && part === 0) return undefined; // leading zero
      part = part * 10 + (c - 48);
      if (part > 255) return undefined;
      digits++;
    } else return undefined;
  }
  return dots === 3 && digits > 0 ? value * 256 + part : undefined;
}

const COLON = 58;
const DOT = 46;
// Scratch for parseIPv6 (synchronous, so one is enough).
const GROUPS = new Uint16Array(8);

function hexDigit(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  const lower = c | 32;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
}

/**
 * Parses IPv6 text, including `::` compression, an embedded IPv4 tail (only as the last
 * 32 bits) and a `%zone` (dropped). A character scan: this runs on every request.
 */
export function parseIPv6(input: string): bigint | undefined {
  const zone = input.indexOf('%');
  const end = zone === -1 ? input.length : zone;
  if (end < 2 || end > 45) return undefined;
  let count = 0;
  let gap = -1;
  let i = 0;
  if (input.charCodeAt(0) === COLON) {
    if (input.charCodeAt(1) !== COLON) return undefined;
    gap = 0;
    i = 2;
  }
  while (i < end) {
    const start = i;
    let group = 0;
    for (let digit; i < end && (digit = hexDigit(input.charCodeAt(i))) >= 0; i++) group = group * 16 + digit;
    if (i < end && input.charCodeAt(i) === DOT) {
      const v4 = count <= 6 ? parseIPv4(input.slice(start, end)) : undefined;
      if (v4 === undefined) return undefined;
      GROUPS[count++] = v4 >>> 16;
      GROUPS[count++] = v4 & 0xffff;
      break;
    }
    if (i === start || i - start > 4 || count === 8) return undefined;
    GROUPS[count++] = group;
    if (i === end) break;
    if (input.charCodeAt(i++) !== COLON || i === end) return undefined;
    if (input.charCodeAt(i) === COLON) {
      if (gap !== -1) return undefined;
      gap = count;
      i++;
    }
  }
  if (gap === -1 ? count !== 8 : count > 7) return undefined;
  const zeros = 8 - count;
  const at = (k: number) => (gap === -1 || k < gap ? GROUPS[k]! : k < gap + zeros ? 0 : GROUPS[k - zeros]!);
  const word = (k: number) => BigInt(((at(k) << 16) | at(k + 1)) >>> 0);
  return (word(0) << 96n) | (word(2) << 64n) | (word(4) << 32n) | word(6);
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
  for (const shift of [96n, 64n, 32n, 0n]) {
    const word = Number(BigInt.asUintN(32, ip.value >> shift));
    groups.push(word >>> 16, word & 0xffff);
  }
  let bestStart = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) { i++; continue; }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) { bestStart = i; bestLen = j - i; }
    i = j;
  }
  let text = '';
  for (let i = 0; i < 8; i++) {
    if (i === bestStart) {
      text += '::';
      i += bestLen - 1;
    } else text += i === 0 || i === bestStart + bestLen ? groups[i]!.toString(16) : `:${groups[i]!.toString(16)}`;
  }
  return text;
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
  const shift = BigInt(128 - cidr.bits);
  return BigInt(ip.value) >> shift === cidr.base >> shift;
}

/** What a special-purpose address is, in words a visitor understands. */
export type ReservedKind =
  | 'Private network' | 'Loopback' | 'Link-local' | 'Carrier-grade NAT' | 'Documentation'
  | 'Multicast' | 'Unspecified' | 'Broadcast' | 'Benchmarking' | 'Reserved';

/**
 * The special-purpose ranges and what each is, from the IANA IPv4 and IPv6 Special-Purpose
 * Address Registries (RFC 6890 and updates). Where ranges overlap the first listed wins
 * (`::` is Unspecified before it is in `::/8`; 255.255.255.255 is Broadcast, not in 240/4).
 */
export const RESERVED_RANGES: ReadonlyArray<readonly [cidr: string, kind: ReservedKind]> = [
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
const RESERVED_CIDRS = RESERVED_RANGES.map(([cidr, kind]) => [parseCidr(cidr)!, kind] as const);
// Checked on every lookup, so without BigInt work where possible: IPv4 ranges as a
// number base and mask; IPv6 ranges with the span of first 16-bit groups they cover,
// so most public addresses are ruled out by one comparison per range.
const RESERVED_V4 = RESERVED_CIDRS.filter(([cidr]) => cidr.version === 4).map(([cidr, kind]) =>
  [cidr.base4!, cidr.mask4!, kind] as const);
const RESERVED_V6 = RESERVED_CIDRS.filter(([cidr]) => cidr.version === 6).map(([cidr, kind]) => {
  const first = Number(cidr.base >> 112n);
  return [cidr, first, cidr.bits >= 16 ? first : first | ((1 << (16 - cidr.bits)) - 1), kind] as const;
});

/** NAT64's well-known prefix (RFC 6052): an IPv6 address whose last 32 bits are an IPv4 address. */
const NAT64_PREFIX = 0x64ff9bn << 96n;

/**
 * The IPv4 address a NAT64 address (`64:ff9b::/96`, e.g. `64:ff9b::8.8.8.8`) stands for, or
 * undefined for any other address. An IPv6-only client reaches IPv4 hosts through it, so the
 * place and network are the IPv4 address's.
 */
export function nat64Embedded(ip: ParsedIp): ParsedIp | undefined {
  if (ip.version !== 6 || ip.value >> 32n !== NAT64_PREFIX >> 32n) return undefined;
  return { version: 4, value: Number(BigInt.asUintN(32, ip.value)) };
}

/**
 * The special-purpose range an address belongs to, or undefined for a public address.
 * A NAT64 address is what the IPv4 address it carries is.
 */
export function reservedKind(ip: ParsedIp): ReservedKind | undefined {
  if (ip.version === 4) {
    for (const [base, mask, kind] of RESERVED_V4) if (((ip.value & mask) >>> 0) === base) return kind;
    return undefined;
  }
  const first = Number(ip.value >> 112n);
  if (first === 0x64) {
    const embedded = nat64Embedded(ip);
    if (embedded) return reservedKind(embedded);
  }
  for (const [cidr, low, high, kind] of RESERVED_V6) {
    if (first >= low && first <= high && cidrContains(cidr, ip)) return kind;
  }
  return undefined;
}

/** True for an address that is routable on the public internet. */
export function isPublicIp(text: string): boolean {
  const ip = parseIp(text);
  return ip !== undefined && reservedKind(ip) === undefined;
}
