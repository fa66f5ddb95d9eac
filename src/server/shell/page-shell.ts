/**
 * `/` as a prebuilt shell: the page Astro rendered once, at start, for a placeholder
 * record, cut where the visitor's record goes. What changes per visitor is only what
 * depends on the record: the page's one data block that carries it (src/islands/page-record.ts)
 * and the server HTML of the islands that read it, rendered per request by the very island
 * components through the string renderer (jsx-string.ts). Everything else (layout, texts,
 * the islands' props, scripts, the CSP that hashes them) is the shell's, byte for byte.
 *
 * Compiling checks itself: each island the shell cuts out must render, for the placeholder,
 * exactly what Astro rendered; a page the shell cannot reproduce is refused (the server
 * then renders it through Astro as before). tests/page-shell.test.ts compares whole pages,
 * shell against Astro, over many records.
 *
 * Compressed (zstd when the browser takes it, else gzip), a first answer is the page
 * compressed whole at a fast level; a reload is compressed at a higher level, once, and kept
 * (see fill()).
 */
import { crc32 } from 'node:zlib';
import type { LookupResponse } from '../../lib/record.ts';
import { SecondHitMemo } from '../utils/bounded-map.ts';
import { pageRecordJson } from '../../islands/page-record.ts';
import { readProps } from './astro-props.ts';
import { PageGzip, PageZstd, zstdPages } from './page-compress.ts';
import type { CapturedPage } from './render-capture.ts';

/** What scripts/build-islands.mjs bundles: the record's islands and the renderer they run in. */
export interface IslandBundle {
  islands: Record<string, (props: never) => unknown>;
  jsx(type: unknown, props: Record<string, unknown>): unknown;
  renderToString(node: unknown): string;
}

/** A cut in the shell: the record's data block, an island's HTML, or the address as text (an address's page names it). */
interface IslandHole { kind: 'island'; name: string; component: unknown; props: Record<string, unknown> }
type Hole = { kind: 'record' } | { kind: 'ip' } | IslandHole;
const RECORD: Hole = { kind: 'record' };
const IP: Hole = { kind: 'ip' };

const ISLAND_TAG = /<astro-island\s[^>]*>/g;
const CLOSE = '</astro-island>';
const END_MARK = '<!--astro:end-->';
/** An island's props that take the page's record (PageRecord's marker, as Astro writes it). */
const PAGE_MARK = '{&quot;from&quot;:[0,&quot;page&quot;]}';
/** The component's name in its built file name: `/_astro/IpBox.DmHuddO0.js` → IpBox. */
const componentName = (tag: string) => /\scomponent-url="[^"]*\/([A-Za-z0-9_]+)\.[^"/]*"/.exec(tag)?.[1];

/**
 * How the page is compressed, chosen by measurement on this page (the figures:
 * docs/benchmarks.md, "Compressing `/`"). A first answer is compressed whole at gzip level
 * 2, small enough that with its headers it fits in a new connection's first flight (TCP's
 * initial window: ten segments, about 14 KB; tests/page-shell.test.ts holds it to 10 KB),
 * and cheap enough per new visitor. Compressing the whole page beat splicing compressed
 * parts (the static parts compressed once at start, the visitor's parts per request): no
 * part can refer back into another, so the splice was larger. Level 1 was no faster; levels
 * 3 and 4 cost more for little. A reload gets level 6, once, then kept. Brotli is not
 * offered: its fast qualities are no better than gzip level 2, and its better ones cost many
 * times more per page. zstd, where the browser takes it, is level 3 for a first
 * answer: a little smaller than gzip level 2, in a little over half its time
 * (page-compress.ts); a reload gets level 6 (as small as gzip's 6), kept, as with gzip.
 */
export type PageEncoding = 'gzip' | 'zstd';
/** A first visit's level per encoding (bench/floor-server.mjs compresses its floor page at it too). */
export const FIRST_LEVEL = { gzip: 2, zstd: 3 } as const;
const FIRST = { gzip: new PageGzip(FIRST_LEVEL.gzip), zstd: zstdPages ? new PageZstd(FIRST_LEVEL.zstd) : undefined };
const REPEAT = { gzip: new PageGzip(6), zstd: zstdPages ? new PageZstd(6) : undefined };

export class ShellError extends Error {}

/** A record's page as kept: the record's JSON (a hit compares it whole) and the compressed page. */
interface Kept { record: string; body: Buffer }

export class PageShell {
  /** The shell's headers that are the page's own (content type, its CSP), lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly #static: Buffer[];
  readonly #holes: Hole[];
  readonly #bundle: IslandBundle;
  /**
   * The records answered last, by the CRC-32 of their JSON: noted once seen, the record and
   * its whole page's gzip kept when seen again. A number, not the 1.5 KB record, notes a
   * record seen once: most are never seen again.
   */
  readonly #pages = { gzip: new SecondHitMemo<number, Kept>(512), zstd: new SecondHitMemo<number, Kept>(512) };

  private constructor(statics: string[], holes: Hole[], headers: Record<string, string>, bundle: IslandBundle) {
    this.#static = statics.map((text) => Buffer.from(text));
    this.#holes = holes;
    this.headers = headers;
    this.#bundle = bundle;
  }

  /** Cuts the page Astro rendered for `placeholder`; throws ShellError when it cannot reproduce it. */
  static compile(page: CapturedPage, placeholder: LookupResponse, bundle: IslandBundle): PageShell {
    if (page.status !== 200) throw new ShellError(`the page answered ${page.status}`);
    const { html } = page;
    const record = pageRecordJson(placeholder);
    const at = html.indexOf(record);
    if (at === -1) throw new ShellError('the page carries no record (src/components/PageRecordData.astro)');
    if (html.includes(record, at + 1)) throw new ShellError('the page carries the record twice');
    const cuts: Array<{ start: number; end: number; hole: Hole }> = [{ start: at, end: at + record.length, hole: RECORD }];
    for (const match of html.matchAll(ISLAND_TAG)) {
      const tag = match[0];
      const props = /\sprops="([^"]*)"/.exec(tag)?.[1];
      if (!props?.includes(PAGE_MARK)) continue;
      const islandProps = readProps(props);
      const name = componentName(tag);
      if ((islandProps.initial as { from?: unknown } | undefined)?.from !== 'page') throw new ShellError(`${name} takes the page's record under another name than initial`);
      const component = name === undefined ? undefined : bundle.islands[name];
      if (!component) throw new ShellError(`the island ${name ?? tag.slice(0, 80)} takes the record but has no string renderer (src/server/shell/islands.ts)`);
      const start = match.index + tag.length;
      const close = html.indexOf(CLOSE, start);
      const end = html.startsWith(END_MARK, close - END_MARK.length) ? close - END_MARK.length : close;
      const hole: IslandHole = { kind: 'island', name: name!, component, props: islandProps };
      const rendered = renderIsland(bundle, hole, placeholder);
      if (rendered !== html.slice(start, end)) {
        throw new ShellError(`${name} renders differently through the string renderer:\n  astro: ${html.slice(start, end).slice(0, 400)}\n  shell: ${rendered.slice(0, 400)}`);
      }
      cuts.push({ start, end, hole });
    }
    if (cuts.length === 1) throw new ShellError("no island takes the page's record");
    cuts.sort((x, y) => x.start - y.start);
    const statics: string[] = [];
    const holes: Hole[] = [];
    let cursor = 0;
    for (const { start, end, hole } of cuts) {
      statics.push(html.slice(cursor, start));
      holes.push(hole);
      cursor = end;
    }
    statics.push(html.slice(cursor));
    // Outside the islands, the address as the page writes it (title, heading): no escaping
    // changes an address, and the placeholder's appears in no text of ours (load.ts checks).
    for (let i = statics.length - 1; i >= 0; i--) {
      const pieces = statics[i]!.split(placeholder.data.ip);
      statics.splice(i, 1, ...pieces);
      holes.splice(i, 0, ...pieces.slice(1).map(() => IP));
    }
    const headers: Record<string, string> = {};
    for (const name of ['content-type', 'content-security-policy']) if (page.headers[name]) headers[name] = page.headers[name];
    return new PageShell(statics, holes, headers, bundle);
  }

  /**
   * The page for a record: the HTML, or with `encoding` its compressed file (zstd only where
   * this node has it: `zstdPages`). A record seen for the first time gets its page compressed
   * at the fast level. One seen again (a reload) gets it compressed at the higher level, kept
   * as the /json memo keeps answers; a hit compares the whole record, so it is the same page.
   */
  fill(lookup: LookupResponse, encoding?: PageEncoding): Buffer {
    const json = pageRecordJson(lookup);
    const record = Buffer.from(json);
    if (!encoding) return this.#page(lookup, record);
    const pages = this.#pages[encoding];
    const crc = crc32(record);
    const kept = pages.get(crc);
    if (kept?.record === json) return kept.body;
    // Seen before (or another record with the same CRC-32, which is compressed all the same).
    const body = (pages.has(crc) ? REPEAT : FIRST)[encoding]!.compress(this.#page(lookup, record));
    pages.offer(crc, { record: json, body });
    return body;
  }

  /** The page: static, visitor's, static, …, static. */
  #page(lookup: LookupResponse, record: Buffer): Buffer {
    const chunks = [this.#static[0]!];
    for (let i = 0; i < this.#holes.length; i++) {
      const hole = this.#holes[i]!;
      const text = hole.kind === 'record' ? record : Buffer.from(hole.kind === 'ip' ? lookup.data.ip : renderIsland(this.#bundle, hole, lookup));
      chunks.push(text, this.#static[i + 1]!);
    }
    return Buffer.concat(chunks);
  }
}

function renderIsland(bundle: IslandBundle, hole: IslandHole, lookup: LookupResponse): string {
  return bundle.renderToString(bundle.jsx(hole.component, { ...hole.props, initial: lookup }));
}
