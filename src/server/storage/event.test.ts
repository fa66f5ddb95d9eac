/** Which requests analytics may record, and the network a row keeps instead of the address. */
import { describe, expect, it } from 'vitest';
import { parseIp } from '../../lib/ip-address.ts';
import { mayRecord, networkOf } from './event.ts';

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36';
const BROWSER = { 'user-agent': CHROME, 'sec-fetch-mode': 'cors' };

describe('mayRecord', () => {
  it.each([
    ['a browser', BROWSER, true],
    ['Sec-GPC: 1', { ...BROWSER, 'sec-gpc': '1' }, false],
    ['Sec-GPC: 1 with spaces', { ...BROWSER, 'sec-gpc': ' 1 ' }, false],
    ['Sec-GPC: 0', { ...BROWSER, 'sec-gpc': '0' }, true],
    ['DNT: 1', { ...BROWSER, dnt: '1' }, false],
    ['DNT: 1 with spaces', { ...BROWSER, dnt: ' 1' }, false],
    ['DNT: 0', { ...BROWSER, dnt: '0' }, true],
    ['no Sec-Fetch-Mode (a script)', { 'user-agent': CHROME }, false],
    ['the quiet update after the WebRTC check', { ...BROWSER, 'x-lookup-update': '1' }, false],
    ['a prefetch (Sec-Purpose)', { ...BROWSER, 'sec-purpose': 'prefetch;prerender' }, false],
    ['a prefetch (Purpose)', { ...BROWSER, purpose: 'prefetch' }, false],
    ['another purpose', { ...BROWSER, purpose: 'preview' }, true],
    ['no User-Agent', { 'sec-fetch-mode': 'cors' }, false],
    ['a crawler', { ...BROWSER, 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' }, false],
    ['a crawler asked twice (the memo)', { ...BROWSER, 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' }, false],
    ['a browser with a very long agent', { ...BROWSER, 'user-agent': CHROME + ' x'.repeat(400) }, true],
  ])('%s: %s', (_, headers, expected) => {
    expect(mayRecord(new Headers(headers))).toBe(expected);
  });
});

describe('networkOf', () => {
  it.each([
    ['203.0.113.77', '203.0.113.0/24', 0xcb0071],
    ['0.0.0.1', '0.0.0.0/24', 0],
    ['255.255.255.255', '255.255.255.0/24', 0xffffff],
    ['2001:db8:85a3:1::7', '2001:db8:85a3::/48', 2 ** 48 + 0x20010db885a3],
    ['::1', '::/48', 2 ** 48],
  ])('keeps %s as %s, number %i', (ip, prefix, key) => {
    expect(networkOf(parseIp(ip)!)).toEqual({ prefix, key });
  });
});
