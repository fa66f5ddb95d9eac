import { describe, expect, it } from 'vitest';
import { ifconfigFields, ifconfigUserAgent, ipDecimal } from './ifconfig-fields.ts';
import type { IpInfo } from './record.ts';

describe('ipDecimal', () => {
  it.each<[string, number | string]>([
    ['0.0.0.0', 0],
    ['0.0.0.1', 1],
    ['0.0.1.0', 256],
    ['0.1.0.0', 65536],
    ['1.0.0.0', 16777216],
    ['1.2.3.4', 16909060],
    ['127.0.0.1', 2130706433],
    ['9.99.199.200', 157534152],
    ['10.20.30.40', 169090600],
    ['255.255.255.255', 4294967295],
    ['::', '0'],
    ['::1', '1'],
    ['1::', '5192296858534827628530496329220096'],
    ['8000::', '170141183460469231731687303715884105728'],
    ['::ffff:0:1', '281470681743361'],
    ['2001:db8::8:800:200c:417a', '42540766411282592856906245548098208122'],
    ['2a02:2e0::1', '55838018728611146815769426372780359681'],
    ['ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '340282366920938463463374607431768211455'],
    ['1:2:3:4:5:6:7:8', '5192455318486707404433266433261576'],
    ['fe80::1:a', '338288524927261089654018896841347760138'],
    ['abcd:1::', '228362408214448416444664096648972992512'],
  ])('%s is %j', (ip, expected) => {
    expect(ipDecimal(ip)).toBe(expected);
  });
});

describe('ifconfigUserAgent', () => {
  it.each<[string | null | undefined, object | undefined]>([
    [undefined, undefined],
    [null, undefined],
    ['', undefined],
    ['curl/', { product: 'curl', raw_value: 'curl/' }],
    ['curl/foo', { product: 'curl', comment: 'foo', raw_value: 'curl/foo' }],
    ['curl/7.26.0', { product: 'curl', version: '7.26.0', raw_value: 'curl/7.26.0' }],
    ['Wget/1.13.4 (linux-gnu)', { product: 'Wget', version: '1.13.4', comment: '(linux-gnu)', raw_value: 'Wget/1.13.4 (linux-gnu)' }],
    ['Wget', { product: 'Wget', raw_value: 'Wget' }],
    ['fetch libfetch/2.0', { product: 'fetch libfetch', version: '2.0', raw_value: 'fetch libfetch/2.0' }],
    ['Go 1.1 package http', { product: 'Go', comment: '1.1 package http', raw_value: 'Go 1.1 package http' }],
    ['Mikrotik/6.x Fetch', { product: 'Mikrotik', version: '6.x', comment: 'Fetch', raw_value: 'Mikrotik/6.x Fetch' }],
    ['a/0', { product: 'a', version: '0', raw_value: 'a/0' }],
    ['a/9 x', { product: 'a', version: '9', comment: 'x', raw_value: 'a/9 x' }],
    ['a/:9', { product: 'a', comment: ':9', raw_value: 'a/:9' }], // ':' follows '9' in ASCII: not a digit
    ['a//9', { product: 'a', comment: '/9', raw_value: 'a//9' }],
    ['a/1/2 b/3', { product: 'a', version: '1/2', comment: 'b/3', raw_value: 'a/1/2 b/3' }],
    ['a/1 b  c', { product: 'a', version: '1', comment: 'b  c', raw_value: 'a/1 b  c' }],
    ['/1.0', { version: '1.0', raw_value: '/1.0' }],
    [' x', { comment: 'x', raw_value: ' x' }],
    ['Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0', { product: 'Mozilla', version: '5.0', comment: '(X11; Linux x86_64) Chrome/131.0', raw_value: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0' }],
  ])('%j gives %j', (raw, expected) => {
    expect(ifconfigUserAgent(raw)).toStrictEqual(expected);
  });
});

describe('ifconfigFields', () => {
  const record = (values: Partial<IpInfo>) => ({ ip: '1.2.3.4', country_code: 'Unknown', region: 'Unknown', postal: 'Unknown', timezone: 'Unknown', ...values }) as IpInfo;
  it.each<[string, Partial<IpInfo>, object]>([
    ['leaves out every field nothing knows', {}, { ip_decimal: 16909060, country_eu: false }],
    ['leaves out empty text too', { country_code: '', region: '', postal: '', timezone: '' }, { ip_decimal: 16909060, country_eu: false }],
    ['gives a member state as in the EU', { country_code: 'DE', region: 'Berlin', postal: '10115', timezone: 'Europe/Berlin' },
      { ip_decimal: 16909060, country_iso: 'DE', country_eu: true, region_name: 'Berlin', zip_code: '10115', time_zone: 'Europe/Berlin' }],
    ['gives the United Kingdom as outside the EU', { country_code: 'GB' }, { ip_decimal: 16909060, country_iso: 'GB', country_eu: false }],
    ['gives an IPv6 address its number as a string', { ip: '::1', country_code: 'SE' }, { ip_decimal: '1', country_iso: 'SE', country_eu: true }],
  ])('%s', (_, values, expected) => {
    expect(ifconfigFields(record(values))).toStrictEqual(expected);
  });
});
