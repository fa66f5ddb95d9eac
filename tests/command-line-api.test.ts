/**
 * The command-line answers (ifconfig.co-compatible), in-process through app.request();
 * the page `/` for browsers and the 404 page over a real socket (the page renders into
 * node's response). The rate limit has its own file (rate-limit.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IpInfoSchema } from '../src/lib/record.ts';
import type { AppRequest } from '../src/server/http/handler.ts';
import { answersCommandLine, JsonMemo, wantsPlainText } from '../src/server/handlers/command-line-api.ts';
import { createTestApp, type AppRequestFn } from './support/app-harness.ts';
import { startTestServer, type TestServer } from './support/http-harness.ts';
import { rawHead } from './support/raw-http.ts';

let request: AppRequestFn;
beforeAll(async () => { request = await createTestApp(); });

const text = async (path: string, headers: Record<string, string> = { 'user-agent': 'curl/8.5.0' }) => {
  const res = await request(path, { headers });
  return { res, body: await res.text() };
};

describe('curl host/', () => {
  // Every command-line client src/server/handlers/command-line-api.ts knows, as it names itself.
  it.each([
    ['curl', 'curl/8.5.0'],
    ['Wget', 'Wget/1.21.4'],
    ['HTTPie', 'HTTPie/3.2.2'],
    ['Go', 'Go-http-client/1.1'],
    ['Python requests', 'python-requests/2.32.3'],
    ['Python urllib', 'Python-urllib/3.12'],
    ['Perl LWP', 'libwww-perl/6.72'],
    ['Perl lwp-request', 'lwp-request/6.72 libwww-perl/6.72'],
    ['Windows PowerShell', 'Mozilla/5.0 (Windows NT; Windows NT 10.0; en-US) WindowsPowerShell/5.1.22621.2506'],
    ['PowerShell 7', 'Mozilla/5.0 (Windows NT 10.0; Microsoft Windows 10.0.22631; en-US) PowerShell/7.4.1'],
    ['FreeBSD fetch', 'fetch libfetch/2.0'],
    ['aria2', 'aria2/1.37.0'],
    ['xh', 'xh/0.22.0'],
    ['OkHttp', 'okhttp/4.12.0'],
    ['ddclient', 'ddclient/3.11.2'],
    ['MikroTik fetch', 'Mikrotik/7.x Fetch'],
    ['the old Go client', 'Go 1.1 package http'],
  ])('answers %s (%s) with the bare IP and a newline', async (_name, ua) => {
    const { res, body } = await text('/', { 'user-agent': ua });
    expect(body).toBe('127.0.0.1\n');
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('private, no-store');
  });

  it.each(['ddclientish/1.0', 'Go 1.10 package http', 'MikrotikFan'])('leaves %s (no known client, only a prefix) to the page', async (ua) => {
    const { body } = await text('/', { 'user-agent': ua });
    expect(body).not.toBe('127.0.0.1\n');
  });

  it('answers Accept: text/plain with the bare IP', async () => {
    expect((await text('/', { accept: 'text/plain', 'user-agent': 'Mozilla/5.0' })).body).toBe('127.0.0.1\n');
  });

  it('answers Accept: application/json with the record', async () => {
    const { body } = await text('/?ip=8.8.8.8', { accept: 'application/json', 'user-agent': 'Mozilla/5.0' });
    expect(IpInfoSchema.parse(JSON.parse(body)).asn).toBe('AS15169');
  });

  // What / answers by Accept alone (a browser's User-Agent, or none): only a type that leads the header counts.
  it.each<[Record<string, string>, 'ip' | 'json' | 'page']>([
    [{ accept: '  TEXT/PLAIN  ' }, 'ip'],
    [{ accept: 'text/plain; charset=utf-8', 'user-agent': 'Mozilla/5.0' }, 'ip'],
    [{ accept: 'text/plainer', 'user-agent': 'Mozilla/5.0' }, 'page'],
    [{ accept: 'text/html, text/plain', 'user-agent': 'Mozilla/5.0' }, 'page'],
    [{ accept: ' Application/JSON;q=1', 'user-agent': 'Mozilla/5.0' }, 'json'],
    [{ accept: 'application/jsonp', 'user-agent': 'Mozilla/5.0' }, 'page'],
    [{ accept: 'text/html, application/json', 'user-agent': 'Mozilla/5.0' }, 'page'],
    [{}, 'page'],
  ])('answers / with %j as %s', async (headers, kind) => {
    const { res, body } = await text('/', headers);
    expect(body === '127.0.0.1\n', 'the bare IP').toBe(kind === 'ip');
    expect(/^application\/json/.test(res.headers.get('content-type') ?? ''), 'the record').toBe(kind === 'json');
  });

  // An explicit JSON Accept wins over a command-line User-Agent, wherever text is picked for one.
  it.each<[Record<string, string>, boolean]>([
    [{ 'user-agent': 'curl/8.5.0' }, true],
    [{ 'user-agent': 'curl/8.5.0', accept: '*/*' }, true],
    [{ 'user-agent': 'curl/8.5.0', accept: 'application/json' }, false],
    [{ 'user-agent': 'Wget/1.21.4', accept: ' Application/JSON;q=1' }, false],
    [{ 'user-agent': 'curl/8.5.0', accept: 'text/html, application/json' }, true],
    [{ 'user-agent': 'Mozilla/5.0', accept: 'text/plain' }, true],
  ])('picks text for %j: %s', (headers, expected) => {
    expect(wantsPlainText({ path: '/', headers: new Headers(headers) } as unknown as AppRequest)).toBe(expected);
  });

  it('answers curl asking for JSON at / with the record', async () => {
    const { res } = await text('/', { accept: 'application/json', 'user-agent': 'curl/8.5.0' });
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });

  // What the rate limit counts as the command line (routes.ts isLimited).
  it.each<[string, Record<string, string>, boolean]>([
    ['/', { accept: 'application/json', 'user-agent': 'Mozilla/5.0' }, true],
    ['/', { accept: 'text/plain', 'user-agent': 'Mozilla/5.0' }, true],
    ['/', { 'user-agent': 'curl/8.5.0' }, true],
    ['/', { accept: 'text/html', 'user-agent': 'Mozilla/5.0' }, false],
    ['/about', { accept: 'application/json', 'user-agent': 'Mozilla/5.0' }, false],
    ['/about', { 'user-agent': 'curl/8.5.0' }, false],
    ['/json', { accept: 'text/html', 'user-agent': 'Mozilla/5.0' }, true],
  ])('counts %s with %j as a command-line request: %s', (path, headers, expected) => {
    expect(answersCommandLine({ path, headers: new Headers(headers) } as unknown as AppRequest)).toBe(expected);
  });
});

describe('HEAD over a socket', () => {
  let server: TestServer;
  beforeAll(async () => { server = await startTestServer(); });
  afterAll(() => server.close());

  // fetch drops a HEAD body whatever the server sends: only the bytes show one.
  it.each(['/country?ip=8.8.8.8', '/json?ip=8.8.8.8', '/api/lookup/8.8.8.8', '/api/config'])('answers HEAD %s with the length of GET and no body', async (path) => {
    // The same headers both ways: /json echoes the User-Agent (ifconfig.co's user_agent).
    const agent = { 'user-agent': 'head-check/1.0' };
    const head = await rawHead(Number(new URL(server.url).port), path, agent);
    const full = await fetch(server.url + path, { headers: agent });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String((await full.arrayBuffer()).byteLength));
    expect(head.body.toString('latin1')).toBe('');
    expect(head.nextStatus).toBe(200);
  });
});

describe('pages, over a socket', () => {
  let server: TestServer;
  beforeAll(async () => { server = await startTestServer(); });
  afterAll(() => server.close());
  const page = async (path: string, ua: string) => {
    const res = await fetch(server.url + path, { headers: { 'user-agent': ua, accept: 'text/html,*/*' } });
    return { res, body: await res.text() };
  };

  it.each([
    ['Chrome', 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36'],
    ['Firefox', 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0'],
    ['a client whose name only starts like curl', 'curlew/1.0'],
  ])('answers %s at / with the HTML page showing its address', async (_name, ua) => {
    const { res, body } = await page('/', ua);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html\b/);
    expect(body).toMatch(/^<!DOCTYPE html>/i);
    expect(body).toMatch(/data-testid="ip"[^>]*>127\.0\.0\.1</);
  });

  it.each(['/no/such/page', '/ip-lookup/atlantis', '/blog/no-such-post'])('answers %s with status 404 and the HTML 404 page', async (path) => {
    const { res, body } = await page(path, 'Mozilla/5.0');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^text\/html\b/);
    expect(body).toMatch(/^<!DOCTYPE html>/i);
  });
});

describe('one field per endpoint', () => {
  it.each([
    ['/ip?ip=8.8.8.8', /^8\.8\.8\.8\n$/],
    ['/ip', /^127\.0\.0\.1\n$/],
    ['/country?ip=8.8.8.8', /^United States\n$/],
    ['/country-iso?ip=8.8.8.8', /^US\n$/],
    ['/asn?ip=8.8.8.8', /^AS15169\n$/],
    ['/asn-org?ip=1.1.1.1', /cloudflare/i],
    ['/coordinates?ip=8.8.8.8', /^-?\d+(\.\d+)?,-?\d+(\.\d+)?\n$/],
    ['/city?ip=2001:4860:4860::8888', /^.+\n$/],
    ['/ip?ip=::ffff:1.1.1.1', /^1\.1\.1\.1\n$/],
    ['/country?ip=10.0.0.1', /^Unknown\n$/],
  ])('%s answers %s', async (path, expected) => {
    const { res, body } = await text(path);
    expect(res.status).toBe(200);
    expect(body).toMatch(expected);
  });

  it('answers a field as text whatever the Accept header asks: only / and /json answer JSON', async () => {
    const { res, body } = await text('/country?ip=8.8.8.8', { 'user-agent': 'curl/8.5.0', accept: 'application/json' });
    expect([res.headers.get('content-type'), body]).toEqual(['text/plain; charset=utf-8', 'United States\n']);
  });

  it('answers /json with the full record and Server-Timing', async () => {
    const { res, body } = await text('/json?ip=1.1.1.1');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('server-timing')).toMatch(/^lookup;dur=/);
    expect(IpInfoSchema.parse(JSON.parse(body))).toMatchObject({ ip: '1.1.1.1', asn: 'AS13335' });
  });

  it('answers /json from its memo once an address is asked again, byte for byte what a fresh lookup gives', async () => {
    const first = await text('/json?ip=9.9.9.9');
    const second = await text('/json?ip=9.9.9.9');
    const again = await text('/json?ip=9.9.9.9');
    expect(first.res.headers.get('server-timing')).toMatch(/desc="IP lookup"$/);
    expect(second.res.headers.get('server-timing')).toMatch(/desc="IP lookup"$/);
    expect(again.res.headers.get('server-timing')).toMatch(/desc="IP lookup \(memo\)"$/);
    expect(second.body).toBe(first.body);
    expect(again.body).toBe(first.body);
    const fresh = await (await request('/api/lookup/9.9.9.9')).json();
    // The API's record, with ifconfig.co's fields beside it (tests/ifconfig-fields.test.ts).
    const { ip_decimal: _d, country_iso: _i, country_eu: _e, region_name: _r, zip_code: _z, time_zone: _t, user_agent: _u, ...ours } = JSON.parse(again.body) as Record<string, unknown>;
    expect(ours).toEqual(fresh.data);
    expect(JSON.parse(again.body).location_source).toBe('ip');
  });

  it('answers a field, not the record the /json memo keeps for the same address', async () => {
    await text('/json?ip=8.8.8.8');
    await text('/json?ip=8.8.8.8');
    const { res, body } = await text('/country?ip=8.8.8.8');
    expect([res.headers.get('content-type'), body]).toEqual(['text/plain; charset=utf-8', 'United States\n']);
  });

  it('times a memo answer by the time the memo took', async () => {
    await text('/json?ip=8.8.4.4');
    await text('/json?ip=8.8.4.4');
    const before = performance.now();
    const { res } = await text('/json?ip=8.8.4.4');
    const elapsed = performance.now() - before;
    const timing = res.headers.get('server-timing') ?? '';
    expect(timing).toMatch(/\(memo\)"$/);
    const dur = Number(/dur=([\d.]+)/.exec(timing)?.[1]);
    expect(dur).toBeGreaterThanOrEqual(0);
    expect(dur).toBeLessThanOrEqual(elapsed + 0.001); // toFixed(3) rounds by at most half a microsecond
  });

  it.each(['/ip?ip=bad', '/json?ip=1.2.3', '/country?ip=', '/asn?ip=%E2%80%8B'])('answers %s with 400 invalid_ip', async (path) => {
    const { res, body } = await text(path);
    expect(res.status).toBe(400);
    expect(JSON.parse(body).error.code).toBe('invalid_ip');
  });

  it.each(['/ip', '/json', '/country'])('refuses POST %s with 405 and Allow', async (path) => {
    const res = await request(path, { method: 'POST', headers: { 'user-agent': 'curl/8.5.0' } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD');
    expect(await res.json()).toEqual({ error: { code: 'method_not_allowed', message: 'Use GET here.' } });
  });

  it('answers HEAD with the headers of GET', async () => {
    const res = await request('/country?ip=8.8.8.8', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength('United States\n')));
  });
});

describe('the /json memo', () => {
  /** Sets each body twice, as the handler does for an address asked twice. */
  const keep = (memo: JsonMemo, ...entries: Array<[string, string]>) => {
    for (const [ip, body] of entries) {
      memo.set(ip, body);
      memo.set(ip, body);
    }
  };

  it('keeps a body only for an address asked before, not for one seen once', () => {
    const memo = new JsonMemo(10);
    memo.set('1.1.1.1', 'a');
    expect(memo.get('1.1.1.1')).toBeUndefined();
    memo.set('1.1.1.1', 'b');
    expect(memo.get('1.1.1.1')).toBe('b');
  });

  it('keeps the newest addresses up to its limit and drops the oldest first', () => {
    const memo = new JsonMemo(2);
    keep(memo, ['1.1.1.1', 'a'], ['8.8.8.8', 'b'], ['9.9.9.9', 'c']);
    expect([memo.get('1.1.1.1'), memo.get('8.8.8.8'), memo.get('9.9.9.9')]).toEqual([undefined, 'b', 'c']);
  });

  it('forgets a noted address once newer ones push it out, so its next ask is a first again', () => {
    const memo = new JsonMemo(2);
    memo.set('1.1.1.1', 'a');
    memo.set('8.8.8.8', 'b');
    memo.set('9.9.9.9', 'c');
    memo.set('1.1.1.1', 'a');
    expect(memo.get('1.1.1.1')).toBeUndefined();
  });

  it.each([[45, 'a'], [46, undefined]])('keeps a key of %i characters: %j', (length, kept) => {
    const memo = new JsonMemo(10);
    const key = '1.1.1.1'.padStart(length, ' ');
    keep(memo, [key, 'a']);
    expect(memo.get(key)).toBe(kept);
  });

  it('keeps nothing longer than an address, nothing at all with limit 0, and nothing after clear()', () => {
    const memo = new JsonMemo(10);
    const padded = ' '.repeat(40) + '1.1.1.1';
    keep(memo, [padded, 'a']);
    expect(memo.get(padded)).toBeUndefined();
    const off = new JsonMemo(0);
    keep(off, ['1.1.1.1', 'a']);
    expect(off.get('1.1.1.1')).toBeUndefined();
    keep(memo, ['8.8.8.8', 'b']);
    memo.clear();
    expect(memo.get('8.8.8.8')).toBeUndefined();
    memo.set('8.8.8.8', 'b');
    expect(memo.get('8.8.8.8')).toBeUndefined();
  });
});
