/**
 * A local HTTP server standing in for the upstream data sources (the public lists, the npm
 * registry): it serves files in each upstream's real format from tests/fixtures/upstream/
 * (or bodies a test sets), answers a conditional GET with 304 as the upstreams do, and
 * serves the faults a download must survive. Listens on an ephemeral loopback port.
 */
import { createServer, type Server } from 'node:http';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { LIST_SOURCES, PACKAGES_SOURCE } from '../../src/server/data-update/list-sources.ts';

/** The folder of upstream-format fixtures. */
export const UPSTREAM = path.resolve('tests/fixtures/upstream');

/** Faults served at their own path: `${base}/fault/<name>`. */
export const FAULTS = {
  html: 'an HTML error page with status 200',
  empty: 'an empty body',
  truncated: 'a body cut short of its Content-Length',
  huge: 'a body that never ends (and announces no length)',
  announcedHuge: 'a Content-Length of 10 GB',
  garbage: 'a list that is mostly lines that are not addresses',
  hang: 'a server that never answers',
  loop: 'a redirect to itself, for ever',
  status500: 'an error status',
} as const;

export interface FixtureServer {
  base: string;
  /** Requests seen per path, and how many of them were answered 304. */
  hits: Map<string, number>;
  notModified: Map<string, number>;
  /** Sets (or replaces) the body served at a path. */
  set(urlPath: string, body: string | Buffer, type?: string): void;
  close(): Promise<void>;
}

const etagOf = (body: string | Buffer) => `"${createHash('sha1').update(body).digest('hex').slice(0, 16)}"`;

export async function startFixtureServer(): Promise<FixtureServer> {
  const bodies = new Map<string, { body: string | Buffer; type: string }>();
  const hits = new Map<string, number>();
  const notModified = new Map<string, number>();
  const count = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
  const server: Server = createServer((req, res) => {
    const url = (req.url ?? '/').split('?')[0]!;
    count(hits, url);
    switch (url) {
      case '/fault/html': return void res.writeHead(200, { 'content-type': 'text/html' }).end('<!DOCTYPE html><html><head><title>503</title></head><body><h1>Service unavailable</h1><p>Please try again later.</p></body></html>\n');
      case '/fault/empty': return void res.writeHead(200, { 'content-type': 'text/plain' }).end('');
      case '/fault/truncated':
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '100000' });
        res.write('185.220.101.1\n185.220.101.3\n185.2');
        setTimeout(() => res.destroy(), 20);
        return;
      case '/fault/huge': {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = Buffer.from('185.220.101.1\n'.repeat(4096));
        const pump = () => { while (res.write(chunk)) { /* fill the socket */ } };
        res.on('drain', pump);
        res.on('close', () => res.off('drain', pump));
        pump();
        return;
      }
      case '/fault/announcedHuge':
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(10 * 1024 ** 3) });
        res.write('185.220.101.1\n');
        return;
      case '/fault/garbage': return void res.writeHead(200, { 'content-type': 'text/plain' }).end('185.220.101.1\nnot an address\n<div>\nundefined\n999.1.1.1\nnull\n');
      case '/fault/hang': return; // headers never come
      case '/fault/loop': return void res.writeHead(302, { location: '/fault/loop' }).end();
      case '/fault/status500': return void res.writeHead(500, { 'content-type': 'text/plain' }).end('internal error');
    }
    let found = bodies.get(url);
    if (!found) {
      try {
        found = { body: readFileSync(path.join(UPSTREAM, path.normalize(url))), type: url.endsWith('.json') ? 'application/json' : 'text/plain' };
      } catch {
        return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      }
    }
    const etag = etagOf(found.body);
    if (req.headers['if-none-match'] === etag) {
      count(notModified, url);
      return void res.writeHead(304, { etag }).end();
    }
    res.writeHead(200, { 'content-type': found.type, etag }).end(found.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    hits,
    notModified,
    set: (urlPath, body, type = 'text/plain') => { bodies.set(urlPath, { body, type }); },
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

/** Every list source's URL on a fixture server (the settings' values a test passes). */
export function fixtureUrls(base: string): Record<string, string> {
  return {
    tor: `${base}/torbulkexitlist`,
    relay: `${base}/egress-ip-ranges.csv`,
    'x4bnet-vpn': `${base}/lists_vpn`,
    'x4bnet-datacenter': `${base}/lists_vpn`,
    aws: `${base}/ip-ranges.json`,
    'google-cloud': `${base}/cloud.json`,
    'oracle-cloud': `${base}/public_ip_ranges.json`,
    cloudflare: base,
    digitalocean: `${base}/geo.csv`,
    registry: `${base}/registry`,
  };
}

/** The same as environment settings (each source's own setting), for a spawned server. */
export function fixtureEnv(base: string): Record<string, string> {
  const urls = fixtureUrls(base);
  return { ...Object.fromEntries(LIST_SOURCES.map((s) => [s.setting, urls[s.id]!])), [PACKAGES_SOURCE.setting]: urls.registry! };
}
