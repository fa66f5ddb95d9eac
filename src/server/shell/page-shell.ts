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
 * A first answer in gzip is one gzip member spliced from parts (gzip-splice.ts): the static
 * parts compressed once, here, the record compressed per request, the islands'
 * HTML stored. A reload is compressed whole, once, and kept (see fill()).
 */
import { crc32, gzipSync } from 'node:zlib';
import type { LookupResponse } from '../../lib/record.ts';
import { BoundedMap } from '../bounded-map.ts';
import { pageRecordJson } from '../../islands/page-record.ts';
import { readProps } from './astro-props.ts';
import { gzipOf, packedOf, packStatic, PartDeflater, storedOf, type Packed } from './gzip-splice.ts';
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
 * How the page is compressed, chosen by measurement on this page (one core): the whole
 * 48 KB page takes 0.3 ms at gzip level 1 and 0.8 ms at level 6, against 0.08 ms for the
 * rest of the answer. So the static parts are compressed once, at start, at level 9, and
 * a first answer compresses only the record (1.5 KB of JSON) and stores the islands' HTML:
 * 20.5 KB. Compressing the islands' 8.5 KB too made 15-16 KB but cost new visitors a
 * quarter of the throughput, at level 4, at level 1 and Huffman-only alike, with the static
 * part before each hole as a preset dictionary or without. A reload gets the whole page at
 * level 6 (12.3 KB), once, then kept. Brotli is not offered: per request it costs 0.18 ms
 * (quality 1) to 0.6 ms (quality 4) for the whole page, its streams cannot be spliced from
 * parts, and quality 11 made 10.2 KB of what level-9 gzip makes 12 KB.
 */
const REPEAT_LEVEL = 6;
/** Level of the record: at 1.5-2.8 KB, 4 is as fast as 1 (782 bytes of 2.8 KB, not 836) and 6 costs half as much again. */
const PART_LEVEL = 4;
const parts = new PartDeflater(PART_LEVEL);

export class ShellError extends Error {}

export class PageShell {
  /** The shell's headers that are the page's own (content type, its CSP), lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly #static: Buffer[];
  readonly #staticPacked: Packed[];
  readonly #holes: Hole[];
  readonly #bundle: IslandBundle;
  /**
   * The records answered last, by the CRC-32 of their JSON: null once seen, the record and
   * its whole page's gzip when seen again. A number, not the 1.5 KB record, notes a record
   * seen once: most are never seen again, and a string kept would outlive the young
   * generation only to be dropped from the old one.
   */
  readonly #pages = new BoundedMap<number, { record: string; body: Buffer } | null>(512);

  private constructor(statics: string[], holes: Hole[], headers: Record<string, string>, bundle: IslandBundle) {
    this.#static = statics.map((text) => Buffer.from(text));
    this.#holes = holes;
    this.headers = headers;
    this.#bundle = bundle;
    this.#staticPacked = this.#static.map((text, i) => packStatic(text, i === statics.length - 1));
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
   * The page for a record: the HTML, or when `gzip` its gzip file. A record seen for the
   * first time gets the spliced gzip: the static parts as compressed at start, the record
   * compressed now, the islands' HTML stored. One seen again (a reload) gets the whole
   * page compressed at once, smaller than the splice (no part can refer back into
   * another), kept as the /json memo keeps answers; a hit compares the whole record, so it
   * is the same page.
   */
  fill(lookup: LookupResponse, gzip: boolean): Buffer {
    const json = pageRecordJson(lookup);
    const record = Buffer.from(json);
    if (!gzip) return Buffer.concat(this.#chunks(lookup, record));
    const crc = crc32(record);
    const kept = this.#pages.get(crc);
    if (kept?.record === json) return kept.body;
    const chunks = this.#chunks(lookup, record);
    // Seen before (or another record with the same CRC-32, which is compressed whole all the same).
    if (kept !== undefined) {
      const body = gzipSync(Buffer.concat(chunks), { level: REPEAT_LEVEL });
      this.#pages.set(crc, { record: json, body });
      return body;
    }
    this.#pages.set(crc, null);
    const packed: Packed[] = [];
    for (let i = 0; i < chunks.length; i++) {
      const chunk = chunks[i]!;
      packed.push(i % 2 === 0 ? this.#staticPacked[i / 2]! : chunk === record ? packedOf(parts.deflate(chunk), chunk, crc) : storedOf(chunk));
    }
    return Buffer.concat(gzipOf(packed));
  }

  /** The page's chunks in order: static, visitor's, static, …, static. */
  #chunks(lookup: LookupResponse, record: Buffer): Buffer[] {
    const chunks = [this.#static[0]!];
    for (let i = 0; i < this.#holes.length; i++) {
      const hole = this.#holes[i]!;
      const text = hole.kind === 'record' ? record : Buffer.from(hole.kind === 'ip' ? lookup.data.ip : renderIsland(this.#bundle, hole, lookup));
      chunks.push(text, this.#static[i + 1]!);
    }
    return chunks;
  }
}

function renderIsland(bundle: IslandBundle, hole: IslandHole, lookup: LookupResponse): string {
  return bundle.renderToString(bundle.jsx(hole.component, { ...hole.props, initial: lookup }));
}
