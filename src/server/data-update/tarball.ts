/**
 * Reads the files out of an npm package tarball (gzip'd ustar, entries under `package/`),
 * for the package check (update.ts, in a child process: unpack-child.ts): enough of the tar
 * format for what `npm pack` writes: regular files, ustar name prefixes, pax `path=` records.
 * The archive is read as a stream: only the files kept are held, one at a time, and the
 * unpacked bytes are counted as they come, so a tarball that inflates past its cap (a "zip
 * bomb") is refused after reading no more than the cap. Tested with tarballs the system's tar
 * writes (tarball.test.ts, tests/data-update.test.ts).
 */
import { createReadStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createGunzip, gunzipSync } from 'node:zlib';

const BLOCK = 512;

function field(block: Uint8Array, start: number, length: number): string {
  const bytes = block.subarray(start, start + length);
  const end = bytes.indexOf(0);
  return new TextDecoder().decode(end === -1 ? bytes : bytes.subarray(0, end));
}

/** A pax header's `path=` record, if any ("<len> path=<value>\n" records). */
function paxPath(body: Uint8Array): string | undefined {
  for (const record of new TextDecoder().decode(body).split('\n')) {
    const match = /^\d+ path=(.*)$/.exec(record);
    if (match) return match[1];
  }
  return undefined;
}

interface Entry { file: string; size: number; pax: boolean; parts: Buffer[]; got: number }

/**
 * A tar stream read chunk by chunk: each regular file whose path (without the leading
 * `package/`) `wanted` accepts is passed whole to `onFile`; the others are skipped unread.
 */
export class TarReader {
  private rest: Buffer = Buffer.alloc(0);
  private entry: Entry | undefined;
  /** Bytes of a skipped body still to come, then of the padding after a body. */
  private skipBody = 0;
  private skipPad = 0;
  private nextPath: string | undefined;
  private ended = false;
  private readonly wanted: (file: string) => boolean;
  private readonly onFile: (file: string, body: Buffer) => void;

  constructor(wanted: (file: string) => boolean, onFile: (file: string, body: Buffer) => void) {
    this.wanted = wanted;
    this.onFile = onFile;
  }

  /** Reads the next bytes of the archive. Throws on a header with no valid size. */
  push(chunk: Buffer): void {
    let data = this.rest.length ? Buffer.concat([this.rest, chunk]) : chunk;
    while (!this.ended) {
      if (this.entry) {
        data = data.subarray(this.fill(this.entry, data));
        if (this.entry) break; // the body goes on in the next chunk
        continue;
      }
      // A skipped body, then the padding to the next block.
      const skip = this.skipBody || this.skipPad;
      if (skip) {
        const n = Math.min(skip, data.length);
        if (this.skipBody) this.skipBody -= n; else this.skipPad -= n;
        data = data.subarray(n);
        if (data.length === 0) break;
        continue;
      }
      if (data.length < BLOCK) break;
      this.header(data.subarray(0, BLOCK));
      data = data.subarray(BLOCK);
    }
    this.rest = Buffer.from(data);
  }

  /** Ends the archive. Throws when a file's body was cut short. */
  end(): void {
    if (this.entry || this.skipBody) throw new Error('tarball: truncated');
  }

  private header(header: Buffer): void {
    if (header.every((b) => b === 0)) { this.ended = true; return; } // end of archive
    const size = parseInt(field(header, 124, 12).trim() || '0', 8);
    if (!Number.isFinite(size) || size < 0) throw new Error('tarball: a header has no valid size');
    const type = String.fromCharCode(header[156]!);
    const prefix = field(header, 345, 155);
    const name = this.nextPath ?? (prefix ? `${prefix}/${field(header, 0, 100)}` : field(header, 0, 100));
    this.nextPath = undefined;
    const file = name.replace(/^[^/]+\//, ''); // npm puts everything under one top folder ('package/')
    const pax = type === 'x';
    const kept = pax || ((type === '0' || type === '\0') && this.wanted(file));
    this.skipPad = Math.ceil(size / BLOCK) * BLOCK - size;
    if (!kept) { this.skipBody = size; return; }
    // Taken by the next turn of push's loop, an empty body at once.
    this.entry = { file, size, pax, parts: [], got: 0 };
  }

  /** Takes what `data` holds of the entry's body; once it is whole, hands it on. Returns the bytes taken. */
  private fill(entry: Entry, data: Buffer): number {
    const n = Math.min(entry.size - entry.got, data.length);
    entry.parts.push(Buffer.from(data.subarray(0, n)));
    entry.got += n;
    if (entry.got === entry.size) {
      this.entry = undefined;
      const body = Buffer.concat(entry.parts);
      if (entry.pax) this.nextPath = paxPath(body);
      else this.onFile(entry.file, body);
    }
    return n;
  }
}

/**
 * The regular files of a `.tgz` in memory whose path `wanted` accepts, as path → contents.
 * Throws on a truncated or malformed archive, or one that inflates past `maxBytes`.
 */
export function readTarball(tgz: Uint8Array, wanted: (file: string) => boolean, maxBytes = Infinity): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  let tar: Buffer;
  try {
    tar = gunzipSync(tgz, Number.isFinite(maxBytes) ? { maxOutputLength: maxBytes } : {});
  } catch (error) {
    if (error instanceof RangeError) throw new Error(`tarball: unpacks to over ${maxBytes} bytes`, { cause: error });
    throw error;
  }
  const reader = new TarReader(wanted, (file, body) => files.set(file, body));
  reader.push(tar);
  reader.end();
  return files;
}

/**
 * Unpacks a `.tgz` file as a stream into `outDir`: the files `wanted` accepts, at the top of
 * it (their names' folders are kept). Stops with an error once the unpacked archive passes
 * `maxBytes`. Returns the files written.
 */
export async function unpackTarball(tgzFile: string, outDir: string, wanted: (file: string) => boolean, maxBytes: number): Promise<string[]> {
  const written: Array<Promise<void>> = [];
  const files: string[] = [];
  const reader = new TarReader(wanted, (file, body) => {
    files.push(file);
    const target = path.join(outDir, file);
    written.push(mkdir(path.dirname(target), { recursive: true }).then(() => writeFile(target, body)));
  });
  let size = 0;
  const stream = createReadStream(tgzFile).pipe(createGunzip());
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    // Leaving the loop ends the stream.
    if (size > maxBytes) throw new Error(`tarball: unpacks to over ${maxBytes} bytes`);
    reader.push(chunk);
  }
  reader.end();
  await Promise.all(written);
  return files;
}
