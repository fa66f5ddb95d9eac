/**
 * Analytics through the real server: which requests are recorded, who may read what
 * (aggregates public; recent lookups and CSV for loopback, private clients and the
 * token), the API's errors, /healthz, and that no raw address reaches the SQLite file
 * (WAL included) or any PostgreSQL row.
 */
import { readFileSync, existsSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DashboardSchema } from '../src/lib/analytics.ts';
import { startTestServer, type TestServer } from './support/http-harness.ts';
import { schemaUrl, testDatabase, uniqueSchema } from './support/postgres.ts';

const TOKEN = 'operator-token-0123456789';
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
/** What a browser sends on a navigation and on a same-origin fetch. */
const PAGE = { 'user-agent': CHROME, 'sec-fetch-mode': 'navigate', accept: 'text/html' };
const FETCH = { 'user-agent': CHROME, 'sec-fetch-mode': 'cors', accept: 'application/json' };
/** Addresses looked up in these tests: none may appear in storage. */
const KNOWN = ['81.2.69.142', '2001:4860:4860::8888', '8.8.8.8', '1.1.1.1'];

const from = (ip: string, headers: Record<string, string> = {}) => ({ ...headers, 'x-forwarded-for': ip });

let server: TestServer;
beforeAll(async () => { server = await startTestServer({ TRUST_PROXY: 'loopback', ANALYTICS_TOKEN: TOKEN }); });
afterAll(() => server?.close());

/** A request with exactly these headers (fetch would add Sec-Fetch-Mode, which marks browsers here). */
function send(target: string, init: { method?: string; headers: Record<string, string>; body?: string }): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(server.url + target, { method: init.method ?? 'GET', headers: init.headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

async function written(): Promise<number> {
  await server.routes.analytics.flush();
  return server.routes.analytics.health().written;
}

describe('what is recorded', () => {
  it.each<[string, string, { method?: string; headers: Record<string, string>; body?: string }, boolean]>([
    ['records a page view of / by a browser', '/', { headers: from('81.2.69.142', PAGE) }, true],
    ['records GET /api/lookup from a page', '/api/lookup', { headers: from('81.2.69.142', FETCH) }, true],
    ['records POST /api/lookup (Refresh) from a page', '/api/lookup', { method: 'POST', headers: from('2001:4860:4860::8888', { ...FETCH, 'content-type': 'application/json' }), body: '{}' }, true],
    ['does not record the quiet update after the WebRTC check', '/api/lookup', { method: 'POST', headers: from('81.2.69.142', { ...FETCH, 'x-lookup-update': '1' }), body: '{}' }, false],
    ['does not record a browser sending Do Not Track', '/', { headers: from('81.2.69.142', { ...PAGE, dnt: '1' }) }, false],
    ['does not record a browser sending Global Privacy Control', '/api/lookup', { headers: from('81.2.69.142', { ...FETCH, 'sec-gpc': '1' }) }, false],
    ['does not record a crawler', '/', { headers: from('81.2.69.142', { ...PAGE, 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' }) }, false],
    ['does not record a prefetch', '/', { headers: from('81.2.69.142', { ...PAGE, 'sec-purpose': 'prefetch' }) }, false],
    ['does not record a script with a browser User-Agent but no Sec-Fetch-Mode', '/api/lookup', { headers: from('81.2.69.142', { 'user-agent': CHROME }) }, false],
    ['does not record curl at /', '/', { headers: from('81.2.69.142', { 'user-agent': 'curl/8.5.0' }) }, false],
    ['does not record /json from a page', '/json', { headers: from('81.2.69.142', FETCH) }, false],
    ['does not record the network card asking /hostname for the name the page lacked', '/hostname?ip=81.2.69.142', { headers: from('81.2.69.142', FETCH) }, false],
    ['does not record /hostname of the caller', '/hostname', { headers: from('81.2.69.142', FETCH) }, false],
    ['does not record a lookup of another address', '/api/lookup/1.1.1.1', { headers: from('81.2.69.142', FETCH) }, false],
    ['does not record a POST lookup of another address', '/api/lookup', { method: 'POST', headers: from('81.2.69.142', FETCH), body: '{"ip":"8.8.8.8"}' }, false],
  ])('%s (%s)', async (_, target, init, recorded) => {
    const before = await written();
    expect(await send(target, init)).toBe(200);
    expect(await written()).toBe(before + (recorded ? 1 : 0));
  });
});

describe('who may read what', () => {
  const dashboard = async (headers: Record<string, string>, query = '') => {
    const res = await fetch(`${server.url}/api/analytics${query}`, { headers });
    return { res, body: await res.json() };
  };

  it('gives anyone the aggregates, readable cross-origin, without the recent lookups', async () => {
    const { res, body } = await dashboard(from('81.2.69.142'));
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const parsed = DashboardSchema.parse(body);
    expect(parsed.period).toBe('7d');
    expect(parsed.recent).toBeNull();
    expect(parsed.lookups.value).toBeGreaterThan(0);
  });

  it.each<[string, Record<string, string>]>([
    ['loopback', {}],
    ['a private-network client', from('10.1.2.3')],
    ['the bearer token from a public address', from('81.2.69.142', { authorization: `Bearer ${TOKEN}` })],
  ])('gives %s the recent lookups, masked, and no CORS header', async (_, headers) => {
    const { res, body } = await dashboard(headers, '?period=24h');
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const { recent } = DashboardSchema.parse(body);
    expect(recent!.length).toBeGreaterThan(0);
    expect(recent!.map((r) => r.network)).toContain('81.2.69.x');
    expect(recent!.map((r) => r.network)).toContain('2001:4860:4860::/48');
  });

  it.each(['Bearer not-the-token-at-all', `Bearer ${TOKEN}x`, 'Bearer', `bearer ${TOKEN.slice(1)}`])('refuses %j with 401', async (authorization) => {
    const { res, body } = await dashboard(from('81.2.69.142', { authorization }));
    expect(res.status).toBe(401);
    expect(body.error.code).toBe('invalid_token');
  });

  it('ignores another scheme (a proxy\'s Basic auth): the client stays public', async () => {
    const { res, body } = await dashboard(from('81.2.69.142', { authorization: 'Basic dXNlcjpwYXNz' }));
    expect(res.status).toBe(200);
    expect(body.recent).toBeNull();
  });

  it('serves the CSV to the operator, as a download named after the period', async () => {
    const res = await fetch(`${server.url}/api/analytics.csv?period=30d`, { headers: from('81.2.69.142', { authorization: `Bearer ${TOKEN}` }) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="ip-analytics-30d.csv"');
    const lines = (await res.text()).trim().split('\r\n');
    expect(lines[0]).toBe('ip,city,country,vpn_detected,timestamp');
    expect(lines.slice(1).map((l) => l.split(',')[0])).toContain('81.2.69.x');
  });

  it('refuses the CSV to the public with 403', async () => {
    const res = await fetch(`${server.url}/api/analytics.csv`, { headers: from('81.2.69.142') });
    expect(res.status).toBe(403);
    expect((await res.json()).error.code).toBe('operator_only');
  });

  it.each(['1y', '', '7D', '24h,7d'])('answers period=%j with 400', async (period) => {
    for (const target of ['/api/analytics', '/api/analytics.csv']) {
      const res = await fetch(`${server.url}${target}?period=${encodeURIComponent(period)}`);
      expect(res.status).toBe(400);
      expect((await res.json()).error.code).toBe('invalid_period');
    }
  });

  it('answers other methods with 405', async () => {
    const res = await fetch(`${server.url}/api/analytics`, { method: 'DELETE' });
    expect(res.status).toBe(405);
  });
});

describe('/healthz', () => {
  it('says ok as text, and the store\'s state and counts as JSON', async () => {
    expect((await (await fetch(`${server.url}/healthz`)).text()).split('\n')[0]).toBe('ok');
    const res = await fetch(`${server.url}/healthz`, { headers: { accept: 'application/json' } });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ status: 'ok', parts: { analytics: { state: 'ok', store: 'sqlite', queued: 0, dropped: 0, lastError: null } } });
    expect(body.parts.analytics.written).toBeGreaterThan(0);
  });

  it('says off when analytics are turned off, and the dashboard answers 404', async () => {
    const off = await startTestServer({ ANALYTICS: 'off' });
    try {
      const health = await (await fetch(`${off.url}/healthz`, { headers: { accept: 'application/json' } })).json();
      expect(health).toMatchObject({ status: 'ok', parts: { analytics: { state: 'off', store: 'off', queued: 0, dropped: 0, written: 0, lastError: null } } });
      expect(Object.keys(health.parts)).toEqual(['analytics', 'databases']);
      const res = await fetch(`${off.url}/api/analytics`);
      expect(res.status).toBe(404);
      expect((await res.json()).error.code).toBe('analytics_off');
    } finally {
      await off.close();
    }
  });
});

/** Looks up every KNOWN address as a browser would, through the page and the API, and corrects its place. */
async function lookUpKnown(url: string): Promise<void> {
  for (const ip of KNOWN) {
    for (const [target, headers] of [['/', PAGE], ['/api/lookup', FETCH]] as const) {
      const res = await fetch(url + target, { headers: from(ip, headers) });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    const correction = await fetch(url + '/api/corrections', {
      method: 'POST', headers: from(ip, { ...FETCH, 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' }),
      body: JSON.stringify({ latitude: 48.137, longitude: 11.575 }),
    });
    expect(correction.status).toBe(202);
  }
}

describe('no raw address at rest', () => {
  it('keeps only prefixes in the SQLite file and its WAL', async () => {
    const own = await startTestServer({ TRUST_PROXY: 'loopback' });
    try {
      await lookUpKnown(own.url);
      expect(await own.routes.analytics.flush()).toBe(true);
      const files = ['analytics.sqlite', 'analytics.sqlite-wal', 'analytics.sqlite-shm'].map((f) => path.join(own.dataDir, f)).filter((f) => existsSync(f));
      const bytes = files.map((f) => readFileSync(f).toString('latin1')).join('\n');
      // The search can find things: the prefixes are there.
      for (const prefix of ['81.2.69.0/24', '2001:4860:4860::/48', '8.8.8.0/24', '1.1.1.0/24']) expect(bytes).toContain(prefix);
      for (const ip of KNOWN) expect(bytes).not.toContain(ip);
    } finally {
      await own.close();
    }
  });

  const database = testDatabase();
  it.skipIf(database.skip)('keeps only prefixes in every PostgreSQL row', async () => {
    const pgBase = database.get();
    const schema = uniqueSchema('noraw');
    const { url, drop } = schemaUrl(pgBase, schema);
    const own = await startTestServer({ TRUST_PROXY: 'loopback', DATABASE_URL: url });
    const sql = postgres(pgBase, { max: 1, onnotice: () => undefined });
    try {
      await lookUpKnown(own.url);
      expect(await own.routes.analytics.flush()).toBe(true);
      const tables = await sql`SELECT table_name FROM information_schema.tables WHERE table_schema = ${schema}`;
      expect(tables.length).toBeGreaterThanOrEqual(8);
      let text = '';
      for (const { table_name: name } of tables) {
        for (const row of await sql`SELECT t::text AS row FROM ${sql(schema)}.${sql(name)} t`) text += row.row + '\n';
      }
      for (const prefix of ['81.2.69.0/24', '2001:4860:4860::/48', '8.8.8.0/24', '1.1.1.0/24']) expect(text).toContain(prefix);
      for (const ip of KNOWN) expect(text).not.toContain(ip);
      // Corrections keep their voting unit too (one per unit and day; IPv6 by its /32), not the address.
      const kept = await sql`SELECT ip_prefix FROM ${sql(schema)}.analytics_corrections ORDER BY ip_prefix`;
      expect(kept.map((r) => r.ip_prefix)).toEqual(['1.1.1.0/24', '2001:4860::/32', '8.8.8.0/24', '81.2.69.0/24']);
    } finally {
      await own.close();
      await sql.end();
      await drop();
    }
  });
});
