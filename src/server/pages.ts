/**
 * The pages Astro built as shells (dist/shells, see scripts/build-shells.mjs), answered
 * per request: the request's values (the visitor's record) filled into the page
 * (shell/shell-page.ts), compressed as the client accepts, with the page's own CSP,
 * `private, no-store` and Server-Timing. Pure: no Astro, no React, no I/O per request,
 * so `app.request()` answers them in-process like any other route.
 *
 * Encoding: gzip whenever the client takes it, spliced from parts compressed at start
 * (shell/gzip-splice.ts); brotli only for a client that takes brotli and not gzip,
 * compressed whole per request (brotli cannot be spliced: its blocks carry state from
 * the ones before); identity otherwise. bench/api.mjs and the README give the figures
 * behind the levels.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants } from 'node:zlib';
import type { ShellValues } from '../lib/page-shell.ts';
import { AdaptiveMemo } from './bounded-map.ts';
import type { AppRequest } from './http.ts';
import { BASE_SECURITY_HEADERS, withFrameAncestors } from './security-headers.ts';
import type { FileAnswer } from './static-site.ts';
import { SplicedGzip } from './shell/gzip-splice.ts';
import { bindShell, compileShell, type Hole, type IslandCode, type ShellTemplate } from './shell/shell-page.ts';

/**
 * What a page needs from a request: `values` gives the values the page marks (the
 * record); the rest are known at start. `key`, when given, names everything of the
 * request those values depend on: pages with the same key are the same bytes, and the
 * page memo may answer them (the databases do not change while the process runs).
 */
export interface PageValues {
  values(req: AppRequest): Partial<ShellValues>;
  key?(req: AppRequest): string;
}

/** The shell pages the server answers. */
export interface PageSet {
  has(path: string): boolean;
  /** Answers a GET or HEAD of a path `has()` accepts. */
  answer(req: AppRequest): FileAnswer;
}

/**
 * Answers kept per page by their key and encoding: a visitor who reloads gets the bytes
 * sent before. It stands aside while fewer than 2 in 5 requests hit (AdaptiveMemo), as
 * with distinct visitors.
 */
const PAGE_MEMO = 512;

/**
 * How `/` is gzipped per request (shell/gzip-splice.ts). Measured on `/` for 8.8.8.8
 * (36 KB of HTML): each per-request part compressed alone 11.6 KB; parts joined with the
 * statics under 1 KiB between them 11.2 KB; with 4 KiB of the static text before each run
 * as its dictionary 10.7 KB. Level 6 instead of 1 saves another 150 bytes for about twice
 * the CPU. The whole page at gzip -9 would be 8.6 KB, for some 25 times the CPU per request.
 */
export const GZIP = { level: 1, mergeBelow: 1024, dictionary: 4096, memo: 256 };
/**
 * Brotli quality for clients that take brotli and not gzip (rare: every browser takes
 * gzip). The whole page per request: quality 4 gives 8.6 KB; 1 gives 9.9 KB for half the
 * CPU, 5 gives 8.0 KB for 1.5 times.
 */
export const BROTLI_QUALITY = 4;

/** What an Accept-Encoding header lets us send: gzip first (it costs least per request), then brotli. */
export function pickEncoding(header: string | null): 'gzip' | 'br' | undefined {
  if (!header) return undefined;
  const accepted = new Map<string, boolean>();
  for (const item of header.toLowerCase().split(',')) {
    const [name, ...params] = item.trim().split(';');
    const q = params.map((p) => /^\s*q\s*=\s*([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    accepted.set(name!.trim(), q === undefined || Number(q) > 0);
  }
  const takes = (name: string) => accepted.get(name) ?? accepted.get('*') ?? false;
  return takes('gzip') ? 'gzip' : takes('br') ? 'br' : undefined;
}

const ms = (t: number) => t.toFixed(3);

/** One shell page, ready to fill. */
function shellPage(template: ShellTemplate, csp: string | undefined, route: PageValues, known: Partial<ShellValues>) {
  const { statics, holes } = template;
  // A hole that stands in several places (the record in each island's props) is filled once.
  const first = holes.map((hole) => holes.indexOf(hole));
  const gzip = new SplicedGzip(statics, first, GZIP);
  const encoded = statics.map((text) => Buffer.from(text, 'utf8'));
  const headers = Object.entries({
    ...BASE_SECURITY_HEADERS,
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'private, no-store',
    'content-security-policy': csp ? withFrameAncestors(csp) : "default-src 'self'; frame-ancestors 'none'",
    vary: 'accept-encoding',
  }).flat();

  const memo = new AdaptiveMemo<string, Buffer>(PAGE_MEMO, { minHitRate: 0.4 });
  const answer = (req: AppRequest, body: Buffer, encoding: string | undefined, timing: string): FileAnswer => {
    const list = headers.slice();
    list.push('server-timing', timing);
    if (encoding) list.push('content-encoding', encoding);
    list.push('content-length', String(body.length));
    return { status: 200, headers: list, body: req.method === 'HEAD' ? undefined : body };
  };

  return (req: AppRequest): FileAnswer => {
    const start = performance.now();
    const encoding = pickEncoding(req.headers.get('accept-encoding'));
    const key = route.key && `${encoding}\n${route.key(req)}`;
    const kept = key === undefined ? undefined : memo.get(key);
    if (kept) return answer(req, kept, encoding, `page;dur=${ms(performance.now() - start)};desc="Page from the memo"`);
    const filled = { ...known, ...route.values(req) };
    const looked = performance.now();
    const parts: string[] = new Array(holes.length);
    for (let i = 0; i < holes.length; i++) parts[i] = first[i] === i ? (holes[i] as Hole).fill(filled) : parts[first[i]!]!;
    let body: Buffer;
    if (encoding === 'gzip') body = gzip.gzip(parts);
    else {
      // The statics are encoded once; only the parts are encoded per request.
      const buffers: Buffer[] = [encoded[0]!];
      for (let i = 0; i < parts.length; i++) buffers.push(Buffer.from(parts[i]!, 'utf8'), encoded[i + 1]!);
      body = Buffer.concat(buffers);
      if (encoding === 'br') body = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } });
    }
    if (key !== undefined) memo.set(key, body);
    const done = performance.now();
    return answer(req, body, encoding, `lookup;dur=${ms(looked - start)};desc="IP lookup", page;dur=${ms(done - looked)};desc="Page filled and compressed", total;dur=${ms(done - start)}`);
  };
}

/** The server's builds of the islands (scripts/build-shells.mjs), loaded when a shell has islands to re-render. */
async function islandCode(distDir: string): Promise<IslandCode> {
  const dir = pathToFileURL(path.join(distDir, 'server', 'shell-islands') + '/');
  type ReactBuild = Record<string, Record<string, unknown>> & {
    renderToString(element: unknown, options: { identifierPrefix: string }): string;
    createElement(component: unknown, props: object): unknown;
  };
  return {
    fast: (await import(new URL('fast.mjs', dir).href)) as IslandCode['fast'],
    async loadReact() {
      const react = (await import(new URL('react.mjs', dir).href)) as ReactBuild;
      return (name, exportName, props, identifierPrefix) =>
        react.renderToString(react.createElement(react[name]![exportName], props), { identifierPrefix });
    },
  };
}

/**
 * Loads the shells of a build and prepares each route in `routes` (path → the values
 * only a request knows); `known` fills the rest once. Undefined when there is no build.
 * Throws, naming the page and the place, when a shell cannot be filled faithfully.
 */
export async function loadPages(distDir: string, routes: Record<string, PageValues>, known: Partial<ShellValues>): Promise<PageSet | undefined> {
  const manifestFile = path.join(distDir, 'shells', 'manifest.json');
  if (!existsSync(manifestFile)) return undefined;
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Array<{ route: string; file: string; csp?: string }>;
  const pages = new Map<string, (req: AppRequest) => FileAnswer>();
  for (const { route, file, csp } of manifest) {
    const values = routes[route];
    if (!values) throw new Error(`dist/shells has ${route}, which no route fills`);
    const html = readFileSync(path.join(distDir, 'shells', file), 'utf8');
    const template = await compileShell(html, () => islandCode(distDir));
    for (const { name, reason } of template.slowIslands) console.warn(`page ${route}: island ${name} renders through React per request (${reason})`);
    pages.set(route, shellPage(bindShell(template, known), csp, values, known));
  }
  return {
    has: (p) => pages.has(p),
    answer: (req) => pages.get(req.path)!(req),
  };
}
