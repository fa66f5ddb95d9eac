/**
 * Decoder for the data section of a MaxMind DB file, reading values in place: a record can
 * be read entry by entry into the caller's object (openMap, value, skip) or decoded whole.
 * Pointer targets that are strings are decoded once; short ASCII strings stored inline are
 * shared by content. Format: https://maxmind.github.io/MaxMind-DB/
 */

const POINTER_BASE = [0, 2048, 526336, 0];
/**
 * Strings reached through pointers (map keys, shared city and region names) are decoded
 * once and kept in a direct-mapped cache: a slot per (offset mod size), last writer wins.
 */
const STRING_CACHE_SLOTS = 1 << 16;
/**
 * Short ASCII strings stored inline (country codes, timezones, many city names: the files
 * repeat them rather than point to one copy) are shared by content: hashed in JS and
 * checked byte by byte, which is cheaper than decoding them again.
 */
const INTERN_MAX_BYTES = 32;
const INTERNED_MAX = 16_384;

/** The value a float32 field was written as: its shortest decimal (37.422, not 37.42200088500977). */
export function shortestFloat32(value: number): number {
  let scale = 1;
  for (let digits = 0; digits < 9; digits++, scale *= 10) {
    const candidate = Math.round(value * scale) / scale;
    if (Math.fround(candidate) === value) return candidate;
  }
  return value;
}

export class MmdbDecoder {
  private readonly buf: Buffer;
  private readonly view: DataView;
  private readonly dataStart: number;
  private readonly cachedAt = new Int32Array(STRING_CACHE_SLOTS).fill(-1);
  private readonly cachedString: string[] = new Array<string>(STRING_CACHE_SLOTS).fill('');
  private readonly interned = new Map<number, string>();
  private pos = 0;

  /** `dataStart`: where the data section begins (search tree size + 16). */
  constructor(buf: Buffer, dataStart: number) {
    this.buf = buf;
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    this.dataStart = dataStart;
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
      default: return this.view.getUint32(p);
    }
  }

  private string(start: number, size: number): string {
    if (size === 0) return '';
    const b = this.buf;
    if (size > INTERN_MAX_BYTES) return b.toString('utf8', start, start + size);
    let hash = 0x811c9dc5 ^ size;
    let bits = 0;
    for (let i = start; i < start + size; i++) {
      bits |= b[i]!;
      hash = Math.imul(hash ^ b[i]!, 0x01000193);
    }
    if (bits & 0x80) return b.toString('utf8', start, start + size);
    const key = hash & 0x3fffffff;
    const known = this.interned.get(key);
    if (known !== undefined && known.length === size) {
      let same = true;
      for (let i = 0; i < size && same; i++) same = known.charCodeAt(i) === b[start + i];
      if (same) return known;
    }
    const text = b.toString('latin1', start, start + size);
    if (this.interned.size >= INTERNED_MAX) this.interned.clear();
    this.interned.set(key, text);
    return text;
  }

  /** Whether the next value is a map or an array (a nested record), without reading it. */
  nextIsContainer(): boolean {
    let at = this.pos;
    let ctrl = this.buf[at]!;
    if (ctrl >> 5 === 1) {
      const back = this.pos;
      this.pos = at + 1;
      at = this.dataStart + this.pointer(ctrl);
      this.pos = back;
      ctrl = this.buf[at]!;
    }
    const type = ctrl >> 5 === 0 ? 7 + this.buf[at + 1]! : ctrl >> 5;
    return type === 7 || type === 11;
  }

  /** Moves past the next value without decoding it. */
  skip(): void {
    const b = this.buf;
    const ctrl = b[this.pos++]!;
    let type = ctrl >> 5;
    if (type === 1) {
      this.pos += ((ctrl >> 3) & 3) + 1;
      return;
    }
    if (type === 0) type = 7 + b[this.pos++]!;
    const size = this.size(ctrl);
    if (type === 7 || type === 11) {
      for (let i = type === 7 ? 2 * size : size; i > 0; i--) this.skip();
    } else if (type !== 14) this.pos += size; // a boolean's size is its value
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
        this.cachedString[slot] = value;
      }
      return value;
    }
    if (type === 0) type = 7 + b[this.pos++]!;
    const size = this.size(ctrl);
    const start = this.pos;
    switch (type) {
      case 2: // UTF-8 string
        this.pos += size;
        return this.string(start, size);
      case 7: { // map
        const map: Record<string, unknown> = {};
        for (let i = 0; i < size; i++) {
          const key = this.value() as string;
          map[key] = this.value();
        }
        return map;
      }
      case 15: // float (see shortestFloat32 for the decimal it was written as)
        this.pos += 4;
        return this.view.getFloat32(start);
      case 3: // double
        this.pos += 8;
        return this.view.getFloat64(start);
      case 5: case 6: { // uint16, uint32
        let n = 0;
        for (let i = 0; i < size; i++) n = n * 256 + b[start + i]!;
        this.pos += size;
        return n;
      }
      case 8: // int32: fewer than 4 bytes are zero-padded, so only a full one can be negative
        this.pos += size;
        return size === 4 ? this.view.getInt32(start) : size === 0 ? 0 : b.readUIntBE(start, size);
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
