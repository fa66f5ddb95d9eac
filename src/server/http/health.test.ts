import { describe, expect, it } from 'vitest';
import { Health, publicText } from './health.ts';

describe('publicText: a /healthz line as anyone may read it', () => {
  it.each([
    ['data dbip-city: ok', 'data dbip-city: ok'],
    ["data asn: missing (ENOENT: no such file or directory, open '/srv/app/data/asn.bin')", "data asn: missing (ENOENT: no such file or directory, open 'asn.bin')"],
    ['data tor list: not loaded (/var/lib/whatismyip/lists/tor-exits.txt)', 'data tor list: not loaded (tor-exits.txt)'],
    ['rebuilt: C:\\data\\city-index.bin was stale', 'rebuilt: city-index.bin was stale'],
    ['last: https://user:pw@upstream.example/list?x=1 answered 500', 'last: <url> answered 500'],
    ['store: postgres://ci:ci@127.0.0.1:5432/db unreachable', 'store: <url> unreachable'],
    ['error: boom\n    at Object.<anonymous> (/srv/app/x.ts:1:2)', 'error: boom'],
    ['ranges 12/24 and 1/2 stay', 'ranges 12/24 and 1/2 stay'],
    ['next 2026-11-26T13:00:00Z', 'next 2026-11-26T13:00:00Z'],
    ['a folder /srv/app/', 'a folder .'],
  ])('%j', (line, shown) => {
    expect(publicText(line)).toBe(shown);
  });
});

describe('Health', () => {
  it('answers 200 without CORS, ok only while every part is ok or off, with public parts and lines', () => {
    let state = 'ok';
    const health = new Health().register('a', () => ({ state, file: '/srv/secret/a.db' })).register('b', () => ({ state: 'off' })).note(() => ['line at /srv/x/y.txt']);
    const text = health.reply(null);
    expect(text).toMatchObject({ status: 200, cors: false, body: 'ok\nline at y.txt\n' });
    state = 'down';
    expect(health.reply('text/plain').body).toBe('degraded\nline at y.txt\n');
    const json = health.reply(' application/json');
    expect(json.cors).toBe(false);
    expect(JSON.parse(json.body as string)).toEqual({ status: 'degraded', parts: { a: { state: 'down', file: 'a.db' }, b: { state: 'off' } }, notes: ['line at y.txt'] });
  });
});
