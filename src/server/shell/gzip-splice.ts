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
import { AdaptiveMemo } from '../bounded-map.ts';

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

/**
 * zlib's memory for the per-request runs: an 8 KiB window (a run and its dictionary fit)
 * and a smaller hash, 64 KiB per call instead of 256 KiB: below glibc's mmap threshold, so
 * the memory is reused rather than mapped and unmapped on every request. Sizes are
 * unchanged at level 1 on `/` (measured on the page's runs).
 */
const WINDOW = { windowBits: 13, memLevel: 6 };

/** Statics are compressed once: the most zlib can do. */
const ONCE = { windowBits: 15, memLevel: 9 };

function piece(raw: Buffer, level: number, dictionary?: Buffer, window = WINDOW): Piece {
  return {
    deflated: raw.length ? deflateRawSync(raw, { level, dictionary, finishFlush: constants.Z_SYNC_FLUSH, ...window }) : Buffer.alloc(0),
    crc: crc32(raw),
    length: raw.length,
    shift: shiftOperator(raw.length),
  };
}

// Deflate's length and distance codes (RFC 1951, 3.2.5): base values and extra bits.
const LENGTH_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DISTANCE_BASE = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577];
const DISTANCE_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];
const MAX_DISTANCE = 32768;

/** The largest index whose base is at most `value`. */
const codeFor = (bases: number[], value: number) => {
  let i = bases.length - 1;
  while (bases[i]! > value) i--;
  return i;
};

/** Deflate's bit order: values LSB first; Huffman codes MSB first (reversed here). */
class BitWriter {
  private readonly bytes: number[] = [];
  private acc = 0;
  private count = 0;
  bits(value: number, n: number): void {
    for (let i = 0; i < n; i++) {
      this.acc |= ((value >>> i) & 1) << this.count;
      if (++this.count === 8) this.flushByte();
    }
  }
  code(value: number, n: number): void {
    for (let i = n - 1; i >= 0; i--) this.bits((value >>> i) & 1, 1);
  }
  private flushByte(): void {
    this.bytes.push(this.acc);
    this.acc = 0;
    this.count = 0;
  }
  /** Ends with an empty stored block, as a sync flush does: byte-aligned, not final. */
  sync(): Buffer {
    this.bits(0, 3);
    if (this.count) this.flushByte();
    this.bytes.push(0, 0, 0xff, 0xff);
    return Buffer.from(this.bytes);
  }
}

/**
 * A block that repeats `length` bytes found `distance` bytes back (fixed Huffman codes):
 * a part already sent in this answer, such as the record in each island's props, costs
 * a few dozen bytes instead of being compressed again.
 */
export function copyBlock(length: number, distance: number): Buffer {
  const w = new BitWriter();
  w.bits(0, 1); // not final
  w.bits(1, 2); // fixed Huffman codes
  for (let left = length; left > 0; ) {
    let n = Math.min(258, left);
    if (left - n > 0 && left - n < 3) n = left - 3; // every match is at least 3 bytes
    const l = codeFor(LENGTH_BASE, n);
    const symbol = 257 + l;
    if (symbol <= 279) w.code(symbol - 256, 7);
    else w.code(0xc0 + symbol - 280, 8);
    w.bits(n - LENGTH_BASE[l]!, LENGTH_EXTRA[l]!);
    const d = codeFor(DISTANCE_BASE, distance);
    w.code(d, 5);
    w.bits(distance - DISTANCE_BASE[d]!, DISTANCE_EXTRA[d]!);
    left -= n;
  }
  w.code(0, 7); // end of block
  return w.sync();
}

// No file name, no time, unknown OS: the same bytes every time.
const HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
/** An empty final block with fixed codes: ends the deflate stream. */
const FINAL_BLOCK = [0x03, 0x00];

export interface SplicedGzipOptions {
  /** Deflate level of the per-request runs. */
  level: number;
  /** Statics shorter than this are compressed with the parts around them, per request. */
  mergeBelow: number;
  /** How many bytes of the static text before a run serve as its dictionary (at most 8 KiB, the window). */
  dictionary: number;
  /** How many distinct texts each run's memo keeps (it stands aside for runs that seldom come back). */
  memo: number;
}

/** Per-request parts joined by the short statics between them, compressed together. */
interface Run {
  /** Indexes of the parts, in order. */
  parts: number[];
  /** The statics between them (one fewer). */
  joins: string[];
  /** The text just before the run, which the browser has decoded by then. */
  dictionary: Buffer | undefined;
  /** When the run is one part that repeats an earlier one: that part's index. */
  copyOf: number | undefined;
  memo: AdaptiveMemo<string, Piece>;
}

/**
 * gzip of `statics[0] + parts[0] + statics[1] + ... + statics[n]` with the long statics
 * compressed once. Per request, each run of parts (with the short statics between them)
 * is compressed in one call, with the static text just before it as its dictionary (the
 * browser has just decoded it, so references into it are valid; an island's HTML repeats
 * much of the texts in its props). A run that is only a repeat of an earlier part (the
 * record in each island's props) is sent as a copy of it.
 */
export class SplicedGzip {
  private readonly head: Piece;
  /** Per run, the run and the compressed long static after it. */
  private readonly runs: Array<{ run: Run; after: Piece }> = [];
  private readonly level: number;
  private readonly partCount: number;
  /** Parts that later runs copy: where they start is worked out per request. */
  private readonly copied: Set<number>;

  /** `firstOf[i]` is the index of the first part always equal to part i (i itself if none). */
  constructor(statics: readonly string[], firstOf: readonly number[], options: SplicedGzipOptions) {
    this.level = options.level;
    this.partCount = firstOf.length;
    const compressStatic = (text: string) => piece(Buffer.from(text, 'utf8'), constants.Z_BEST_COMPRESSION, undefined, ONCE);
    this.head = compressStatic(statics[0]!);
    let run: Run | undefined;
    for (let i = 0; i < firstOf.length; i++) {
      run ??= { parts: [], joins: [], dictionary: tail(statics[i]!, options.dictionary), copyOf: undefined, memo: new AdaptiveMemo(options.memo, { minHitRate: 0.25, window: 256, rest: 4096 }) };
      run.parts.push(i);
      const next = statics[i + 1]!;
      if (i < firstOf.length - 1 && next.length < options.mergeBelow) {
        run.joins.push(next);
        continue;
      }
      if (run.parts.length === 1 && firstOf[i] !== i) run.copyOf = firstOf[i];
      this.runs.push({ run, after: compressStatic(next) });
      run = undefined;
    }
    this.copied = new Set(this.runs.flatMap(({ run: r }) => (r.copyOf === undefined ? [] : [r.copyOf])));
  }

  private compress(run: Run, parts: readonly string[]): Piece {
    let text = parts[run.parts[0]!]!;
    for (let k = 1; k < run.parts.length; k++) text += run.joins[k - 1]! + parts[run.parts[k]!]!;
    let found = run.memo.get(text);
    if (!found) run.memo.set(text, found = piece(Buffer.from(text, 'utf8'), this.level, run.dictionary));
    return found;
  }

  /** The gzip member for one request's parts (one fewer than the statics). */
  gzip(parts: readonly string[]): Buffer {
    if (parts.length !== this.partCount) throw new Error(`expected ${this.partCount} parts, got ${parts.length}`);
    const pieces: Buffer[] = [HEADER];
    /** For parts later copied: where each starts in the page, and its bytes' CRC. */
    const sources = new Map<number, { start: number; piece: Piece }>();
    let crc = 0;
    let length = 0;
    let size = HEADER.length + FINAL_BLOCK.length + 8;
    const add = (p: Piece, deflated = p.deflated) => {
      pieces.push(deflated);
      size += deflated.length;
      crc = (multmodp(p.shift, crc) ^ p.crc) >>> 0;
      length += p.length;
    };
    add(this.head);
    for (const { run, after } of this.runs) {
      const source = run.copyOf === undefined ? undefined : sources.get(run.copyOf);
      if (source && source.piece.length >= 3 && length - source.start <= MAX_DISTANCE) {
        add(source.piece, copyBlock(source.piece.length, length - source.start));
      } else {
        let at = length;
        run.parts.forEach((i, k) => {
          const bytes = this.copied.has(i) ? Buffer.from(parts[i]!, 'utf8') : undefined;
          if (bytes) sources.set(i, { start: at, piece: { deflated: EMPTY, crc: crc32(bytes), length: bytes.length, shift: shiftOperator(bytes.length) } });
          if (k < run.joins.length) at += (bytes?.length ?? Buffer.byteLength(parts[i]!)) + Buffer.byteLength(run.joins[k]!);
        });
        add(this.compress(run, parts));
      }
      add(after);
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

const EMPTY = Buffer.alloc(0);

/** The last `bytes` bytes of a text, or nothing for an empty text. */
function tail(text: string, bytes: number): Buffer | undefined {
  const buf = Buffer.from(text, 'utf8');
  return buf.length ? buf.subarray(Math.max(0, buf.length - bytes)) : undefined;
}
