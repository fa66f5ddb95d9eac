/**
 * gzip and zstd for the pages served from a shell, each through one stream kept open per
 * level. zlib.gzipSync and zstdCompressSync open and close a stream per call: its setup and
 * the native memory it reports to V8 (which then collects sooner) are a good part of
 * compressing a page of `/`'s size at a fast level. Each page stands alone: gzip deflates it to a full
 * flush (byte-aligned, and the history reset, so the next page refers to nothing of this one),
 * an empty final block ends it, and the gzip header and trailer go around it; zstd ends its
 * frame (ZSTD_e_end), and the context, its tables kept, begins the next frame afresh. The
 * streams are driven as node:zlib's own synchronous path drives them; should that change, the
 * check in the constructor fails, every page goes through the one-call function instead, and
 * the log says so once (the pages stay right; only the gain is lost).
 *
 * Why zstd: browsers that take it (Chrome and Edge from 123, Firefox from 126) get `/`
 * smaller than gzip makes it, in a little over half the time. Level 3, because levels 1 and 2,
 * faster still, put some visitors' first page over the 10 KB that tests/page-shell.test.ts
 * holds it to (the figures: docs/benchmarks.md, "Compressing `/`"). Node before 22.15 has no
 * zstd: `zstdPages` is then false, and every browser gets gzip.
 */
import zlib, { constants, crc32, gunzipSync, gzipSync } from 'node:zlib';
import { errorMessage } from '../../lib/error-message.ts';

/** The parts of node's zlib stream that a kept compressor drives (node:zlib's own processChunkSync uses the same). */
interface ZlibInternals { _handle: { writeSync(flush: number, input: Buffer, inOff: number, inLen: number, out: Buffer, outOff: number, outLen: number): void } | null; _writeState: Uint32Array }

/** Whether this node has zstd (22.15 and later). */
export const zstdPages = typeof zlib.zstdCompressSync === 'function';

/** gzip's header: deflate, no name or time, Unix. */
const HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);
/** An empty final block (fixed Huffman, end of block): ends a deflate stream of flushed parts. */
const FINAL = Buffer.from([3, 0]);

/** Said once per process and coding, however many levels fall back. */
const fallbackSaid = new Set<string>();

/** What a kept stream of a coding needs: the one-call function to fall back on, the flush that ends a page, and its file's wrapping and decoding. */
interface Coding {
  name: 'gzip' | 'zstd';
  /** The one-call function, for when the kept stream cannot be driven, and its name in node:zlib. */
  once(page: Buffer, level: number): Buffer;
  onceName: string;
  /** The flush that ends a page. */
  flush: number;
  /** A page's file from its compressed chunks. */
  wrap(page: Buffer, chunks: Buffer[]): Buffer;
  /** The page a file decodes to (the constructor's check). */
  decode(file: Buffer): Buffer;
}

class KeptCompressor {
  readonly #level: number;
  readonly #coding: Coding;
  readonly #out = Buffer.allocUnsafe(64 * 1024);
  #stream: ZlibInternals | undefined;

  constructor(coding: Coding, level: number, open: (level: number) => unknown) {
    this.#coding = coding;
    this.#level = level;
    let why = 'a page and its copy did not come back as they went in';
    try {
      this.#stream = open(level) as ZlibInternals;
      const probe = Buffer.from('<p class="probe">probe, probe</p>');
      const [one, two] = [this.#kept(probe), this.#kept(probe)];
      if (!coding.decode(one).equals(probe) || !coding.decode(two).equals(probe)) this.#stream = undefined;
    } catch (error) {
      why = errorMessage(error);
      this.#stream = undefined;
    }
    if (!this.#stream && !fallbackSaid.has(coding.name)) {
      fallbackSaid.add(coding.name);
      console.warn(`page ${coding.name}: node's zlib stream no longer drives as src/server/shell/page-compress.ts expects (${why}); pages are compressed with ${coding.onceName} instead, a little slower`);
    }
  }

  /** Whether pages go through the kept stream (false: the one-call function). */
  get kept(): boolean {
    return this.#stream !== undefined;
  }

  /** The compressed file of `page`. */
  compress(page: Buffer): Buffer {
    return this.#stream ? this.#kept(page) : this.#coding.once(page, this.#level);
  }

  #kept(page: Buffer): Buffer {
    return this.#coding.wrap(page, this.#drive(page));
  }

  /** `text` through the stream to the coding's flush; the last chunk is a view of the output buffer, read before the next call. */
  #drive(text: Buffer): Buffer[] {
    const { _handle: handle, _writeState: state } = this.#stream!;
    const out = this.#out;
    const chunks: Buffer[] = [];
    let offset = 0;
    let available = text.length;
    for (;;) {
      handle!.writeSync(this.#coding.flush, text, offset, available, out, 0, out.length);
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

const GZIP: Coding = {
  name: 'gzip',
  once: (page, level) => gzipSync(page, { level }),
  onceName: 'gzipSync',
  flush: constants.Z_FULL_FLUSH,
  wrap(page, deflated) {
    const trailer = Buffer.allocUnsafe(8);
    trailer.writeUInt32LE(crc32(page), 0);
    trailer.writeUInt32LE(page.length % 0x100000000, 4);
    return Buffer.concat([HEADER, ...deflated, FINAL, trailer]);
  },
  decode: (file) => gunzipSync(file),
};

const zstdParams = (level: number) => ({ params: { [constants.ZSTD_c_compressionLevel]: level } });
const ZSTD: Coding = {
  name: 'zstd',
  once: (page, level) => zlib.zstdCompressSync(page, zstdParams(level)),
  onceName: 'zstdCompressSync',
  flush: constants.ZSTD_e_end,
  wrap: (_page, chunks) => Buffer.concat(chunks),
  decode: (file) => zlib.zstdDecompressSync(file),
};

export class PageGzip extends KeptCompressor {
  /** `open` makes the raw deflate stream (tests hand one that is not node's). */
  constructor(level: number, open: (level: number) => unknown = (l) => zlib.createDeflateRaw({ level: l })) {
    super(GZIP, level, open);
  }
}

export class PageZstd extends KeptCompressor {
  /** `open` makes the zstd stream (tests hand one that is not node's). */
  constructor(level: number, open: (level: number) => unknown = (l) => zlib.createZstdCompress(zstdParams(l))) {
    super(ZSTD, level, open);
  }
}
