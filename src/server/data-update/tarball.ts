/**
 * Reads the files out of an npm package tarball (gzip'd ustar, entries under `package/`),
 * for `npm run data:update` (update.ts): enough of the tar format for what `npm pack`
 * writes: regular files, ustar name prefixes, pax `path=` records. Tested with tarballs
 * the system's tar writes (tests/data-update.test.ts).
 */
import { gunzipSync } from 'node:zlib';

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

/**
 * The regular files of a `.tgz` whose path (without the leading `package/`) `wanted`
 * accepts, as path → contents. Throws on a truncated or malformed archive.
 */
export function readTarball(tgz: Uint8Array, wanted: (file: string) => boolean): Map<string, Buffer> {
  const tar = gunzipSync(tgz);
  const files = new Map<string, Buffer>();
  let at = 0;
  let nextPath: string | undefined;
  while (at + BLOCK <= tar.length) {
    const header = tar.subarray(at, at + BLOCK);
    if (header.every((b) => b === 0)) break; // end of archive
    const size = parseInt(field(header, 124, 12).trim() || '0', 8);
    if (!Number.isFinite(size) || size < 0) throw new Error('tarball: a header has no valid size');
    const type = String.fromCharCode(header[156]!);
    const prefix = field(header, 345, 155);
    const name = nextPath ?? (prefix ? `${prefix}/${field(header, 0, 100)}` : field(header, 0, 100));
    const bodyStart = at + BLOCK;
    const bodyEnd = bodyStart + size;
    if (bodyEnd > tar.length) throw new Error('tarball: truncated');
    const body = tar.subarray(bodyStart, bodyEnd);
    nextPath = undefined;
    if (type === 'x') nextPath = paxPath(body);
    else if (type === '0' || type === '\0') {
      const file = name.replace(/^[^/]+\//, ''); // npm puts everything under one top folder ('package/')
      if (wanted(file)) files.set(file, Buffer.from(body));
    }
    at = bodyStart + Math.ceil(size / BLOCK) * BLOCK;
  }
  return files;
}
