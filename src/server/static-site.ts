/**
 * The build's static files, held in memory with their precompressed variants
 * (`.br`, `.gz` written by scripts/postbuild.mjs). Hashed assets under `/_astro/`
 * are immutable for a year; everything else revalidates by ETag.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';

export interface StaticFile {
  body: Buffer;
  br?: Buffer;
  gzip?: Buffer;
  type: string;
  etag: string;
  cacheControl: string;
  /** Extra headers Astro computed for this page (its Content-Security-Policy). */
  headers: Record<string, string>;
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

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else yield full;
  }
}

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
  notFound: StaticFile | undefined;
  size: number;
}

/** Loads every file under `dist/client` into memory. */
export function loadStaticSite(distDir: string): StaticSite {
  const clientDir = path.join(distDir, 'client');
  const files = new Map<string, StaticFile>();
  if (!existsSync(clientDir)) return { get: () => undefined, notFound: undefined, size: 0 };
  const pageHeaders = readAstroHeaders(distDir);
  const all = new Set(walk(clientDir));
  for (const full of all) {
    if (full.endsWith('.br') || full.endsWith('.gz')) continue;
    const rel = path.relative(clientDir, full);
    const body = readFileSync(full);
    const urlPath = urlPathOf(rel);
    const immutable = urlPath.startsWith('/_astro/');
    files.set(urlPath, {
      body,
      br: all.has(full + '.br') ? readFileSync(full + '.br') : undefined,
      gzip: all.has(full + '.gz') ? readFileSync(full + '.gz') : undefined,
      type: TYPES[path.extname(full)] ?? 'application/octet-stream',
      etag: `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`,
      cacheControl: immutable ? IMMUTABLE : REVALIDATE,
      headers: pageHeaders.get(urlPath) ?? (urlPath === '/sw.js' ? SERVICE_WORKER_HEADERS : {}),
    });
  }
  return { get: (p) => files.get(p), notFound: files.get('/404'), size: files.size };
}

/** Picks the best encoding the client accepts among those we have. */
export function negotiate(file: StaticFile, acceptEncoding: string | undefined): { body: Buffer; encoding?: 'br' | 'gzip' } {
  const accept = acceptEncoding ?? '';
  if (file.br && /\bbr\b/.test(accept)) return { body: file.br, encoding: 'br' };
  if (file.gzip && /\bgzip\b/.test(accept)) return { body: file.gzip, encoding: 'gzip' };
  return { body: file.body };
}
