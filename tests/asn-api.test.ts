/**
 * The networks over HTTP, on the real data and the built network index: `GET /api/asn/{n}`
 * and `?q=`, the pages `/AS{n}` and `/networks`, the redirects to a page's one address, the
 * links in from records and provider pages, and the sitemap of the largest networks.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NetworkRecordSchema, NetworkSearchResponseSchema } from '../src/lib/network-record.ts';
import { ApiErrorSchema } from '../src/lib/record.ts';
import { startTestServer, type TestServer } from './support/http-harness.ts';

let s: TestServer;
/** A public client, as the trusted loopback proxy names it: counted by the rate limits, unlike loopback itself. */
const PUBLIC = { 'x-forwarded-for': '8.8.4.4' };
beforeAll(async () => {
  s = await startTestServer({ TRUST_PROXY: 'loopback' });
  // Lists appear while the server runs: they are read within the poll interval.
  const lists = path.join(s.dataDir, 'lists');
  mkdirSync(lists, { recursive: true });
  writeFileSync(path.join(lists, 'tor-exits.txt'), '8.8.8.8\n8.8.4.4\n');
  writeFileSync(path.join(lists, 'hosting.txt'), '8.8.8.0/24,Google\n2001:4860::/48,Google\n');
  await s.routes.networks.ready;
}, 60_000);
afterAll(() => s.close());

const get = (p: string, headers: Record<string, string> = {}) => fetch(`${s.url}${p}`, { headers, redirect: 'manual' });

async function expectError(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(ApiErrorSchema.parse(await res.json()).error.code).toBe(code);
}

describe('GET /api/asn/{n}', () => {
  it("answers a network's record: name, type and why, sizes, places, every prefix", async () => {
    const res = await get('/api/asn/15169');
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('server-timing')).toMatch(/^asn;dur=\d+\.\d+/);
    expect(res.headers.get('cache-control')).toBe('private, max-age=3600');
    const r = NetworkRecordSchema.parse(await res.json());
    expect(r).toMatchObject({ asn: 15169, as: 'AS15169', name: 'Google LLC', country_code: 'US', country: 'United States',
      network_type: 'business', network_type_reason: { by: 'asn_list', word: null }, places: { unit: 'ipv4_addresses' } });
    expect(r.prefixes.ipv4).toContain('8.8.8.0/24');
    expect(r.prefixes.ipv4).toHaveLength(r.ipv4.prefixes);
    expect(r.prefixes.ipv6).toHaveLength(r.ipv6.prefixes);
    expect(r.places.countries[0]!.share).toBeGreaterThan(0.5);
    expect(r.places.countries.reduce((sum, c) => sum + c.share, 0)).toBeLessThanOrEqual(1.000001);
  });

  it('gives the share of its space on each list that is loaded, with the list date, and null for the others', async () => {
    await expect.poll(async () => NetworkRecordSchema.parse(await (await get('/api/asn/15169')).json()).privacy.tor, { timeout: 15_000 }).not.toBeNull();
    const r = NetworkRecordSchema.parse(await (await get('/api/asn/15169')).json());
    const today = new Date().toISOString().slice(0, 10);
    expect(r.privacy.tor).toMatchObject({ ipv6_share: 0, list_date: today });
    expect(r.privacy.tor!.ipv4_share! * r.ipv4.addresses).toBeCloseTo(2, 0);
    expect(r.privacy.hosting!.ipv4_share! * r.ipv4.addresses).toBeCloseTo(256, 0);
    expect(r.privacy.hosting!.ipv6_share! * r.ipv6.blocks_48).toBeCloseTo(1, 2);
    expect(r.privacy).toMatchObject({ vpn: null, proxy: null, relay: null });
  });

  it('takes the number with AS in front, and names a network found by a word of its name', async () => {
    expect(NetworkRecordSchema.parse(await (await get('/api/asn/AS16509')).json()).asn).toBe(16509);
    expect(NetworkRecordSchema.parse(await (await get('/api/asn/as20473')).json()).network_type).toBe('datacenter');
  });

  it.each<[string, string, Record<string, string>]>([
    ['?format=csv', '/api/asn/15169?format=csv', {}],
    ['Accept: text/csv, as the bulk lookup takes it', '/api/asn/15169', { accept: 'text/csv' }],
  ])("gives every prefix as CSV (RFC 4180, CRLF) with %s", async (_, p, headers) => {
    const res = await get(p, headers);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="AS15169-prefixes.csv"');
    expect(res.headers.get('vary')).toBe('accept');
    const body = await res.text();
    expect(body.endsWith('\r\n')).toBe(true);
    const lines = body.slice(0, -2).split('\r\n');
    expect(lines[0]).toBe('prefix,ip_version');
    expect(lines).toContain('8.8.8.0/24,4');
    expect(lines.some((line) => /^2001:4860:[0-9a-f:]*\/\d+,6$/.test(line))).toBe(true);
    const record = NetworkRecordSchema.parse(await (await get('/api/asn/15169')).json());
    expect(lines).toHaveLength(1 + record.ipv4.prefixes + record.ipv6.prefixes);
  });

  it('answers JSON without a CSV ask, and says it varies by Accept', async () => {
    const res = await get('/api/asn/15169', { accept: 'application/json' });
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('vary')).toBe('accept');
  });

  it.each<[string, number, string]>([
    ['/api/asn/4294967295', 404, 'unknown_asn'],
    ['/api/asn/0', 404, 'unknown_asn'],
    ['/api/asn/4294967296', 400, 'invalid_asn'],
    ['/api/asn/-1', 400, 'invalid_asn'],
    ['/api/asn/15169abc', 400, 'invalid_asn'],
    ['/api/asn/xyz', 400, 'invalid_asn'],
    [`/api/asn/${'9'.repeat(10_000)}`, 400, 'invalid_asn'],
    ['/api/asn/%F0%9F%98%80', 400, 'invalid_asn'],
    ['/api/asn/15169?format=xml', 400, 'invalid_format'],
    ['/api/asn/15169?format=csv&format=json', 400, 'invalid_format'],
    ['/api/asn/15169/extra', 404, 'not_found'],
  ])('answers %.40s with %i %s', async (p, status, code) => {
    await expectError(await get(p), status, code);
  });

  it('takes only GET and HEAD', async () => {
    const res = await fetch(`${s.url}/api/asn/15169`, { method: 'POST', body: '{}' });
    await expectError(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')).toBe('GET, HEAD');
  });

  it('counts against the API rate limit', async () => {
    const res = await get('/api/asn/15169', PUBLIC);
    expect(res.headers.get('ratelimit-limit')).toBe('300');
  });
});

describe('GET /api/asn?q=', () => {
  const search = async (q: string, limit?: number) => {
    const res = await get(`/api/asn?q=${encodeURIComponent(q)}${limit === undefined ? '' : `&limit=${limit}`}`);
    expect(res.status, q).toBe(200);
    return NetworkSearchResponseSchema.parse(await res.json());
  };

  it.each<[string, number]>([
    ['15169', 15169],
    ['AS13335', 13335],
    ['as 7922', 7922],
    ['comcast', 7922],
    ['DEUTSCHE TELEKOM', 3320],
    ['  cloudflare  ', 13335],
    ['amazon', 16509],
  ])('%j gives AS%i first', async (q, asn) => {
    const body = await search(q);
    expect(body.results[0]).toMatchObject({ asn, as: `AS${asn}` });
    expect(body.query).toBe(q.trim());
    expect(body.count).toBe(body.results.length);
  });

  it('lists the larger of two networks with the same name first, up to the limit', async () => {
    const { results } = await search('google', 3);
    expect(results).toHaveLength(3);
    expect(results.map((r) => r.asn).slice(0, 2)).toEqual([396982, 15169]);
    expect(results[0]!.ipv4_addresses).toBeGreaterThan(results[1]!.ipv4_addresses);
  });

  it.each(['a', '😀', '\u0001\u0002', '   '])('finds nothing for %j, and says so', async (q) => {
    expect(await search(q)).toMatchObject({ count: 0, results: [] });
  });

  it.each<[string, string]>([
    ['', 'missing_query'],
    [`?q=${'x'.repeat(101)}`, 'query_too_long'],
    [`?q=${'x'.repeat(10_000)}`, 'query_too_long'],
    ['?q=a&q=b', 'invalid_query'],
    ['?q=google&limit=0', 'invalid_limit'],
    ['?q=google&limit=51', 'invalid_limit'],
    ['?q=google&limit=ten', 'invalid_limit'],
    ['?q=google&limit=1&limit=2', 'invalid_limit'],
  ])('answers %.40j with a 400 %s', async (query, code) => {
    await expectError(await get(`/api/asn${query}`), 400, code);
  });
});

describe('the page of a network', () => {
  it('says what it is, how big, where, what the lists say, its prefixes, in the first answer', async () => {
    const res = await get('/AS15169', { 'accept-encoding': 'identity' });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/<h1[^>]*>AS15169 Google LLC<\/h1>/);
    expect(html).toContain('<link rel="canonical" href="http://localhost:4321/AS15169">');
    expect(html).toMatch(/<title>AS15169 Google LLC: network size, prefixes and places<\/title>/);
    expect(html).toMatch(/"@type":"Organization","name":"Google LLC","identifier":\{"@type":"PropertyValue","propertyID":"ASN","value":"AS15169"\}/);
    expect(html).toContain('it is on our own list of known networks');
    expect(html).toContain('United States');
    expect(html).toContain('<li>8.8.8.0/24</li>');
    expect(html).toMatch(/More of its addresses are in United States than anywhere else: \d+\.\d%/);
    expect(html).toContain('href="/api/asn/15169?format=csv"');
    expect(html).toContain('Tor exits');
    expect(html).not.toContain('<script src');
  });

  it('may be kept by shared caches for an hour, is validated by ETag, and carries no per-client header', async () => {
    const res = await get('/AS16509', { ...PUBLIC, 'accept-encoding': 'gzip' });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('vary')).toBe('accept-encoding');
    expect(res.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    expect(res.headers.get('server-timing')).toMatch(/^page;dur=\d+\.\d+;desc="Data and page"$/);
    expect(res.headers.get('ratelimit-limit')).toBeNull();
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]{22}"$/);
    const again = await get('/AS16509', { ...PUBLIC, 'if-none-match': etag, 'accept-encoding': 'gzip' });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    // A page not to be kept by others still tells its client its limit.
    expect((await get('/lookup/not-an-address', PUBLIC)).headers.get('ratelimit-limit')).toBe('120');
  });

  it('shows a list loaded after its page was kept: a kept page never outlives the lists it shows', async () => {
    const vpnRow = async () => /<th scope="row"[^>]*>VPN services<\/th>(.*?)<\/tr>/.exec(await (await get('/AS15169', { 'accept-encoding': 'gzip' })).text())?.[1];
    for (let i = 0; i < 3; i++) expect(await vpnRow()).toMatch(/not loaded on this server/);
    writeFileSync(path.join(s.dataDir, 'lists', 'vpn.txt'), '8.8.8.0/24,ExampleVPN\n');
    await expect.poll(vpnRow, { timeout: 15_000 }).not.toMatch(/not loaded/);
    expect(await vpnRow()).toMatch(/under 0\.1%|\d+\.\d%/);
  });

  it('answers the same page again, from memory, with the same ETag', async () => {
    const first = await get('/AS7922', { 'accept-encoding': 'gzip' });
    const bodies = [await first.text()];
    for (let i = 0; i < 2; i++) {
      const res = await get('/AS7922', { 'accept-encoding': 'gzip' });
      expect(res.headers.get('etag')).toBe(first.headers.get('etag'));
      bodies.push(await res.text());
    }
    expect(new Set(bodies).size).toBe(1);
  });

  it.each<[string, number, RegExp]>([
    ['/AS0', 404, /AS0 is not in our data/],
    ['/AS4294967295', 404, /AS4294967295 is not in our data/],
    ['/AS4294967296', 400, /“4294967296” is not an AS number/],
    ['/AS-1', 400, /is not an AS number/],
    ['/AS15169abc', 400, /is not an AS number/],
    ['/ASxyz', 400, /is not an AS number/],
    [`/AS${'x'.repeat(10_000)}`, 400, /is not an AS number/],
    ['/AS%F0%9F%98%80', 400, /is not an AS number/],
  ])('answers %.40s with %i, not indexed, with the search box', async (p, status, text) => {
    const res = await get(p);
    expect(res.status).toBe(status);
    const html = await res.text();
    expect(html).toMatch(text);
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(html).toContain('action="/networks"');
  });

  it.each([['/as/15169'], ['/AS/AS15169'], ['/as15169'], ['/AS015169'], ['/AS15169/']])('moves %s to /AS15169', async (p) => {
    const res = await get(p);
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/AS15169');
  });

  it('renders in-process too (app.request), as over a socket', async () => {
    const { createTestApp } = await import('./support/app-harness.ts');
    const request = await createTestApp();
    const res = await request('/AS13335');
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/<h1[^>]*>AS13335 Cloudflare, Inc.<\/h1>/);
  }, 60_000);
});

describe('/networks', () => {
  it('lists the largest networks overall and in the six market countries, each linked to its page', async () => {
    const res = await get('/networks');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    const html = await res.text();
    for (const asn of [16509, 4134, 7018, 8075]) expect(html).toContain(`href="/AS${asn}"`);
    for (const country of ['United States', 'India', 'Brazil', 'Germany', 'France', 'Spain']) expect(html).toContain(`The largest networks in ${country}`);
    expect(html).toContain('<link rel="canonical" href="http://localhost:4321/networks">');
    expect(html).toContain('"@type":"CollectionPage"');
  });

  it('searches by name without JavaScript (?q=)', async () => {
    const html = await (await get('/networks?q=comcast')).text();
    expect(html).toContain('Networks matching “comcast”');
    expect(html).toMatch(/<a href="\/AS7922"[^>]*>AS7922<\/a>/);
    expect(await (await get('/networks?q=zzzzzz')).text()).toContain('No network matches “zzzzzz”');
  });
});

describe('links to the network pages', () => {
  it("links the ASN of an address's page to its network", async () => {
    const html = await (await get('/lookup/8.8.8.8')).text();
    expect(html).toContain('<a href="/AS15169">AS15169</a>');
  });

  it('links every network of every provider page to a page that exists', async () => {
    const html = await (await get('/isp/comcast')).text();
    const networks = [...html.matchAll(/href="(\/AS\d+)"/g)].map((m) => m[1]!);
    expect(networks).toContain('/AS7922');
    const { readdirSync, readFileSync } = await import('node:fs');
    const all = readdirSync('content/isps').flatMap((f) => (JSON.parse(readFileSync(`content/isps/${f}`, 'utf8')) as { asns: number[] }).asns);
    for (const asn of new Set(all)) expect((await get(`/AS${asn}`)).status, `AS${asn}`).toBe(200);
  });
});

describe('the sitemap of the largest networks', () => {
  it('is its own file in the sitemap index, listing the 3,000 largest networks, largest first', async () => {
    const index = await (await get('/sitemap-index.xml')).text();
    expect(index).toContain('<loc>http://localhost:4321/sitemap-networks.xml</loc>');
    const sitemap = await (await get('/sitemap-networks.xml')).text();
    const locs = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);
    expect(locs).toHaveLength(3000);
    expect(locs[0]).toBe('http://localhost:4321/AS749');
    expect(locs).toEqual(expect.arrayContaining(['http://localhost:4321/AS16509', 'http://localhost:4321/AS15169']));
    expect(await (await get('/sitemap-0.xml')).text()).toContain('<loc>http://localhost:4321/networks</loc>');
    expect(await (await get('/robots.txt')).text()).toContain('Sitemap: http://localhost:4321/sitemap-index.xml');
  });

  it('is reported on /healthz', async () => {
    expect(await (await get('/healthz')).text()).toMatch(/^data network index: ok \(\d+ networks\)$/m);
  });
});
