/**
 * gzip for a page of fixed parts with per-request parts between them. The fixed parts
 * are compressed once, at the best level; per request only the other parts are, and the
 * pieces are joined into one gzip member. Deflate allows it: a stream is any sequence of
 * blocks, the last one marked final, and each piece here is a run of non-final blocks
 * ending on a byte boundary (a sync flush) whose back-references stay inside the piece.
 * The gzip trailer's CRC-32 is combined from the pieces' own (zlib's crc32_combine), so
 * the fixed parts are never read again.
 *
 * Per-request parts are kept compressed by their text in a bounded memo: a part seen
 * before (an island that renders alike for many visitors, the same visitor again) costs
 * a Map lookup.
 */
import { constants, crc32, deflateRawSync } from 'node:zlib';
import { BoundedMap } from '../bounded-map.ts';

const POLY = 0xedb88320;

/** a(x) * b(x) modulo the CRC-32 polynomial (reflected bit order), as zlib's multmodp. */
function multmodp(a: number, b: number): number {
  let m = 0x80000000;
  let p = 0;
  for (;;) {
    if (a & m) {
      p ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1;
  }
  return p >>> 0;
}

/** x^(2^k) modulo the polynomial, k = 0..31. */
const X2N = new Uint32Array(32);
X2N[0] = 0x40000000;
for (let k = 1; k < 32; k++) X2N[k] = multmodp(X2N[k - 1]!, X2N[k - 1]!);

/** The operator that shifts a CRC over `bytes` zero bytes: x^(8 * bytes) modulo the polynomial. */
function shiftOperator(bytes: number): number {
  let p = 0x80000000;
  for (let n = bytes, k = 3; n; n = Math.floor(n / 2), k++) if (n % 2) p = multmodp(X2N[k & 31]!, p);
  return p;
}

/** The CRC-32 of A followed by B, from A's CRC, B's CRC and B's length (zlib's crc32_combine). */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  return (multmodp(shiftOperator(lengthB), crcA) ^ crcB) >>> 0;
}

/** One part, compressed: its deflate blocks, CRC-32, length and CRC shift operator. */
interface Piece { deflated: Buffer; crc: number; length: number; shift: number }

function piece(text: string, level: number): Piece {
  const raw = Buffer.from(text, 'utf8');
  return {
    deflated: raw.length ? deflateRawSync(raw, { level, finishFlush: constants.Z_SYNC_FLUSH }) : Buffer.alloc(0),
    crc: crc32(raw),
    length: raw.length,
    shift: shiftOperator(raw.length),
  };
}

// No file name, no time, unknown OS: the same bytes every time.
const HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
/** An empty final block with fixed codes: ends the deflate stream. */
const FINAL_BLOCK = [0x03, 0x00];

export interface SplicedGzipOptions {
  /** Deflate level of the per-request parts. */
  level: number;
  /** How many per-request parts the memo keeps. */
  memo: number;
}

/** gzip of `statics[0] + parts[0] + statics[1] + ... + statics[n]` with the statics compressed once. */
export class SplicedGzip {
  private readonly statics: Piece[];
  private readonly memo: BoundedMap<string, Piece>;
  private readonly level: number;

  constructor(statics: readonly string[], options: SplicedGzipOptions) {
    this.statics = statics.map((text) => piece(text, constants.Z_BEST_COMPRESSION));
    this.memo = new BoundedMap(options.memo);
    this.level = options.level;
  }

  private part(text: string): Piece {
    let found = this.memo.get(text);
    if (!found) this.memo.set(text, found = piece(text, this.level));
    return found;
  }

  /** The gzip member for one request's parts (one fewer than the statics). */
  gzip(parts: readonly string[]): Buffer {
    const pieces: Buffer[] = [HEADER];
    let crc = 0;
    let length = 0;
    let size = HEADER.length + FINAL_BLOCK.length + 8;
    const add = (p: Piece) => {
      pieces.push(p.deflated);
      size += p.deflated.length;
      crc = (multmodp(p.shift, crc) ^ p.crc) >>> 0;
      length += p.length;
    };
    add(this.statics[0]!);
    for (let i = 0; i < parts.length; i++) {
      add(this.part(parts[i]!));
      add(this.statics[i + 1]!);
    }
    const trailer = Buffer.allocUnsafe(FINAL_BLOCK.length + 8);
    trailer[0] = FINAL_BLOCK[0]!;
    trailer[1] = FINAL_BLOCK[1]!;
    trailer.writeUInt32LE(crc, 2);
    trailer.writeUInt32LE(length % 2 ** 32, 6);
    pieces.push(trailer);
    return Buffer.concat(pieces, size);
  }
}
