/**
 * A read-only MaxMind DB (MMDB) reader tuned for the lookup hot path. mmdb-lib opens and
 * validates the file and parses its metadata; the search-tree walk and the data decoding
 * are done here, because mmdb-lib's `Reader.get` re-parses the address text and allocates
 * a cursor object per decoded field: on the bundled City files it managed about 65k
 * lookups/s for two databases, this reader about four times that (see bench/lookup.mjs).
 * Format: https://maxmind.github.io/MaxMind-DB/
 */
import { Reader } from 'mmdb-lib';

/** Where in the file a found record starts, or NOT_FOUND. */
export const NOT_FOUND = -1;
const DATA_SECTION_SEPARATOR = 16;
const POINTER_BASE = [0, 2048, 526336, 0];
/**
 * Strings reached through pointers (map keys, shared city and region names) are decoded
 * once and kept in a direct-mapped cache: a slot per (offset mod size), last writer wins.
 */
const STRING_CACHE_SLOTS = 1 << 16;
/** Short strings stored inline (country codes) are shared by content instead. */
const SHORT_STRING_BYTES = 3;
const SHORT_STRINGS_MAX = 4096;

/** The value a float32 field was written as: its shortest decimal (37.422, not 37.42200088500977). */
export function shortestFloat32(value: number): number {
  let scale = 1;
  for (let digits = 0; digits < 9; digits++, scale *= 10) {
    const candidate = Math.round(value * scale) / scale;
    if (Math.fround(candidate) === value) return candidate;
  }
  return value;
}

/**
 * The engine's copy of a string (as property names are), so comparing a cached key with
 * a literal such as 'city', or using it as a Map key, needs no character comparison.
 */
function internalise(text: string): string {
  return Object.keys({ [text]: 0 })[0] ?? text;
}

export class MmdbReader {
  /** The file's metadata (database type, IP version, build date...). */
  readonly databaseType: string;
  readonly ipVersion: number;
  readonly buildEpoch: Date;
  private readonly buf: Buffer;
  private readonly nodeCount: number;
  private readonly recordSize: number;
  private readonly nodeBytes: number;
  private readonly dataStart: number;
  /** Where the walk stands after an address's first 16 bits, per 16-bit prefix. */
  private readonly jump4: Uint32Array;
  private readonly jump6: Uint32Array | undefined;
  private readonly cachedAt = new Int32Array(STRING_CACHE_SLOTS).fill(-1);
  private readonly cachedString: string[] = new Array<string>(STRING_CACHE_SLOTS).fill('');
  private readonly shortStrings = new Map<number, string>();
  private pos = 0;

  /** Throws when the buffer is not a MaxMind DB. */
  constructor(buf: Buffer) {
    const { metadata } = new Reader(buf);
    this.buf = buf;
    this.databaseType = metadata.databaseType;
    this.ipVersion = metadata.ipVersion;
    this.buildEpoch = metadata.buildEpoch;
    this.nodeCount = metadata.nodeCount;
    this.recordSize = metadata.recordSize;
    this.nodeBytes = metadata.nodeByteSize;
    this.dataStart = metadata.searchTreeSize + DATA_SECTION_SEPARATOR;
    // In an IPv6 tree, IPv4 addresses live under ::/96: follow 96 left branches once.
    let ipv4Root = 0;
    if (this.ipVersion === 6) for (let i = 0; i < 96 && ipv4Root < this.nodeCount; i++) ipv4Root = this.child(ipv4Root, 0);
    this.jump4 = this.jumpTable(ipv4Root);
    this.jump6 = this.ipVersion === 6 ? this.jumpTable(0) : undefined;
  }

  /** The first 16 levels of the walk, done once for every prefix (256 KiB, ~10 ms). */
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
        return b.readUInt32BE(bit === 0 ? o : o + 4);
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

  /** Data offset of the record for an IPv6 address given as four 32-bit words, high first. */
  find6(words: Uint32Array): number {
    if (!this.jump6) return NOT_FOUND;
    let node = this.jump6[words[0]! >>> 16]!;
    for (let i = 16; i < 128 && node < this.nodeCount; i++) node = this.child(node, (words[i >> 5]! >>> (31 - (i & 31))) & 1);
    return this.resolve(node);
  }

  /** Decodes the record at a data offset from find4/find6 into plain values. */
  decode(offset: number): unknown {
    this.pos = offset;
    return this.value();
  }

  /**
   * Starts reading the map at a data offset entry by entry (no object built): returns its
   * number of key/value pairs, or -1 when the record is not a map. Then call value() for
   * each key and each value, in order.
   */
  openMap(offset: number): number {
    this.pos = offset;
    const ctrl = this.buf[this.pos++]!;
    if (ctrl >> 5 !== 7) return -1;
    return this.size(ctrl);
  }

  private size(ctrl: number): number {
    const b = this.buf;
    const size = ctrl & 0x1f;
    if (size < 29) return size;
    const p = this.pos;
    if (size === 29) { this.pos += 1; return 29 + b[p]!; }
    if (size === 30) { this.pos += 2; return 285 + ((b[p]! << 8) | b[p + 1]!); }
    this.pos += 3;
    return 65821 + ((b[p]! << 16) | (b[p + 1]! << 8) | b[p + 2]!);
  }

  private pointer(ctrl: number): number {
    const b = this.buf;
    const p = this.pos;
    const kind = (ctrl >> 3) & 3;
    this.pos += kind + 1;
    const high = ctrl & 7;
    switch (kind) {
      case 0: return (high << 8) | b[p]!;
      case 1: return ((high << 16) | (b[p]! << 8) | b[p + 1]!) + POINTER_BASE[1]!;
      case 2: return ((high << 24) | (b[p]! << 16) | (b[p + 1]! << 8) | b[p + 2]!) + POINTER_BASE[2]!;
      default: return b.readUInt32BE(p);
    }
  }

  private shortString(start: number, size: number): string {
    if (size === 0) return '';
    const b = this.buf;
    const key = (((b[start]! << 16) | (size > 1 ? b[start + 1]! << 8 : 0) | (size > 2 ? b[start + 2]! : 0)) * 4) + size;
    let text = this.shortStrings.get(key);
    if (text === undefined) {
      text = internalise(b.toString('utf8', start, start + size));
      if (this.shortStrings.size >= SHORT_STRINGS_MAX) this.shortStrings.clear();
      this.shortStrings.set(key, text);
    }
    return text;
  }

  /** Decodes the next value at the read position (see openMap). */
  value(): unknown {
    const b = this.buf;
    const ctrl = b[this.pos++]!;
    let type = ctrl >> 5;
    if (type === 1) {
      const target = this.dataStart + this.pointer(ctrl);
      const slot = target & (STRING_CACHE_SLOTS - 1);
      if (this.cachedAt[slot] === target) return this.cachedString[slot];
      const back = this.pos;
      this.pos = target;
      const value = this.value();
      this.pos = back;
      if (typeof value === 'string') {
        this.cachedAt[slot] = target;
        this.cachedString[slot] = internalise(value);
      }
      return value;
    }
    if (type === 0) type = 7 + b[this.pos++]!;
    const size = this.size(ctrl);
    const start = this.pos;
    switch (type) {
      case 2: // UTF-8 string
        this.pos += size;
        return size <= SHORT_STRING_BYTES ? this.shortString(start, size) : b.toString('utf8', start, start + size);
      case 7: { // map
        const map: Record<string, unknown> = {};
        for (let i = 0; i < size; i++) {
          const key = this.value() as string;
          map[key] = this.value();
        }
        return map;
      }
      case 15: // float
        this.pos += 4;
        return shortestFloat32(b.readFloatBE(start));
      case 3: // double
        this.pos += 8;
        return b.readDoubleBE(start);
      case 5: case 6: { // uint16, uint32
        let n = 0;
        for (let i = 0; i < size; i++) n = n * 256 + b[start + i]!;
        this.pos += size;
        return n;
      }
      case 8: // int32: fewer than 4 bytes are zero-padded, so only a full one can be negative
        this.pos += size;
        return size === 4 ? b.readInt32BE(start) : size === 0 ? 0 : b.readUIntBE(start, size);
      case 9: case 10: { // uint64, uint128
        let n = 0n;
        for (let i = 0; i < size; i++) n = (n << 8n) | BigInt(b[start + i]!);
        this.pos += size;
        return n;
      }
      case 11: { // array
        const list: unknown[] = [];
        for (let i = 0; i < size; i++) list.push(this.value());
        return list;
      }
      case 14: // boolean: the size is the value
        return size !== 0;
      case 4: // bytes
        this.pos += size;
        return Uint8Array.prototype.slice.call(b, start, start + size);
      default:
        throw new Error(`MMDB: unknown data type ${type} at ${start}`);
    }
  }
}
