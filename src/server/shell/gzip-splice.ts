/**
 * One gzip member built from parts compressed separately: the shell's static parts once,
 * at start, at the best level; the visitor's parts per request, compressed (PartDeflater)
 * or stored as they are (storedOf). Each part
 * is raw deflate that ends on a full flush (byte-aligned, no reference to what came
 * before), so the parts concatenate into one valid deflate stream; the last static part
 * ends it. The gzip trailer's CRC-32 is combined from the parts' CRCs (zlib's
 * crc32_combine), so no byte of a static part is read per request.
 */
import { constants, crc32, createDeflateRaw, deflateRawSync, inflateRawSync } from 'node:zlib';

/** A part compressed on its own, with what the trailer needs of it. */
export interface Packed {
  readonly deflated: Buffer;
  readonly crc: number;
  readonly length: number;
  /** crc32_combine's operator for this part's length: x^(8·length) mod P. */
  readonly shift: number;
}

const POLY = 0xedb88320;

/** a(x)·b(x) modulo the CRC-32 polynomial, bit-reflected (zlib's multmodp). */
function multiply(a: number, b: number): number {
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

/** x^(2^k) modulo P for k = 0..31 (zlib's x2n_table). */
const X2N: number[] = [];
for (let k = 0, p = 0x40000000; k < 32; k++, p = multiply(p, p)) X2N.push(p);

/** x^(n·2^k) modulo P (zlib's x2nmodp). */
function powerOfX(n: number, k: number): number {
  let p = 0x80000000;
  while (n) {
    if (n & 1) p = multiply(X2N[k & 31]!, p);
    n = Math.floor(n / 2);
    k++;
  }
  return p;
}

/** The CRC-32 of A followed by B, from crc(A), crc(B) and B's operator. */
export const combineCrc = (crcA: number, crcB: number, shiftB: number): number => (multiply(shiftB, crcA) ^ crcB) >>> 0;

/** A part's deflated bytes (ending on a full flush) with its CRC, length and operator. */
export const packedOf = (deflated: Buffer, text: Buffer, crc = crc32(text)): Packed =>
  ({ deflated, crc, length: text.length, shift: powerOfX(text.length, 3) });

/** A static part, compressed once at the best level; `last` ends the deflate stream. */
export const packStatic = (text: Buffer, last: boolean): Packed =>
  packedOf(deflateRawSync(text, { level: 9, finishFlush: last ? constants.Z_FINISH : constants.Z_FULL_FLUSH }), text);

/**
 * A part as stored deflate blocks: no compression, only framing (each block: a zero byte,
 * which is BFINAL 0, BTYPE 00 and the padding to the byte; LEN; its complement; the bytes).
 * It starts on a byte boundary, as every part ends on one.
 */
export function storedOf(text: Buffer, crc = crc32(text)): Packed {
  const blocks = Math.max(1, Math.ceil(text.length / 0xffff));
  const deflated = Buffer.allocUnsafe(text.length + 5 * blocks);
  let at = 0;
  for (let from = 0, b = 0; b < blocks; b++, from += 0xffff) {
    const length = Math.min(0xffff, text.length - from);
    deflated[at] = 0;
    deflated.writeUInt16LE(length, at + 1);
    deflated.writeUInt16LE(~length & 0xffff, at + 3);
    text.copy(deflated, at + 5, from, from + length);
    at += 5 + length;
  }
  return packedOf(deflated, text, crc);
}

/** The parts of node's zlib stream that PartDeflater drives (node:zlib's own processChunkSync uses the same). */
interface ZlibInternals { _handle: { writeSync(flush: number, input: Buffer, inOff: number, inLen: number, out: Buffer, outOff: number, outLen: number): void } | null; _writeState: Uint32Array }

/**
 * Compresses a visitor's parts, each on its own (each ends on a full flush, which also
 * resets the history, so no part refers into another), through one zlib stream kept open.
 * zlib.deflateRawSync opens and closes a stream per call: its setup and the native memory
 * it reports to V8 (which then collects sooner) cost more than compressing 2 KB. The
 * stream is driven as node:zlib's own synchronous path drives it; should that change, the
 * check in the constructor fails and every call goes through deflateRawSync instead.
 */
export class PartDeflater {
  readonly #level: number;
  readonly #out = Buffer.allocUnsafe(64 * 1024);
  #stream: ZlibInternals | undefined;

  constructor(level: number) {
    this.#level = level;
    try {
      this.#stream = createDeflateRaw({ level }) as unknown as ZlibInternals;
      const probe = Buffer.from('<p class="probe">probe, probe</p>');
      if (!inflateRawSync(Buffer.concat([this.#drive(probe), this.#drive(probe), Buffer.from([3, 0])])).equals(Buffer.concat([probe, probe]))) this.#stream = undefined;
    } catch {
      this.#stream = undefined;
    }
  }

  /** A part as raw deflate ending on a full flush. */
  deflate(text: Buffer): Buffer {
    return this.#stream ? this.#drive(text) : deflateRawSync(text, { level: this.#level, finishFlush: constants.Z_FULL_FLUSH });
  }

  #drive(text: Buffer): Buffer {
    const { _handle: handle, _writeState: state } = this.#stream!;
    const out = this.#out;
    const chunks: Buffer[] = [];
    let offset = 0;
    let available = text.length;
    for (;;) {
      handle!.writeSync(constants.Z_FULL_FLUSH, text, offset, available, out, 0, out.length);
      const [outLeft, inLeft] = [state[0]!, state[1]!];
      chunks.push(Buffer.from(out.subarray(0, out.length - outLeft)));
      offset += available - inLeft;
      available = inLeft;
      if (outLeft !== 0) return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    }
  }
}

const HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);

/** The gzip file of the parts in order; the last must be a static part packed with `last`. */
export function gzipOf(parts: readonly Packed[]): Buffer[] {
  let crc = 0;
  let length = 0;
  const out: Buffer[] = [HEADER];
  for (const part of parts) {
    crc = combineCrc(crc, part.crc, part.shift);
    length += part.length;
    out.push(part.deflated);
  }
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc, 0);
  trailer.writeUInt32LE(length % 0x100000000, 4);
  out.push(trailer);
  return out;
}
