/**
 * gzip for the pages served from a shell, through one zlib stream kept open per level.
 * zlib.gzipSync opens and closes a stream per call: its setup and the native memory it
 * reports to V8 (which then collects sooner) are a good part of compressing a 28 KB page
 * at a fast level. Each page is deflated to a full flush (byte-aligned, and the history
 * reset, so the next page refers to nothing of this one), an empty final block ends it,
 * and the gzip header and trailer go around it. The stream is driven as node:zlib's own
 * synchronous path drives it; should that change, the check in the constructor fails, every
 * page goes through gzipSync instead, and the log says so once (the pages stay right; only
 * the gain is lost).
 */
import { constants, crc32, createDeflateRaw, gunzipSync, gzipSync } from 'node:zlib';

/** The parts of node's zlib stream that PageGzip drives (node:zlib's own processChunkSync uses the same). */
interface ZlibInternals { _handle: { writeSync(flush: number, input: Buffer, inOff: number, inLen: number, out: Buffer, outOff: number, outLen: number): void } | null; _writeState: Uint32Array }

/** gzip's header: deflate, no name or time, Unix. */
const HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);
/** An empty final block (fixed Huffman, end of block): ends a deflate stream of flushed parts. */
const FINAL = Buffer.from([3, 0]);

/** Said once per process, however many levels fall back. */
let fallbackSaid = false;

export class PageGzip {
  readonly #level: number;
  readonly #out = Buffer.allocUnsafe(64 * 1024);
  #stream: ZlibInternals | undefined;

  /** `open` makes the raw deflate stream (tests hand one that is not node's). */
  constructor(level: number, open: (level: number) => unknown = (l) => createDeflateRaw({ level: l })) {
    this.#level = level;
    let why = 'a page and its copy did not come back as they went in';
    try {
      this.#stream = open(level) as ZlibInternals;
      const probe = Buffer.from('<p class="probe">probe, probe</p>');
      if (!gunzipSync(Buffer.concat([this.#wrap(probe), this.#wrap(probe)])).equals(Buffer.concat([probe, probe]))) this.#stream = undefined;
    } catch (error) {
      why = (error as Error).message;
      this.#stream = undefined;
    }
    if (!this.#stream && !fallbackSaid) {
      fallbackSaid = true;
      console.warn(`page gzip: node's zlib stream no longer drives as src/server/shell/page-gzip.ts expects (${why}); pages are compressed with gzipSync instead, a little slower`);
    }
  }

  /** Whether pages go through the kept stream (false: gzipSync). */
  get kept(): boolean {
    return this.#stream !== undefined;
  }

  /** The gzip file of `page`. */
  gzip(page: Buffer): Buffer {
    return this.#stream ? this.#wrap(page) : gzipSync(page, { level: this.#level });
  }

  #wrap(page: Buffer): Buffer {
    const deflated = this.#drive(page);
    const trailer = Buffer.allocUnsafe(8);
    trailer.writeUInt32LE(crc32(page), 0);
    trailer.writeUInt32LE(page.length % 0x100000000, 4);
    return Buffer.concat([HEADER, ...deflated, FINAL, trailer]);
  }

  /** `text` deflated to a full flush; the last chunk is a view of the output buffer, read before the next call. */
  #drive(text: Buffer): Buffer[] {
    const { _handle: handle, _writeState: state } = this.#stream!;
    const out = this.#out;
    const chunks: Buffer[] = [];
    let offset = 0;
    let available = text.length;
    for (;;) {
      handle!.writeSync(constants.Z_FULL_FLUSH, text, offset, available, out, 0, out.length);
      const [outLeft, inLeft] = [state[0]!, state[1]!];
      const produced = out.subarray(0, out.length - outLeft);
      offset += available - inLeft;
      available = inLeft;
      // Output left over: the whole input is in. Else the buffer filled up and more follows.
      if (outLeft !== 0) return [...chunks, produced];
      chunks.push(Buffer.from(produced));
    }
  }
}
