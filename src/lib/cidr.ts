/**
 * Address ranges turned into CIDR prefixes: the fewest aligned blocks that cover a range
 * exactly, in address order (the ASN data lists ranges, a network's page lists prefixes).
 * At each step the block is the largest one that starts at the current address (its
 * alignment) and still fits in what is left of the range. IPv4 on plain numbers, IPv6 on
 * BigInt. Checked against cidr-tools' merge in cidr.test.ts.
 */

const V4_SPACE = 2 ** 32;

/** The size of the largest block aligned at `first` (0 is aligned to the whole space). */
const alignment4 = (first: number): number => (first === 0 ? V4_SPACE : (first & -first) >>> 0);

/**
 * Calls `visit(base, bits)` for each prefix covering the IPv4 range [first, last]
 * (unsigned 32-bit, inclusive), in order; nothing when `first > last`. Returns the count.
 */
export function forEachCidr4(first: number, last: number, visit?: (base: number, bits: number) => void): number {
  let count = 0;
  let at = first;
  while (at <= last) {
    let size = alignment4(at);
    while (size > last - at + 1) size /= 2;
    visit?.(at, 32 - Math.log2(size));
    count++;
    at += size;
  }
  return count;
}

const V6_SPACE = 1n << 128n;

/**
 * Calls `visit(base, bits)` for each prefix covering the IPv6 range [first, last]
 * (inclusive), in order; nothing when `first > last`. Returns the count.
 */
export function forEachCidr6(first: bigint, last: bigint, visit?: (base: bigint, bits: number) => void): number {
  let count = 0;
  let at = first;
  while (at <= last) {
    let size = at === 0n ? V6_SPACE : at & -at;
    let bits = 128 - bitLength(size) + 1;
    const left = last - at + 1n;
    while (size > left) {
      size >>= 1n;
      bits++;
    }
    visit?.(at, bits);
    count++;
    at += size;
  }
  return count;
}

/** The number of binary digits of a positive value. */
function bitLength(value: bigint): number {
  let length = 0;
  for (let v = value; v > 0n; v >>= 32n) length += 32;
  const top = Number(value >> BigInt(length - 32));
  return length - Math.clz32(top);
}
