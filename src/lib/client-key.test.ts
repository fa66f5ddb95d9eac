import { describe, expect, it } from 'vitest';
import { clientKey, networkKey } from './client-key.ts';
import { parseIp } from './ip-address.ts';

const key = (text: string) => clientKey(parseIp(text)!);

describe('clientKey', () => {
  it.each([
    ['203.0.113.9', '203.0.113.9'],
    ['0.0.0.0', '0.0.0.0'],
    ['::ffff:203.0.113.9', '203.0.113.9'],
    ['2001:db8:0:a0::1', '20010db8000000a0'],
    ['2001:db8:0:a0:ffff:ffff:ffff:ffff', '20010db8000000a0'],
    ['2001:db8:0:a1::', '20010db8000000a1'],
    ['::1', '0000000000000000'],
    ['1::', '0001000000000000'],
    ['ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'ffffffffffffffff'],
  ])('%s counts as %s', (address, expected) => {
    expect(key(address)).toBe(expected);
  });

  it('gives every address of one /64 the same key, and the next /64 another', () => {
    expect(key('2a00:1450:4001:81b::')).toBe(key('2a00:1450:4001:81b:ffff:ffff:ffff:ffff'));
    expect(key('2a00:1450:4001:81c::')).not.toBe(key('2a00:1450:4001:81b::'));
  });
});

describe('networkKey', () => {
  it.each([
    ['2001:db8:0:a0::1', '20010db80000'],
    ['2001:db8:0:ffff::1', '20010db80000'],
    ['2001:db8:1::', '20010db80001'],
    ['::1', '000000000000'],
  ])('the /48 of %s is %s', (address, expected) => {
    expect(networkKey(key(address))).toBe(expected);
  });
});
