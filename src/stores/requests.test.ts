/** What the small stores send: the lookup tool's trimmed address, fetchJson's and fetchText's headers and failures, the family check's single run. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, stubFetch } from '../../tests/support/fetch-stub.ts';
import { isNumber, object } from '../lib/guard.ts';
import { fetchJson, fetchText } from './api-fetch.ts';

afterEach(() => { vi.unstubAllGlobals(); });

describe('fetchJson and fetchText', () => {
  it('asks for JSON, keeping the caller\'s headers', async () => {
    const fetch = stubFetch();
    const result = fetchJson('/x', object<{ a: number }>({ a: isNumber }), { headers: { 'x-extra': '1' } });
    const headers = new Headers(fetch.requests[0]!.init?.headers);
    expect([headers.get('accept'), headers.get('x-extra')]).toEqual(['application/json', '1']);
    fetch.requests[0]!.answer(Response.json({ a: 1 }));
    expect(await result).toEqual({ ok: true, data: { a: 1 } });
  });

  it.each([
    { name: 'the expected shape: the data', body: { a: 1 }, result: { ok: true, data: { a: 1 } } },
    { name: 'another shape: unreadable', body: { a: '1' }, result: { ok: false, failure: { kind: 'invalid' } } },
    { name: 'no JSON at all: unreadable', body: undefined, result: { ok: false, failure: { kind: 'invalid' } } },
  ])('checks a JSON answer with its guard: $name', async ({ body, result }) => {
    const fetch = stubFetch();
    const answer = fetchJson('/x', object<{ a: number }>({ a: isNumber }));
    fetch.requests[0]!.answer(body === undefined ? new Response('<html>') : Response.json(body));
    expect(await answer).toEqual(result);
  });

  it.each([
    { name: 'an API error: its code and message', response: () => apiError(404, 'not_found', 'No such thing.'), failure: { kind: 'api', status: 404, code: 'not_found', message: 'No such thing.' } },
    { name: 'an error that is not the API\'s shape: unreadable', response: () => new Response('<html>', { status: 502 }), failure: { kind: 'invalid' } },
  ])('reads a text request\'s failure: $name', async ({ response, failure }) => {
    const fetch = stubFetch();
    const result = fetchText('/x');
    fetch.requests[0]!.answer(response());
    expect(await result).toEqual({ ok: false, failure });
  });

  it('gives a text answer as it came, and a network failure as one', async () => {
    const fetch = stubFetch();
    const ok = fetchText('/x');
    fetch.requests[0]!.answer(new Response('203.0.113.7\n'));
    expect(await ok).toEqual({ ok: true, data: '203.0.113.7\n' });
    const failed = fetchText('/y');
    fetch.requests[1]!.fail();
    expect(await failed).toEqual({ ok: false, failure: { kind: 'network' } });
  });
});

describe('$ipLookup', () => {
  it('looks up the trimmed address, encoded', async () => {
    const fetch = stubFetch();
    vi.resetModules();
    const { $ipLookup, lookupIp } = await import('./ip-lookup.ts');
    void lookupIp(' 2001:db8::1 ');
    expect($ipLookup.get()).toEqual({ status: 'loading', query: '2001:db8::1' });
    expect(fetch.requests.map((r) => r.url)).toEqual(['/api/lookup/2001%3Adb8%3A%3A1']);
  });
});

describe('$ipFamilies', () => {
  it('asks each echo URL for plain text, once however often it is started', async () => {
    const fetch = stubFetch();
    vi.resetModules();
    const { startFamilyCheck } = await import('./ip-families.ts');
    startFamilyCheck();
    startFamilyCheck();
    const config = await fetch.request((url) => url === '/api/config');
    config.answer(Response.json({ tileUrl: 't', tileAttribution: 'a', stunUrl: null, stunPort: null, ipv4Url: 'https://v4.test/ip', ipv6Url: null, dnsLeakZone: null }));
    const echo = await fetch.request((url) => url === 'https://v4.test/ip');
    expect(new Headers(echo.init?.headers).get('accept')).toBe('text/plain');
    // Without an IPv6 echo URL, the visit's own address is asked of /ip for the other row.
    await fetch.request((url) => url === '/ip');
    expect(fetch.requests.map((r) => r.url)).toEqual(['/api/config', 'https://v4.test/ip', '/ip']);
  });
});
