import { mergeCidr, parseCidr } from 'cidr-tools';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { forEachCidr4, forEachCidr6 } from './cidr.ts';
import { formatIp, parseIp } from './ip-address.ts';

const v4 = (text: string) => (parseIp(text) as { value: number }).value;
const v6 = (text: string) => (parseIp(text) as { value: bigint }).value;
const cidrs4 = (first: string, last: string) => {
  const out: string[] = [];
  const count = forEachCidr4(v4(first), v4(last), (base, bits) => out.push(`${formatIp({ version: 4, value: base })}/${bits}`));
  expect(count).toBe(out.length);
  return out;
};
const cidrs6 = (first: string, last: string) => {
  const out: string[] = [];
  const count = forEachCidr6(v6(first), v6(last), (base, bits) => out.push(`${formatIp({ version: 6, value: base })}/${bits}`));
  expect(count).toBe(out.length);
  return out;
};

describe('forEachCidr4', () => {
  it.each<[string, string, string, string[]]>([
    ['one address', '192.0.2.7', '192.0.2.7', ['192.0.2.7/32']],
    ['an aligned /24', '192.0.2.0', '192.0.2.255', ['192.0.2.0/24']],
    ['a /24 one address short at the end', '192.0.2.0', '192.0.2.254',
      ['192.0.2.0/25', '192.0.2.128/26', '192.0.2.192/27', '192.0.2.224/28', '192.0.2.240/29', '192.0.2.248/30', '192.0.2.252/31', '192.0.2.254/32']],
    ['a /24 one address short at the start', '192.0.2.1', '192.0.2.255',
      ['192.0.2.1/32', '192.0.2.2/31', '192.0.2.4/30', '192.0.2.8/29', '192.0.2.16/28', '192.0.2.32/27', '192.0.2.64/26', '192.0.2.128/25']],
    ['two addresses across a /24 boundary', '192.0.2.255', '192.0.3.0', ['192.0.2.255/32', '192.0.3.0/32']],
    ['two aligned /24s as one /23', '198.51.100.0', '198.51.101.255', ['198.51.100.0/23']],
    ['three /24s', '198.51.100.0', '198.51.102.255', ['198.51.100.0/23', '198.51.102.0/24']],
    ['the whole space', '0.0.0.0', '255.255.255.255', ['0.0.0.0/0']],
    ['the first address', '0.0.0.0', '0.0.0.0', ['0.0.0.0/32']],
    ['the last address', '255.255.255.255', '255.255.255.255', ['255.255.255.255/32']],
    ['the upper half, up to the last address', '128.0.0.0', '255.255.255.255', ['128.0.0.0/1']],
    ['the lower half, from 0', '0.0.0.0', '127.255.255.255', ['0.0.0.0/1']],
    ['all but the first address', '0.0.0.1', '255.255.255.255', [
      '0.0.0.1/32', '0.0.0.2/31', '0.0.0.4/30', '0.0.0.8/29', '0.0.0.16/28', '0.0.0.32/27', '0.0.0.64/26', '0.0.0.128/25',
      '0.0.1.0/24', '0.0.2.0/23', '0.0.4.0/22', '0.0.8.0/21', '0.0.16.0/20', '0.0.32.0/19', '0.0.64.0/18', '0.0.128.0/17',
      '0.1.0.0/16', '0.2.0.0/15', '0.4.0.0/14', '0.8.0.0/13', '0.16.0.0/12', '0.32.0.0/11', '0.64.0.0/10', '0.128.0.0/9',
      '1.0.0.0/8', '2.0.0.0/7', '4.0.0.0/6', '8.0.0.0/5', '16.0.0.0/4', '32.0.0.0/3', '64.0.0.0/2', '128.0.0.0/1']],
  ])('covers %s exactly', (_, first, last, expected) => {
    expect(cidrs4(first, last)).toEqual(expected);
  });

  it('gives nothing for an empty range (first after last)', () => {
    expect(cidrs4('192.0.2.1', '192.0.2.0')).toEqual([]);
  });

  it('counts without a visitor', () => {
    expect(forEachCidr4(v4('192.0.2.0'), v4('192.0.2.254'))).toBe(8);
  });
});

describe('forEachCidr6', () => {
  it.each<[string, string, string, string[]]>([
    ['one address', '2001:db8::1', '2001:db8::1', ['2001:db8::1/128']],
    ['an aligned /32', '2001:db8::', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', ['2001:db8::/32']],
    ['a /48 and the next /48', '2001:db8::', '2001:db8:1:ffff:ffff:ffff:ffff:ffff', ['2001:db8::/47']],
    ['a /48 and half the next', '2001:db8::', '2001:db8:1:7fff:ffff:ffff:ffff:ffff', ['2001:db8::/48', '2001:db8:1::/49']],
    ['two addresses across a /64 boundary', '2001:db8:0:0:ffff:ffff:ffff:ffff', '2001:db8:0:1::', ['2001:db8::ffff:ffff:ffff:ffff/128', '2001:db8:0:1::/128']],
    ['the whole space', '::', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', ['::/0']],
    ['the first address', '::', '::', ['::/128']],
    ['the last address', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', ['ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff/128']],
    ['the upper half, up to the last address', '8000::', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', ['8000::/1']],
    ['one address on a /32 boundary', '2001:db8::', '2001:db8::', ['2001:db8::/128']],
  ])('covers %s exactly', (_, first, last, expected) => {
    expect(cidrs6(first, last)).toEqual(expected);
  });

  it('gives nothing for an empty range (first after last)', () => {
    expect(cidrs6('2001:db8::1', '2001:db8::')).toEqual([]);
  });

  it('counts without a visitor', () => {
    expect(forEachCidr6(v6('2001:db8::'), v6('2001:db8:1:7fff:ffff:ffff:ffff:ffff'))).toBe(2);
  });

  it('takes the 128 blocks of all but the first address', () => {
    const out = cidrs6('::1', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff');
    expect(out).toHaveLength(128);
    expect(out[0]).toBe('::1/128');
    expect(out.at(-1)).toBe('8000::/1');
  });
});

// Differential: for any range, our prefixes tile it exactly (in order, no gap, no overlap),
// and cidr-tools' merge, which reduces any set of prefixes to the fewest that cover it,
// finds nothing to merge: ours are already the fewest.
describe('against cidr-tools', () => {
  const tiles = (prefixes: string[], first: bigint, last: bigint) => {
    let next = first;
    for (const prefix of prefixes) {
      const { start, end } = parseCidr(prefix);
      if (start !== next) return false;
      next = end + 1n;
    }
    return next === last + 1n;
  };

  it('agrees on 3,000 random IPv4 ranges', () => {
    fc.assert(fc.property(fc.nat({ max: 2 ** 32 - 1 }), fc.nat({ max: 2 ** 32 - 1 }), (a, b) => {
      const [first, last] = a <= b ? [a, b] : [b, a];
      const ours = cidrs4(formatIp({ version: 4, value: first }), formatIp({ version: 4, value: last }));
      expect(tiles(ours, BigInt(first), BigInt(last))).toBe(true);
      expect(mergeCidr(ours)).toEqual(ours);
    }), { numRuns: 3000 });
  });

  it('agrees on 1,000 random IPv6 ranges, short and long', () => {
    const address = fc.bigInt({ min: 0n, max: (1n << 128n) - 1n });
    fc.assert(fc.property(address, fc.bigInt({ min: 0n, max: (1n << 80n) }), fc.boolean(), (a, span, short) => {
      const first = a;
      const last = short ? (a + span > (1n << 128n) - 1n ? (1n << 128n) - 1n : a + span) : (1n << 128n) - 1n - (span & 0xffffn);
      if (last < first) return;
      const ours = cidrs6(formatIp({ version: 6, value: first }), formatIp({ version: 6, value: last }));
      expect(tiles(ours, first, last)).toBe(true);
      expect(mergeCidr(ours)).toEqual(ours);
    }), { numRuns: 1000 });
  });
});
