import { describe, expect, it } from 'vitest';
import { AS_MAX, asnPath, networkPath, parseAsNumber } from './asn.ts';

describe('parseAsNumber', () => {
  it.each<[string, boolean, number | undefined]>([
    ['15169', false, 15169],
    ['0', false, 0],
    ['4294967295', false, AS_MAX],
    ['4294967296', false, undefined],
    ['9999999999', false, undefined],
    ['12345678901', false, undefined],
    ['015169', false, 15169],
    ['', false, undefined],
    ['-1', false, undefined],
    ['15169abc', false, undefined],
    ['1.5', false, undefined],
    [' 15169', false, undefined],
    ['AS15169', false, undefined],
    ['AS15169', true, 15169],
    ['as15169', true, 15169],
    ['As4294967295', true, AS_MAX],
    ['AS', true, undefined],
    ['ASN15169', true, undefined],
    ['15169', true, 15169],
    ['١٥١٦٩', false, undefined],
  ])('reads %j (AS prefix allowed: %s) as %s', (text, prefixed, expected) => {
    expect(parseAsNumber(text, prefixed)).toBe(expected);
  });

  it('takes no AS prefix unless allowed', () => {
    expect(parseAsNumber('AS15169')).toBeUndefined();
    expect(parseAsNumber('15169')).toBe(15169);
  });
});

describe('asnPath', () => {
  it.each<[string, string | undefined]>([
    ['AS15169', '/AS15169'],
    ['AS0', '/AS0'],
    ['AS4294967295', '/AS4294967295'],
    ['AS4294967296', undefined],
    ['Unknown', undefined],
    ['', undefined],
    ['as15169', undefined],
    ['15169', undefined],
    ['AS15169 Google', undefined],
  ])('links a record whose asn is %j to %s', (asn, path) => {
    expect(asnPath(asn)).toBe(path);
  });

  it('names the page of an AS number', () => {
    expect(networkPath(7922)).toBe('/AS7922');
  });
});
