/**
 * The build's static files, held in memory with their precompressed variants
 * (`.br`, `.gz` written by scripts/postbuild.mjs), and how they are answered: headers
 * worked out once per file, 304 on a matching ETag, the best encoding the client takes,
 * and the 404 page (a section's own, such as /blog/404, before the site's). Hashed
 * assets under `/_astro/` are immutable for a year; everything else revalidates by ETag.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { BASE_SECURITY_HEADERS, NON_HTML_CSP, withDnsLeakZone, withFrameAncestors } from './security-headers.ts';

export interface StaticFile {
  body: Buffer;
  br?: Buffer;
  gzip?: Buffer;
  type: string;
  etag: string;
  /** Every header of a 200 answer but the encoding and length, as node's flat [name, value, ...] list. */
  headers: readonly string[];
  /** The same for a 404 answer (no ETag, not cached). */
  notFoundHeaders: readonly string[];
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8', '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8', '.svg': 'image/svg+xml', '.png': 'image/png',
  '.ico': 'image/x-icon', '.webp': 'image/webp', '.jpg': 'image/jpeg', '.woff2': 'font/woff2',
  '.webmanifest': 'application/manifest+json', '.map': 'application/json',
};

/** A service worker's own CSP governs its fetches: it must reach its origin, nothing else. */
const SERVICE_WORKER_HEADERS = { 'content-security-policy': "default-src 'none'; connect-src 'self'" };

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'public, max-age=0, must-revalidate';

/** Per-page headers Astro wrote for prerendered pages (`staticHeaders: true`). */
function readAstroHeaders(distDir: string): Map<string, Record<string, string>> {
  const map = new Map<string, Record<string, string>>();
  const file = path.join(distDir, '_headers.json');
  if (!existsSync(file)) return map;
  const entries = JSON.parse(readFileSync(file, 'utf8')) as Array<{ pathname: string; headers: Array<{ key: string; value: string }> }>;
  for (const { pathname, headers } of entries) {
    map.set(pathname.replace(/\/$/, '') || '/', Object.fromEntries(headers.map((h) => [h.key.toLowerCase(), h.value])));
  }
  return map;
}

/** URL path a file answers: `/trust.html` answers `/trust`, `/index.html` answers `/`. */
function urlPathOf(rel: string): string {
  const p = '/' + rel.split(path.sep).join('/');
  if (p.endsWith('/index.html')) return p.slice(0, -'/index.html'.length) || '/';
  if (p.endsWith('.html')) return p.slice(0, -'.html'.length);
  return p;
}

export interface StaticSite {
  get(urlPath: string): StaticFile | undefined;
  /** The 404 page for a path: its section's (`/blog/404`) or the site's; undefined without a build. */
  notFoundPage(urlPath: string): StaticFile | undefined;
  size: number;
}

/** A file's headers: the document security set, its type, caching and policy. */
function fileHeaders(type: string, cacheControl: string, csp: string | undefined, etag?: string): string[] {
  const isHtml = type.startsWith('text/html');
  return Object.entries({
    ...BASE_SECURITY_HEADERS,
    'content-type': type,
    'cache-control': cacheControl,
    'content-security-policy': csp ? (isHtml ? withFrameAncestors(csp) : csp) : NON_HTML_CSP,
    vary: 'accept-encoding',
    ...(etag ? { etag } : {}),
  }).flat();
}

/** Loads every file under `dist/client` into memory; `dnsLeakZone` joins its pages' connect-src (withDnsLeakZone). */
export function loadStaticSite(distDir: string, dnsLeakZone: string | null = null): StaticSite {
  const clientDir = path.join(distDir, 'client');
  const files = new Map<string, StaticFile>();
  if (!existsSync(clientDir)) return { get: () => undefined, notFoundPage: () => undefined, size: 0 };
  const pageHeaders = readAstroHeaders(distDir);
  const all = new Set(readdirSync(clientDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name)));
  for (const full of all) {
    if (full.endsWith('.br') || full.endsWith('.gz')) continue;
    const rel = path.relative(clientDir, full);
    const body = readFileSync(full);
    const urlPath = urlPathOf(rel);
    const type = TYPES[path.extname(full)] ?? 'application/octet-stream';
    const etag = `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;
    const csp = (pageHeaders.get(urlPath) ?? (urlPath === '/sw.js' ? SERVICE_WORKER_HEADERS : {}))['content-security-policy'];
    const pageCsp = csp && type.startsWith('text/html') ? withDnsLeakZone(csp, dnsLeakZone) : csp;
    files.set(urlPath, {
      body,
      br: all.has(full + '.br') ? readFileSync(full + '.br') : undefined,
      gzip: all.has(full + '.gz') ? readFileSync(full + '.gz') : undefined,
      type,
      etag,
      headers: fileHeaders(type, urlPath.startsWith('/_astro/') ? IMMUTABLE : REVALIDATE, pageCsp, etag),
      notFoundHeaders: fileHeaders(type, 'no-cache', pageCsp),
    });
  }
  const siteNotFound = files.get('/404');
  return {
    get: (p) => files.get(p),
    notFoundPage(p) {
      const section = /^\/[^/]+\//.exec(p)?.[0];
      return (section && files.get(`${section}404`)) || siteNotFound;
    },
    size: files.size,
  };
}

/**
 * Where a path with trailing slashes moves (301) when the path without them is a file or
 * an on-demand page (`isPage`: /ip-2, /lookup/{ip}), with its query re-encoded rather than
 * repeated raw; undefined otherwise. The slashes are trimmed by a scan: the regex `/\/+$/`
 * is quadratic on a long run of slashes.
 */
export function slashRedirect(site: StaticSite, path: string, rawQuery: string, isPage?: (path: string) => boolean): string | undefined {
  let end = path.length;
  while (end > 1 && path.charCodeAt(end - 1) === 47) end--;
  if (end === path.length) return undefined;
  const target = path.slice(0, end);
  if (!site.get(target) && !isPage?.(target)) return undefined;
  const query = new URLSearchParams(rawQuery).toString();
  return encodeURI(path.slice(0, end)) + (query ? `?${query}` : '');
}

/** What a file answer needs to know of its request. */
export interface FileRequest {
  method: string;
  ifNoneMatch: string | undefined;
  acceptEncoding: string | undefined;
}

/** A file's answer: headers as node's flat list (encoding and length included), status and body. */
export interface FileAnswer {
  status: number;
  headers: string[];
  body: Buffer | undefined;
}

/**
 * Answers a file: 200 (or 304 when the ETag matches), or 404 for a not-found page. The
 * 404 pages are never a success, even when asked for by name.
 */
export function answerFile(file: StaticFile, req: FileRequest, notFound = false): FileAnswer {
  const status = notFound ? 404 : 200;
  if (!notFound && req.ifNoneMatch === file.etag) return { status: 304, headers: file.headers.slice(), body: undefined };
  const { body, encoding } = negotiate(file, req.acceptEncoding);
  const headers = (notFound ? file.notFoundHeaders : file.headers).slice();
  if (encoding) headers.push('content-encoding', encoding);
  headers.push('content-length', String(body.length));
  return { status, headers, body: req.method === 'HEAD' ? undefined : body };
}

const CODINGS = { br: /\bbr\b/, gzip: /\bgzip\b/, zstd: /\bzstd\b/ } as const;
/** Whether an Accept-Encoding header names a coding (files and the page shells decide alike). */
export const accepts = (acceptEncoding: string | null | undefined, coding: keyof typeof CODINGS): boolean =>
  !!acceptEncoding && CODINGS[coding].test(acceptEncoding);

/** Picks the best encoding the client accepts among those we have. */
export function negotiate(file: StaticFile, acceptEncoding: string | undefined): { body: Buffer; encoding?: 'br' | 'gzip' } {
  if (file.br && accepts(acceptEncoding, 'br')) return { body: file.br, encoding: 'br' };
  if (file.gzip && accepts(acceptEncoding, 'gzip')) return { body: file.gzip, encoding: 'gzip' };
  return { body: file.body };
}
