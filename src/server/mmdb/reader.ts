/**
 * A read-only MaxMind DB (MMDB) reader tuned for the lookup hot path. mmdb-lib opens and
 * validates the file and parses its metadata; the search-tree walk is done here, and the
 * records are read by MmdbDecoder, because mmdb-lib's `Reader.get` re-parses the address
 * text and allocates a cursor object per decoded field: on the two bundled City files
 * alone it reaches fewer addresses a second than the whole lookup's budget of 150k/s
 * (bench/lookup.mjs prints both; docs/benchmarks.md, "Load and build times"). Here the
 * first 16 levels of every walk come from a table, and records are read field by field
 * into the caller's object.
 * Format: https://maxmind.github.io/MaxMind-DB/
 */
import { Reader } from 'mmdb-lib';
import { MmdbDecoder } from './decoder.ts';

/** Where in the file a found record starts, or NOT_FOUND. */
export const NOT_FOUND = -1;
const DATA_SECTION_SEPARATOR = 16;

export class MmdbReader {
  /** From the file's metadata: 'GeoIP2-City', 'city ipv4'... */
  readonly databaseType: string;
  /** 4 or 6: the tree holds IPv4 only, or both (IPv4 under ::/96). */
  readonly ipVersion: number;
  /** Reads the records that find4/find6 point to. */
  readonly data: MmdbDecoder;
  private readonly buf: Buffer;
  private readonly view: DataView;
  private readonly nodeCount: number;
  private readonly recordSize: number;
  private readonly nodeBytes: number;
  private readonly dataStart: number;
  /** Where the walk stands after an address's first 16 bits, per 16-bit prefix. */
  private readonly jump4: Uint32Array;
  private readonly jump6: Uint32Array | undefined;

  /** Throws when the buffer is not a MaxMind DB. */
  constructor(buf: Buffer) {
    const { metadata } = new Reader(buf);
    this.buf = buf;
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    this.databaseType = metadata.databaseType;
    this.ipVersion = metadata.ipVersion;
    this.nodeCount = metadata.nodeCount;
    this.recordSize = metadata.recordSize;
    this.nodeBytes = metadata.nodeByteSize;
    this.dataStart = metadata.searchTreeSize + DATA_SECTION_SEPARATOR;
    this.data = new MmdbDecoder(buf, this.dataStart);
    // In an IPv6 tree, IPv4 addresses live under ::/96: follow 96 left branches once.
    let ipv4Root = 0;
    if (this.ipVersion === 6) for (let i = 0; i < 96 && ipv4Root < this.nodeCount; i++) ipv4Root = this.child(ipv4Root, 0);
    this.jump4 = this.jumpTable(ipv4Root);
    this.jump6 = this.ipVersion === 6 ? this.jumpTable(0) : undefined;
  }

  /** The first 16 levels of the walk, done once for every prefix (65,536 entries, 256 KiB; its time: docs/benchmarks.md). */
  private jumpTable(root: number): Uint32Array {
    const table = new Uint32Array(1 << 16);
    for (let prefix = 0; prefix < table.length; prefix++) {
      let node = root;
      for (let i = 15; i >= 0 && node < this.nodeCount; i--) node = this.child(node, (prefix >>> i) & 1);
      table[prefix] = node;
    }
    return table;
  }

  private child(node: number, bit: number): number {
    const b = this.buf;
    const o = node * this.nodeBytes;
    switch (this.recordSize) {
      case 24:
        return bit === 0 ? (b[o]! << 16) | (b[o + 1]! << 8) | b[o + 2]! : (b[o + 3]! << 16) | (b[o + 4]! << 8) | b[o + 5]!;
      case 28:
        return bit === 0
          ? ((b[o + 3]! & 0xf0) << 20) | (b[o]! << 16) | (b[o + 1]! << 8) | b[o + 2]!
          : ((b[o + 3]! & 0x0f) << 24) | (b[o + 4]! << 16) | (b[o + 5]! << 8) | b[o + 6]!;
      default:
        return this.view.getUint32(bit === 0 ? o : o + 4);
    }
  }

  private resolve(node: number): number {
    return node > this.nodeCount ? node - this.nodeCount - DATA_SECTION_SEPARATOR + this.dataStart : NOT_FOUND;
  }

  /** Data offset of the record for an IPv4 address given as an unsigned 32-bit number. */
  find4(address: number): number {
    let node = this.jump4[address >>> 16]!;
    for (let i = 15; i >= 0 && node < this.nodeCount; i--) node = this.child(node, (address >>> i) & 1);
    return this.resolve(node);
  }

  /**
   * Visits, in address order, each record that holds part of the IPv4 range [first, last]
   * (unsigned 32-bit, inclusive) with how many of the range's addresses it holds; NOT_FOUND
   * stands for addresses no network of the file holds. A record may be visited more than
   * once (once per /16 its network spans). What a network's page sums its places from.
   */
  forEachRecord4(first: number, last: number, visit: (offset: number, addresses: number) => void): void {
    for (let prefix = first >>> 16; prefix <= last >>> 16; prefix++) {
      this.walk4(this.jump4[prefix]!, 16, prefix * 65536, first, last, visit);
    }
  }

  private walk4(node: number, depth: number, base: number, first: number, last: number, visit: (offset: number, addresses: number) => void): void {
    const end = base + 2 ** (32 - depth) - 1;
    if (end < first || base > last) return;
    if (node >= this.nodeCount) {
      visit(this.resolve(node), Math.min(end, last) - Math.max(base, first) + 1);
      return;
    }
    const half = 2 ** (31 - depth);
    this.walk4(this.child(node, 0), depth + 1, base, first, last, visit);
    this.walk4(this.child(node, 1), depth + 1, base + half, first, last, visit);
  }

  /**
   * As forEachRecord4 for the IPv6 range [first, last], counted in blocks of `unitBits`
   * (48: /48s; a part of a block counts as its fraction). Within one such block only its
   * first record is read: a block is one site, and this stays a walk of the tree's upper
   * levels, not of every host route under them.
   */
  forEachRecord6(first: bigint, last: bigint, unitBits: number, visit: (offset: number, units: number) => void): void {
    if (!this.jump6) return;
    const unitShift = BigInt(128 - unitBits);
    for (let prefix = Number(first >> 112n); prefix <= Number(last >> 112n); prefix++) {
      this.walk6(this.jump6[prefix]!, 16, BigInt(prefix) << 112n, first, last, unitBits, unitShift, visit);
    }
  }

  private walk6(node: number, depth: number, base: bigint, first: bigint, last: bigint, unitBits: number, unitShift: bigint,
    visit: (offset: number, units: number) => void): void {
    const end = base + (1n << BigInt(128 - depth)) - 1n;
    if (end < first || base > last) return;
    if (node >= this.nodeCount || depth >= unitBits) {
      while (node < this.nodeCount) node = this.child(node, 0);
      const from = base > first ? base : first;
      const to = end < last ? end : last;
      const span = to - from + 1n;
      // Whole blocks as an exact count; what is left (less than one block) as its fraction.
      visit(this.resolve(node), Number(span >> unitShift) + Number(span & ((1n << unitShift) - 1n)) / 2 ** (128 - unitBits));
      return;
    }
    this.walk6(this.child(node, 0), depth + 1, base, first, last, unitBits, unitShift, visit);
    this.walk6(this.child(node, 1), depth + 1, base + (1n << BigInt(127 - depth)), first, last, unitBits, unitShift, visit);
  }

  /** Data offset of the record for an IPv6 address given as four 32-bit words, high first. */
  find6(words: Uint32Array): number {
    if (!this.jump6) return NOT_FOUND;
    let node = this.jump6[words[0]! >>> 16]!;
    for (let i = 16; i < 128 && node < this.nodeCount; i++) node = this.child(node, (words[i >> 5]! >>> (31 - (i & 31))) & 1);
    return this.resolve(node);
  }
}
