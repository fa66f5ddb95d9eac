/** Which requests analytics may record, and the network a row keeps instead of the address. */
import { describe, expect, it } from 'vitest';
import { parseIp } from '../../lib/ip-address.ts';
import { correctionRow, correctionUnit, mayRecord, networkOf } from './event.ts';

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

describe('correctionUnit', () => {
  it.each([
    ['203.0.113.77', '203.0.113.0/24', 0xcb0071, 0xcb0071],
    ['255.255.255.255', '255.255.255.0/24', 0xffffff, 0xffffff],
    ['2001:db8:85a3:1::7', '2001:db8::/32', 2 ** 48 + 0x20010db8 * 2 ** 16, 2 ** 48 + 0x20010db8 * 2 ** 16 + 0xffff],
    ['2001:db8:ffff:ffff::1', '2001:db8::/32', 2 ** 48 + 0x20010db8 * 2 ** 16, 2 ** 48 + 0x20010db8 * 2 ** 16 + 0xffff],
    ['::1', '::/32', 2 ** 48, 2 ** 48 + 0xffff],
    ['ffff:ffff:ffff::1', 'ffff:ffff::/32', 2 ** 49 - 2 ** 16, 2 ** 49 - 1],
  ])('votes %s as %s, covering the lookup networks %i to %i', (ip, prefix, min, max) => {
    expect(correctionUnit(parseIp(ip)!)).toEqual({ prefix, min, max });
  });

  it("covers exactly the /48s a lookup from inside the unit keeps, and not its neighbours'", () => {
    const unit = correctionUnit(parseIp('2001:db8:1234::1')!);
    const inside = [networkOf(parseIp('2001:db8::1')!).key, networkOf(parseIp('2001:db8:ffff::1')!).key];
    const outside = [networkOf(parseIp('2001:db7:ffff::1')!).key, networkOf(parseIp('2001:db9::1')!).key];
    expect(inside.map((k) => k >= unit.min && k <= unit.max)).toEqual([true, true]);
    expect(outside.map((k) => k >= unit.min && k <= unit.max)).toEqual([false, false]);
  });

  it('gives the row the unit and the ASN, never the address', () => {
    const event = { distance_km: 12.5, country_code: 'DE', network_type: 'residential', nearer_source: 'tie' };
    expect(correctionRow(parseIp('2001:db8:85a3::7')!, event, 1000, 'AS64500')).toEqual({
      ...event, at: 1000, ipPrefix: '2001:db8::/32', asn: 'AS64500', networkMin: 2 ** 48 + 0x20010db8 * 2 ** 16, networkMax: 2 ** 48 + 0x20010db8 * 2 ** 16 + 0xffff,
    });
  });
});
