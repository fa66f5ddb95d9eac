/**
 * The service worker, generated at build time so its cache name follows the build:
 * the version is a hash of the hashed asset names under dist/client/_astro (identical on
 * every machine building the same commit), so a deploy that changes assets installs a
 * new worker that drops the old cache. Policy: hashed assets cache-first; other public
 * GETs (the static pages) network-first with the cache as the offline fallback; `/`,
 * `/api/*` and any private or no-store response (per-visitor answers) never cached.
 */
import type { APIRoute } from 'astro';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
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

/** A hash of the build's hashed asset names and of the worker's own code. */
function buildVersion(): string {
  const assets = path.resolve('dist/client/_astro');
  const names = existsSync(assets) ? readdirSync(assets).filter((n) => !/\.(br|gz)$/.test(n)).sort() : [];
  return createHash('sha256').update(WORKER).update(names.join('\n')).digest('hex').slice(0, 12);
}

export const GET: APIRoute = () => new Response(WORKER.replace('__VERSION__', buildVersion()).trimStart(), {
  headers: { 'content-type': 'text/javascript; charset=utf-8' },
});
