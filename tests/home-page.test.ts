/**
 * `/` filled from its prebuilt shell (src/server/pages.ts) against what the per-request
 * Astro render produced for the same records before the shell replaced it
 * (tests/fixtures/home-page, written by scripts/snapshot-home.ts in the commit that added
 * them): byte for byte, once the parts that differ between builds are set aside (island
 * uids, which Astro hashes from the HTML and never reads; stylesheet links, which Astro
 * groups differently for prerendered pages, the same rules either way). Then the answer
 * itself: encodings, headers. Needs `npm run build`.
 *
 * When src/pages/index.astro changes on purpose (a new tab), read the diff this test
 * shows, then rewrite the pages with `UPDATE_HOME_SNAPSHOTS=1 npx vitest run
 * tests/home-page.test.ts`: the islands' own HTML stays checked against React by
 * tests/shell-renderer.test.ts and by the server at every start.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { clientConfigFromEnv } from '../src/lib/client-config.ts';
import type { LookupResponse } from '../src/lib/record.ts';
import type { AppRequest } from '../src/server/http.ts';
import { loadPages, pickEncoding, type PageSet } from '../src/server/pages.ts';
import { decodeProps } from '../src/server/shell/astro-props.ts';
import { createTestApp, type AppRequestFn } from './app-harness.ts';

const FIXTURES = 'tests/fixtures/home-page';
const NAMES = readdirSync(FIXTURES).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -'.json'.length));
const CLIENT_CONFIG = clientConfigFromEnv({});

/** What differs between two builds of the same page without changing what anyone sees. */
const perBuild = (html: string) => html
  .replace(/ uid="[^"]*"/g, ' uid=""')
  .replace(/<link rel="stylesheet" href="[^"]*">/g, '');

/** The page `/` filled with one given record, as the server fills it. */
let record: LookupResponse;
let pages: PageSet;
beforeAll(async () => {
  pages = (await loadPages('dist', { '/': { values: () => ({ lookup: record }) } }, { clientConfig: CLIENT_CONFIG }))!;
  expect(pages, 'no build: run `npm run build` first').toBeDefined();
});

function answer(lookup: LookupResponse, acceptEncoding: string | null = null, method = 'GET') {
  record = lookup;
  const req = {
    method, path: '/', query: new URLSearchParams(), clientIp: lookup.data.ip, clientAddress: undefined,
    headers: { get: (name: string) => (name === 'accept-encoding' ? acceptEncoding : null) },
    body: async () => Buffer.alloc(0),
  } satisfies AppRequest;
  const res = pages.answer(req);
  const headers = new Map<string, string>();
  for (let i = 0; i < res.headers.length; i += 2) headers.set(res.headers[i]!, res.headers[i + 1]!);
  return { ...res, headers };
}
const html = (lookup: LookupResponse) => answer(lookup).body!.toString('utf8');
const fixture = (name: string) => JSON.parse(readFileSync(`${FIXTURES}/${name}.json`, 'utf8')) as LookupResponse;

describe('the page filled from the shell', () => {
  it.each(NAMES)('is what the per-request render produced for the %s record', (name) => {
    if (process.env.UPDATE_HOME_SNAPSHOTS === '1') writeFileSync(`${FIXTURES}/${name}.html`, html(fixture(name)));
    const before = readFileSync(`${FIXTURES}/${name}.html`, 'utf8');
    expect(perBuild(html(fixture(name)))).toBe(perBuild(before));
  });

  it.each(NAMES)('gives each island the %s record exactly, as the browser reads its props', (name) => {
    const lookup = fixture(name);
    const islands = [...html(lookup).matchAll(/<astro-island [^>]*props="([^"]*)"/g)].map((m) => decodeProps(m[1]!));
    const given = islands.filter((props) => 'initial' in props);
    expect(given.length).toBeGreaterThanOrEqual(4);
    for (const props of given) expect(props.initial).toEqual(lookup);
  });
});

describe('encodings', () => {
  const lookup = () => fixture('ipv4');

  it.each([
    ['br, gzip', 'gzip'],
    ['gzip, deflate, br, zstd', 'gzip'],
    ['br', 'br'],
    ['gzip;q=0, br', 'br'],
    ['identity', undefined],
    [null, undefined],
  ] as const)('Accept-Encoding %j is answered with %s, and decodes to the same page', (accept, encoding) => {
    const plain = answer(lookup()).body!;
    const res = answer(lookup(), accept);
    expect(res.headers.get('content-encoding')).toBe(encoding);
    expect(res.headers.get('vary')).toBe('accept-encoding');
    expect(Number(res.headers.get('content-length'))).toBe(res.body!.length);
    const decoded = encoding === 'gzip' ? gunzipSync(res.body!) : encoding === 'br' ? brotliDecompressSync(res.body!) : res.body!;
    expect(decoded.equals(plain)).toBe(true);
  });

  it('decodes every fixture record the same through gzip, twice in a row (the memo answers the second)', () => {
    for (const name of NAMES) {
      const plain = answer(fixture(name)).body!;
      for (let i = 0; i < 2; i++) expect(gunzipSync(answer(fixture(name), 'gzip').body!).equals(plain), name).toBe(true);
    }
  });

  it('keeps a typical record\'s page small with gzip', () => {
    expect(answer(lookup(), 'gzip').body!.length).toBeLessThan(11 * 1024);
  });

  it.each([
    ['gzip', 'gzip'], ['GZIP', 'gzip'], ['br', 'br'], ['br, gzip', 'gzip'], ['gzip;q=0', undefined], ['gzip;q=0, br;q=0.1', 'br'],
    ['gzip; q=0.001', 'gzip'], ['*', 'gzip'], ['*;q=0', undefined], ['x-gzip', undefined], ['deflate', undefined], ['', undefined],
  ] as const)('pickEncoding(%j) is %s', (header, expected) => {
    expect(pickEncoding(header)).toBe(expected);
  });
});

describe('headers of /', () => {
  it('carry the document headers, the page CSP and the time spent', () => {
    const res = answer(fixture('ipv4'), 'gzip');
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('server-timing')).toMatch(/^lookup;dur=\d+\.\d{3};desc="IP lookup", page;dur=\d+\.\d{3};desc="[^"]+", total;dur=\d+\.\d{3}$/);
  });

  it('allows every inline script of the page by its hash, and nothing inline else', () => {
    const res = answer(fixture('hostile'));
    const csp = res.headers.get('content-security-policy')!;
    // Scripts that run: no src, and not a data block such as JSON-LD.
    const scripts = [...res.body!.toString('utf8').matchAll(/<script(?![^>]*\b(?:src=|type="application\/ld\+json"))[^>]*>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, body] of scripts) {
      expect(csp).toContain(`'sha256-${createHash('sha256').update(body!).digest('base64')}'`);
    }
    expect(csp).not.toContain('unsafe-inline');
  });

  it('answers HEAD with the headers of GET and no body', () => {
    const get = answer(fixture('ipv4'), 'gzip');
    const head = answer(fixture('ipv4'), 'gzip', 'HEAD');
    expect(head.body).toBeUndefined();
    expect(head.headers.get('content-length')).toBe(get.headers.get('content-length'));
  });
});

describe('/ in-process through app.request()', () => {
  let request: AppRequestFn;
  beforeAll(async () => { request = await createTestApp({ TRUST_PROXY: 'loopback' }); });

  it('answers the page with the visitor\'s record, gzipped', async () => {
    const res = await request('/', { headers: { 'x-forwarded-for': '8.8.8.8', 'accept-encoding': 'gzip', 'user-agent': 'Mozilla/5.0' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('vary')).toBe('accept-encoding');
    const body = gunzipSync(Buffer.from(await res.arrayBuffer())).toString('utf8');
    expect(body).toMatch(/data-testid="ip"[^>]*>8\.8\.8\.8</);
  });

  it('answers a visitor again from the memo, and never another visitor\'s page', async () => {
    const visit = async (ip: string, ua: string) => {
      const res = await request('/', { headers: { 'x-forwarded-for': ip, 'accept-encoding': 'gzip', 'user-agent': ua } });
      return { timing: res.headers.get('server-timing'), html: gunzipSync(Buffer.from(await res.arrayBuffer())).toString('utf8') };
    };
    const chrome = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';
    const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0';
    const first = await visit('1.1.1.1', chrome);
    const again = await visit('1.1.1.1', chrome);
    expect(again.timing).toMatch(/desc="Page from the memo"/);
    expect(again.html).toBe(first.html);
    const otherBrowser = await visit('1.1.1.1', firefox);
    expect(otherBrowser.timing).toMatch(/desc="IP lookup"/);
    expect(otherBrowser.html).toContain('&quot;browser&quot;:[0,&quot;Firefox&quot;]');
    const otherAddress = await visit('9.9.9.9', chrome);
    expect(otherAddress.html).toMatch(/data-testid="ip"[^>]*>9\.9\.9\.9</);
  });

  it('refuses other methods with 405', async () => {
    const res = await request('/', { method: 'POST', headers: { 'user-agent': 'Mozilla/5.0' } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
  });
});
