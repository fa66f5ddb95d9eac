/**
 * The kept compressors of the shell pages, gzip and zstd alike: what they make decodes to the
 * page, each page stands alone however many came before it and whatever its size, the level
 * given is the level used, and a stream node no longer drives as expected falls back to the
 * one-call function, said once per coding, with pages still right.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { constants, createZstdCompress, deflateRawSync, gunzipSync, gzipSync, zstdCompressSync, zstdDecompressSync } from 'node:zlib';
import { PageGzip, PageZstd, zstdPages } from './page-compress.ts';

/** A page-sized text that compresses as pages do: two of the repository's docs, 20-40 KB. */
const PAGE = Buffer.concat([readFileSync('docs/architecture.md'), readFileSync('docs/testing.md')]);
/** 150 KB that does not compress (SHA-256 in counter mode): more than the 64 KB output buffer holds at once. */
const RANDOM = Buffer.concat(Array.from({ length: 4_700 }, (_, i) => createHash('sha256').update(String(i)).digest()));

/** Node's zstd stream with the internals a kept compressor drives. */
const zstdStream = (level: number) => createZstdCompress({ params: { [constants.ZSTD_c_compressionLevel]: level } }) as unknown as {
  _writeState: Uint32Array;
  _handle: { writeSync(flush: number, input: Buffer, inOff: number, inLen: number, out: Buffer, outOff: number, outLen: number): void };
};
const zstdOnce = (page: Buffer, level: number) => zstdCompressSync(page, { params: { [constants.ZSTD_c_compressionLevel]: level } });
const CODINGS = [
  { name: 'gzip', make: (level: number, open?: (level: number) => unknown) => new PageGzip(level, open), decode: gunzipSync, once: (page: Buffer, level: number) => gzipSync(page, { level }), levels: [2, 6], slack: 8, lost: 'incorrect data check' },
  { name: 'zstd', make: (level: number, open?: (level: number) => unknown) => new PageZstd(level, open), decode: zstdDecompressSync, once: zstdOnce, levels: [1, 6], slack: 0, lost: 'unexpected end of file' },
] as const;

/** A stream without node's internals, as a future node might make it. */
const bare = () => ({});
/** One that drives but loses what it is given: the check's probe page does not come back. */
const losing = () => ({ _handle: { writeSync: () => {} }, _writeState: Uint32Array.of(64 * 1024, 0) });
/** One node cannot open at all. */
const failing = () => { throw new Error('no stream'); };

afterEach(() => { vi.restoreAllMocks(); });

describe.each(CODINGS)('$name pages', ({ name, make, decode, once, levels, slack, lost }) => {
  it('drive node\'s stream here', () => {
    expect(zstdPages).toBe(true);
    for (const level of levels) expect(make(level).kept).toBe(true);
  });

  it('compress pages through one open stream, each standing alone, whatever their size', () => {
    const compressor = make(levels[0]);
    expect(deflateRawSync(RANDOM, { level: 2 }).length).toBeGreaterThan(2 * 64 * 1024);
    const pages = [Buffer.from('<p>a page</p>'.repeat(50)), RANDOM, Buffer.alloc(0), Buffer.from('"&quot;"'.repeat(300)), PAGE, Buffer.from('<p>a page</p>'.repeat(50))];
    const files = pages.map((page) => compressor.compress(page));
    files.forEach((file, i) => expect(decode(file)).toEqual(pages[i]));
    // The same page after others compresses to the same bytes: nothing of one refers into another.
    expect(files[5]).toEqual(files[0]);
    expect(files[4]!.length).toBeLessThan(PAGE.length / 2);
  });

  it('compress at the level they are given, as the one-call function does', () => {
    const sizes = levels.map((level) => [make(level).compress(PAGE).length, once(PAGE, level).length]);
    // gzip: the same deflate but for the flush marker and the empty last block (7 bytes); zstd: the same frame.
    for (const [kept, one] of sizes) expect(Math.abs(kept! - one!)).toBeLessThanOrEqual(slack);
    expect(sizes[0]![0]! - sizes[1]![0]!).toBeGreaterThan(100);
  });

  it('fall back to the one-call function when node\'s stream no longer drives as expected, saying so once', async () => {
    vi.resetModules();
    const fresh = await import('./page-compress.ts');
    // This node has zstd (22.15 and later): the shells offer it.
    expect(fresh.zstdPages).toBe(true);
    const makeFresh = (level: number, open: (level: number) => unknown) => (name === 'gzip' ? new fresh.PageGzip(level, open) : new fresh.PageZstd(level, open));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const changed = [makeFresh(levels[0], bare), makeFresh(levels[1], bare), makeFresh(levels[0], failing), makeFresh(levels[0], losing)];
    expect(changed.map((c) => c.kept)).toEqual([false, false, false, false]);
    for (const [i, compressor] of changed.entries()) {
      const level = i === 1 ? levels[1] : levels[0];
      expect(compressor.compress(PAGE)).toEqual(once(PAGE, level));
    }
    // The other coding's fallback is said on its own, once too.
    const other = name === 'gzip' ? new fresh.PageZstd(1, bare) : new fresh.PageGzip(2, bare);
    expect(other.kept).toBe(false);
    const lines = warn.mock.calls.map(([line]) => String(line));
    expect(lines).toHaveLength(2);
    const oneCall = name === 'gzip' ? 'gzipSync' : 'zstdCompressSync';
    expect(lines[0]).toBe(`page ${name}: node's zlib stream no longer drives as src/server/shell/page-compress.ts expects (Cannot read properties of undefined (reading 'writeSync')); pages are compressed with ${oneCall} instead, a little slower`);
    expect(lines[1]).toMatch(new RegExp(`^page ${name === 'gzip' ? 'zstd' : 'gzip'}: `));
  });

  it('take a stream that loses pages for broken, and say what decoding its probe said', async () => {
    vi.resetModules();
    const fresh = await import('./page-compress.ts');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const compressor = name === 'gzip' ? new fresh.PageGzip(2, losing) : new fresh.PageZstd(1, losing);
    expect(compressor.kept).toBe(false);
    expect(decode(compressor.compress(PAGE))).toEqual(PAGE);
    expect(String(warn.mock.calls[0]![0])).toContain(`expects (${lost}); pages are compressed`);
  });
});

describe('zstd pages', () => {
  it('take a stream whose frames decode to other bytes for broken', async () => {
    vi.resetModules();
    const fresh = await import('./page-compress.ts');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    // Whole frames every time, but of another page (gzip cannot come back wrong without
    // failing its CRC-32; zstd's frames here carry no checksum).
    const other = zstdOnce(Buffer.from('<p>another page</p>'), 1);
    const forging = () => {
      const state = Uint32Array.of(0, 0);
      return { _writeState: state, _handle: { writeSync(_flush: number, _in: Buffer, _inOff: number, _inLen: number, out: Buffer, outOff: number, outLen: number) {
        other.copy(out, outOff);
        state[0] = outLen - other.length;
        state[1] = 0;
      } } };
    };
    const compressor = new fresh.PageZstd(1, forging);
    expect(compressor.kept).toBe(false);
    expect(zstdDecompressSync(compressor.compress(PAGE))).toEqual(PAGE);
    expect(String(warn.mock.calls[0]![0])).toContain('expects (a page and its copy did not come back as they went in); pages are compressed with zstdCompressSync');
  });

  it('take a stream that gets only the first of two pages wrong for broken too', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const other = zstdOnce(Buffer.from('<p>another page</p>'), 1);
    // Node's own stream, but its first answer is a whole frame of another page.
    const firstWrong = (level: number) => {
      const real = zstdStream(level);
      let calls = 0;
      return { _writeState: real._writeState, _handle: { writeSync(flush: number, input: Buffer, inOff: number, inLen: number, out: Buffer, outOff: number, outLen: number) {
        if (calls++ > 0) return real._handle.writeSync(flush, input, inOff, inLen, out, outOff, outLen);
        other.copy(out, outOff);
        real._writeState[0] = outLen - other.length;
        real._writeState[1] = 0;
      } } };
    };
    expect(new PageZstd(1, zstdStream).kept).toBe(true);
    expect(new PageZstd(1, firstWrong).kept).toBe(false);
  });
});
