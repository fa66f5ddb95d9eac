/**
 * The service worker, generated at build time so its cache name follows the build:
 * the version is a hash of the build's inputs (identical on every machine building the
 * same commit), so a deploy of new code or content installs a new worker that drops the
 * old cache. Policy: hashed assets cache-first; other public
 * GETs (the static pages) network-first with the cache as the offline fallback; `/`,
 * `/api/*` and any private or no-store response (per-visitor answers) never cached.
 * Requests to other origins are never answered by the worker: the map tiles, the IPv4/IPv6
 * echo URLs and the DNS leak test's names (`https://<token>-1.<zone>/`, each of which must
 * reach the network so the browser resolves it) go out as if there were no worker; the
 * worker's own CSP (`connect-src 'self'`, src/server/http/static-site.ts) would block them.
 */
import type { APIRoute } from 'astro';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export const prerender = true;

/** Runs in the browser; `__VERSION__` is replaced at build. Plain JS: it is served as is. */
const WORKER = `
const CACHE = 'whatismyip-__VERSION__';
const PREFIX = 'whatismyip-';

self.addEventListener('install', () => self.skipWaiting());

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) if (key.startsWith(PREFIX) && key !== CACHE) await caches.delete(key);
    await self.clients.claim();
  })());
});

const networkOnly = (url) => url.pathname === '/' || url.pathname.startsWith('/api/');
const cacheable = (res) => res.ok && res.type === 'basic' && !/private|no-store/.test(res.headers.get('cache-control') || '');

async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request);
  if (hit) return hit;
  const res = await fetch(request);
  if (cacheable(res)) await cache.put(request, res.clone());
  return res;
}

async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    const res = await fetch(request);
    if (cacheable(res)) await cache.put(request, res.clone());
    return res;
  } catch (error) {
    const hit = await cache.match(request, { ignoreSearch: true });
    if (hit) return hit;
    throw error;
  }
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || networkOnly(url)) return;
  event.respondWith(url.pathname.startsWith('/_astro/') ? cacheFirst(request) : networkFirst(request));
});
`;

/** Everything the build is made from; the same commit gives the same version on every machine. */
const INPUTS = ['src', 'content', 'public', 'astro.config.mjs', 'package-lock.json'];

function* files(entry: string): Generator<string> {
  if (!existsSync(entry)) return;
  if (!statSync(entry).isDirectory()) { yield entry; return; }
  for (const name of readdirSync(entry).sort()) yield* files(path.join(entry, name));
}

/**
 * A hash of the worker's code and of every build input. (The hashed asset names would be
 * nicer, but Astro writes the CSS after prerendering, so they are not all known here.)
 */
function buildVersion(): string {
  const hash = createHash('sha256').update(WORKER);
  for (const file of INPUTS.flatMap((i) => [...files(i)])) hash.update(file).update(readFileSync(file));
  return hash.digest('hex').slice(0, 12);
}

export const GET: APIRoute = () => new Response(WORKER.replace('__VERSION__', buildVersion()).trimStart(), {
  headers: { 'content-type': 'text/javascript; charset=utf-8' },
});
