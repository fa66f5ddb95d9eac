/**
 * The host name (reverse DNS, forward-confirmed) in every answer that carries a record:
 * /json, /api/lookup (GET, POST, an address's), the bulk API, `/hostname`, and the pages,
 * against a local DNS server (tests/support/dns-server.ts): nothing leaves the machine.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type AppRequestFn } from './support/app-harness.ts';
import { NAMED, namedRecords, reverseName, startDnsServer, type TestDnsServer } from './support/dns-server.ts';

const { confirmed: CONFIRMED, unconfirmed: UNCONFIRMED, slow: SLOW, none: NONE, hostile: HOSTILE } = NAMED;
const SIX = '2a02:2e0::1';

let dns: TestDnsServer;
let request: AppRequestFn;
beforeAll(async () => {
  dns = await startDnsServer({
    ...namedRecords(3000, '<b>\u0007x.test'),
    [reverseName(SIX)]: { ptr: ['six.example.test'] },
    'six.example.test': { aaaa: [SIX] },
  });
  request = await createTestApp({ REVERSE_DNS: 'on', DNS_RESOLVERS: dns.address, TRUST_PROXY: 'loopback', RATE_LIMIT: '0', PAGE_RATE_LIMIT: '0' });
});
afterAll(() => dns.close());

const getJson = async (path: string, init: Parameters<AppRequestFn>[1] = {}) => {
  const res = await request(path, init);
  return { status: res.status, body: await res.json() as Record<string, unknown> & { data: Record<string, unknown> } };
};

describe('hostname in /json', () => {
  it.each([
    [CONFIRMED, 'host.example.test', true],
    [SIX, 'six.example.test', true],
    [UNCONFIRMED, 'liar.example.test', false],
    [NONE, null, false],
    [HOSTILE, null, false],
    // A special-purpose address is never asked nor cached: the memo's answer waits for the lookup.
    ['10.0.0.1', null, false],
  ])('/json?ip=%s gives hostname %j, confirmed %j, the first ask and from the memo alike', async (ip, hostname, confirmed) => {
    for (let i = 0; i < 3; i++) {
      const { body } = await getJson(`/json?ip=${ip}`);
      expect(body).toMatchObject({ ip, hostname, hostname_confirmed: confirmed });
    }
  });

  it('answers on time with no name when the resolver does not, the rest of the record intact', async () => {
    const start = performance.now();
    const { status, body } = await getJson(`/json?ip=${SLOW}`);
    expect(performance.now() - start).toBeLessThan(1500);
    expect(status).toBe(200);
    expect(body).toMatchObject({ ip: SLOW, hostname: null, hostname_confirmed: false, ip_version: 'ipv4' });
  });

  it('names the caller: the client address behind a trusted proxy', async () => {
    const { body } = await getJson('/json', { headers: { 'x-forwarded-for': CONFIRMED } });
    expect(body).toMatchObject({ ip: CONFIRMED, hostname: 'host.example.test' });
  });
});

describe('hostname in the API', () => {
  it('is in GET /api/lookup/{ip}, GET /api/lookup and POST /api/lookup', async () => {
    expect((await getJson(`/api/lookup/${CONFIRMED}`)).body.data).toMatchObject({ hostname: 'host.example.test', hostname_confirmed: true });
    expect((await getJson('/api/lookup', { headers: { 'x-forwarded-for': UNCONFIRMED } })).body.data)
      .toMatchObject({ hostname: 'liar.example.test', hostname_confirmed: false });
    const posted = await getJson('/api/lookup', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ip: SIX }) });
    expect(posted.body.data).toMatchObject({ hostname: 'six.example.test', hostname_confirmed: true });
  });

  it('is in every bulk row, and ?hostname=0 leaves it out', async () => {
    const body = JSON.stringify([CONFIRMED, NONE, 'nope', SIX]);
    const post = (path: string) => getJson(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const rows = (await post('/api/lookup/bulk')).body.results as Array<{ data?: Record<string, unknown> }>;
    expect(rows.map((r) => r.data?.hostname)).toEqual(['host.example.test', null, undefined, 'six.example.test']);
    const skipped = (await post('/api/lookup/bulk?hostname=0')).body.results as Array<{ data?: Record<string, unknown> }>;
    expect(skipped.map((r) => r.data && 'hostname' in r.data)).toEqual([false, false, undefined, false]);
  });
});

describe('/hostname', () => {
  it.each([
    [`/hostname?ip=${CONFIRMED}`, 'host.example.test\n'],
    [`/hostname?ip=${UNCONFIRMED}`, 'liar.example.test\n'],
    [`/hostname?ip=${NONE}`, '\n'],
    [`/hostname?ip=${HOSTILE}`, '\n'],
    ['/hostname?ip=127.0.0.1', '\n'],
  ])('%s answers %j as plain text', async (path, expected) => {
    const res = await request(path, { headers: { 'user-agent': 'curl/8.5.0' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).toBe(expected);
  });

  it('names the caller without ?ip=, and answers JSON when asked', async () => {
    const res = await request('/hostname', { headers: { 'x-forwarded-for': CONFIRMED, accept: 'application/json' } });
    expect(await res.json()).toEqual({ ip: CONFIRMED, hostname: 'host.example.test', hostname_confirmed: true });
  });

  it.each(['nope', '999.1.1.1', '', '1.1.1.1<script>'])('answers 400 invalid_ip for ?ip=%j', async (ip) => {
    const res = await request(`/hostname?ip=${encodeURIComponent(ip)}`);
    expect(res.status).toBe(400);
    expect((await res.json() as { error: { code: string } }).error.code).toBe('invalid_ip');
  });
});
