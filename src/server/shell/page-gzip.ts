/**
 * gzip for the pages served from a shell, at one level per use (a fast one for a first visit,
 * a higher one for a page kept for reloads). Plain zlib.gzipSync: a zlib stream kept open and
 * driven through node's internals was measured against it on the same 28 KB pages, alternating
 * (15 pairs of 3,000 pages, level 2): 2% faster at the median, under the 10% that would pay for
 * code reaching into node's private fields, so it went.
 */
import { gzipSync } from 'node:zlib';

export class PageGzip {
  readonly #level: number;

  constructor(level: number) {
    this.#level = level;
  }

  /** The gzip file of `page`, standing alone. */
  gzip(page: Buffer): Buffer {
    return gzipSync(page, { level: this.#level });
  }
}
