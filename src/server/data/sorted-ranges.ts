/**
 * The search shared by every sorted-range index (the ASN index, the privacy lists):
 * ranges sorted by their first address, IPv4 as one unsigned 32-bit word per row, IPv6
 * as four words per row, high word first. A bucket table per first 16 bits narrows the
 * bisection to one bucket's rows. Tests: asn-index.test.ts and range-list.test.ts.
 */

/**
 * Ranges sorted by first address, IPv4 rows then IPv6 rows, searchable by address: the
 * shape the ASN index and the privacy lists share. Row numbers run across both families
 * (IPv6 rows come after the v4Count IPv4 rows), so a subclass can keep one array of
 * per-row data.
 */
export class SortedRanges {
  protected readonly start4: Uint32Array;
  protected readonly end4: Uint32Array;
  /** Four words per IPv6 row, high word first. */
  protected readonly start6: Uint32Array;
  protected readonly end6: Uint32Array;
  /**
   * Per first 16 bits of an address, the first row starting at or after that /16 (IPv4)
   * or that first group (IPv6): bisection then covers only the rows of one bucket.
   */
  private readonly bucket4: Uint32Array;
  private readonly bucket6: Uint32Array;

  constructor(start4: Uint32Array, end4: Uint32Array, start6: Uint32Array, end6: Uint32Array) {
    this.start4 = start4;
    this.end4 = end4;
    this.start6 = start6;
    this.end6 = end6;
    this.bucket4 = buckets(start4, 1);
    this.bucket6 = buckets(start6, 4);
  }

  get v4Count(): number { return this.start4.length; }
  get v6Count(): number { return this.start6.length / 4; }

  /** The first and last address of IPv4 row `row` (unsigned 32-bit). */
  first4(row: number): number { return this.start4[row]!; }
  last4(row: number): number { return this.end4[row]!; }

  /** The first and last address of an IPv6 row (numbered after the IPv4 rows, as find6 answers). */
  first6(row: number): bigint { return fromWords(this.start6, row - this.v4Count); }
  last6(row: number): bigint { return fromWords(this.end6, row - this.v4Count); }

  /**
   * How many addresses of the IPv4 range [first, last] the rows hold. Rows must not overlap
   * (a RangeList's are merged), or shared addresses count twice.
   */
  covered4(first: number, last: number): number {
    const starts = this.start4;
    let sum = 0;
    for (let row = Math.max(0, lastStarting4(starts, this.bucket4, first)); row < starts.length && starts[row]! <= last; row++) {
      const lo = Math.max(starts[row]!, first);
      const hi = Math.min(this.end4[row]!, last);
      if (hi >= lo) sum += hi - lo + 1;
    }
    return sum;
  }

  /**
   * As covered4 for the IPv6 range whose first and last addresses are the four words at
   * `from` and `from + 4` of `bounds`, counted in /48s (a part of one as its fraction).
   */
  covered6(bounds: Uint32Array, from: number): number {
    const first = bounds.subarray(from, from + 4);
    const lastWords = bounds.subarray(from + 4, from + 8);
    const low = fromWords(first, 0);
    const high = fromWords(lastWords, 0);
    let sum = 0;
    for (let row = Math.max(0, lastStarting6(this.start6, this.bucket6, first)); row < this.v6Count && compare6(this.start6, row, lastWords) <= 0; row++) {
      const start = fromWords(this.start6, row);
      const end = fromWords(this.end6, row);
      const lo = start > low ? start : low;
      const hi = end < high ? end : high;
      if (hi >= lo) sum += Number(hi - lo + 1n) / SLASH_48;
    }
    return sum;
  }

  /** Row of the range holding an IPv4 address (unsigned 32-bit), or -1. */
  find4(address: number): number {
    return findRange4(this.start4, this.end4, this.bucket4, address);
  }

  /** Row of the range holding an IPv6 address (four words, high first), or -1. */
  find6(words: Uint32Array): number {
    const found = findRange6(this.start6, this.end6, this.bucket6, words);
    return found < 0 ? -1 : this.v4Count + found;
  }
}

/** bucket[p] = the first row whose start's top 16 bits are p or more; bucket[65536] = rows. */
export function buckets(starts: Uint32Array, stride: number): Uint32Array {
  const rows = starts.length / stride;
  const bucket = new Uint32Array((1 << 16) + 1);
  let row = 0;
  for (let p = 0; p <= 1 << 16; p++) {
    while (row < rows && starts[row * stride]! >>> 16 < p) row++;
    bucket[p] = row;
  }
  return bucket;
}

/** Compares the IPv6 row's four words with an address: negative, zero or positive. */
export function compare6(words: Uint32Array, row: number, address: Uint32Array): number {
  const o = row * 4;
  for (let i = 0; i < 4; i++) {
    const d = words[o + i]! - address[i]!;
    if (d !== 0) return d;
  }
  return 0;
}

/** The last IPv4 row starting at or before `address`, or -1: in the address's bucket, or the last row of an earlier one. */
function lastStarting4(starts: Uint32Array, bucket: Uint32Array, address: number): number {
  const top = address >>> 16;
  let lo = bucket[top]!;
  let hi = bucket[top + 1]! - 1;
  let found = lo - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (starts[mid]! <= address) { found = mid; lo = mid + 1; } else hi = mid - 1;
  }
  return found;
}

/** The last IPv6 row starting at or before `words`, or -1. */
function lastStarting6(starts: Uint32Array, bucket: Uint32Array, words: Uint32Array): number {
  const top = words[0]! >>> 16;
  let lo = bucket[top]!;
  let hi = bucket[top + 1]! - 1;
  let found = lo - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (compare6(starts, mid, words) <= 0) { found = mid; lo = mid + 1; } else hi = mid - 1;
  }
  return found;
}

/** The row of the IPv4 range holding `address` (unsigned 32-bit), or -1. */
export function findRange4(starts: Uint32Array, ends: Uint32Array, bucket: Uint32Array, address: number): number {
  const found = lastStarting4(starts, bucket, address);
  return found >= 0 && ends[found]! >= address ? found : -1;
}

/** The row of the IPv6 range holding `words` (four words, high first), or -1. */
export function findRange6(starts: Uint32Array, ends: Uint32Array, bucket: Uint32Array, words: Uint32Array): number {
  const found = lastStarting6(starts, bucket, words);
  return found >= 0 && compare6(ends, found, words) >= 0 ? found : -1;
}

const MASK32 = 0xffffffffn;
/** Addresses in a /48. */
const SLASH_48 = 2 ** 80;

/** Writes a 128-bit value as the row's four words, high first. */
export function writeWords(target: Uint32Array, row: number, value: bigint): void {
  for (let i = 3; i >= 0; i--) {
    target[row * 4 + i] = Number(value & MASK32);
    value >>= 32n;
  }
}

/** The 128-bit value of a row's four words, high first. */
export function fromWords(words: Uint32Array, row: number): bigint {
  const o = row * 4;
  return (BigInt(words[o]!) << 96n) | (BigInt(words[o + 1]!) << 64n) | (BigInt(words[o + 2]!) << 32n) | BigInt(words[o + 3]!);
}

/** An IPv6 address's four words, high first, into `out`. */
export function toWords(value: bigint, out: Uint32Array): Uint32Array {
  out[0] = Number(value >> 96n);
  out[1] = Number(BigInt.asUintN(32, value >> 64n));
  out[2] = Number(BigInt.asUintN(32, value >> 32n));
  out[3] = Number(BigInt.asUintN(32, value));
  return out;
}

/** Calls back with each non-empty line of a text file, without its LF or CRLF. */
export function forEachLine(csv: string, visit: (line: string) => void): void {
  let at = 0;
  while (at < csv.length) {
    let eol = csv.indexOf('\n', at);
    if (eol === -1) eol = csv.length;
    const line = csv.slice(at, csv.charCodeAt(eol - 1) === 13 ? eol - 1 : eol);
    at = eol + 1;
    if (line !== '') visit(line);
  }
}
