import { describe, expect, it } from 'vitest';
import { parseIp } from '../../lib/ip-address.ts';
import { RangeList } from './range-list.ts';
import { toWords } from './sorted-ranges.ts';

/** The service name of the row holding `ip` ('' when unnamed), or null when it is not listed. */
function find(list: RangeList, ip: string): string | null {
  const parsed = parseIp(ip)!;
  const row = parsed.version === 4 ? list.find4(parsed.value) : list.find6(toWords(parsed.value, new Uint32Array(4)));
  return row < 0 ? null : list.label(row);
}

// The Tor Project's bulk exit list is bare addresses; Apple's egress list is a CSV.
const TOR = ['# exits', '185.220.101.1', '185.220.101.3', '', '  192.42.116.16  ', '2001:67c:e60:c0c:192:42:116:16'].join('\n');
const RELAY = ['172.224.224.0/27,GB,GB-EN,London,', '172.224.224.32/27,GB,GB-EN,London,\r', '2a02:26f7:b3c0:4000::/64,GB,GB-EN,London,'].join('\n');
const VPN = [
  '198.51.100.0/24,ExampleVPN', '198.51.100.128/25,OtherVPN # inside the first: merged into it',
  '203.0.113.0/25,ExampleVPN', '203.0.113.128/25,ExampleVPN', '192.0.2.0/24',
].join('\n');

describe('RangeList', () => {
  const tor = RangeList.parse(TOR).list;
  const relay = RangeList.parse(RELAY).list;
  it.each<[string, RangeList, string, string | null]>([
    ['a listed exit', tor, '185.220.101.1', ''],
    ['the address just after a listed exit', tor, '185.220.101.2', null],
    ['a line with spaces around the address', tor, '192.42.116.16', ''],
    ['a listed IPv6 exit', tor, '2001:67c:e60:c0c:192:42:116:16', ''],
    ['the IPv6 address just after it', tor, '2001:67c:e60:c0c:192:42:116:17', null],
    ['the first address of a /27 from a CSV line', relay, '172.224.224.0', ''],
    ['the last address of the second /27 (CRLF line)', relay, '172.224.224.63', ''],
    ['just past the last /27', relay, '172.224.224.64', null],
    ['just before the first /27', relay, '172.224.223.255', null],
    ['the last address of an IPv6 /64', relay, '2a02:26f7:b3c0:4000:ffff:ffff:ffff:ffff', ''],
    ['just past the IPv6 /64', relay, '2a02:26f7:b3c0:4001::', null],
  ])('%s: %s', (_, list, ip, expected) => {
    expect(find(list, ip)).toBe(expected);
  });

  it('reads the service name from the second field and merges overlapping and touching ranges', () => {
    const vpn = RangeList.parse(VPN, { labelColumn: true }).list;
    expect(find(vpn, '198.51.100.200')).toBe('ExampleVPN'); // the /25 inside the /24 keeps the /24's name
    expect(find(vpn, '203.0.113.255')).toBe('ExampleVPN');
    expect(find(vpn, '192.0.2.9')).toBe('');
    expect(vpn.v4Count).toBe(3);
  });

  it('keeps touching ranges of different services apart', () => {
    const list = RangeList.parse('10.0.0.0/8,Adjacent\n11.0.0.0/8,Neighbour\n', { labelColumn: true }).list;
    expect(list.v4Count).toBe(2);
    expect(find(list, '10.255.255.255')).toBe('Adjacent');
    expect(find(list, '11.0.0.0')).toBe('Neighbour');
    expect(RangeList.parse('203.0.113.0/25,A\n203.0.113.128/25,A\n', { labelColumn: true }).list.v4Count).toBe(1);
  });

  it('holds whole address spaces: 0.0.0.0/0 and ::/0 reach the last address', () => {
    const all = RangeList.parse('0.0.0.0/0\n::/0\n').list;
    expect(find(all, '255.255.255.255')).toBe('');
    expect(find(all, '0.0.0.0')).toBe('');
    expect(find(all, 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff')).toBe('');
  });

  it('skips and counts lines that are not addresses, keeping the rest', () => {
    const parsed = RangeList.parse('185.220.101.1\nnot an address\n300.1.1.1\n10.0.0.0/33\n2001:db8::1\n');
    expect(parsed.skipped).toBe(3);
    expect(parsed.firstSkipped).toBe('not an address');
    expect([parsed.list.v4Count, parsed.list.v6Count]).toEqual([1, 1]);
  });

  it('answers nothing from an empty list', () => {
    const empty = RangeList.parse('').list;
    expect(find(empty, '8.8.8.8')).toBeNull();
    expect(find(empty, '2001:db8::1')).toBeNull();
  });
});

describe('RangeList coverage of a range', () => {
  const n = (ip: string) => (parseIp(ip) as { value: number }).value;
  // Rows: 10.0.0.0/24, 10.0.2.0/23, 10.1.0.0/16 and one address, 10.2.0.5.
  const list = RangeList.parse(['10.0.0.0/24', '10.0.2.0/23', '10.1.0.0/16', '10.2.0.5'].join('\n')).list;
  it.each<[string, string, string, number]>([
    ['a range equal to a row', '10.0.0.0', '10.0.0.255', 256],
    ['a range holding two rows and the gap between', '10.0.0.0', '10.0.3.255', 256 + 512],
    ['a range starting inside a row', '10.0.0.128', '10.0.1.255', 128],
    ['a range ending inside a row', '10.0.1.0', '10.0.2.9', 10],
    ['the last address of a row', '10.0.0.255', '10.0.0.255', 1],
    ['the first address after a row', '10.0.1.0', '10.0.1.0', 0],
    ['a range in a gap', '10.0.1.0', '10.0.1.255', 0],
    ['a range before every row', '9.0.0.0', '9.255.255.255', 0],
    ['a range after every row', '10.2.0.6', '255.255.255.255', 0],
    ['a one-address row', '10.2.0.0', '10.2.255.255', 1],
    ['the whole space', '0.0.0.0', '255.255.255.255', 256 + 512 + 65536 + 1],
    ['a range inside a row across /16 buckets', '10.1.255.0', '10.2.0.255', 256 + 1],
  ])('counts the listed addresses of %s', (_, first, last, expected) => {
    expect(list.covered4(n(first), n(last))).toBe(expected);
  });

  it('counts IPv6 coverage in /48s', () => {
    const v6 = RangeList.parse(['2001:db8::/48', '2001:db8:2::/47', '2001:db8:10::/64'].join('\n')).list;
    const bounds = (first: string, last: string) => {
      const words = new Uint32Array(8);
      toWords((parseIp(first) as { value: bigint }).value, words.subarray(0, 4));
      toWords((parseIp(last) as { value: bigint }).value, words.subarray(4, 8));
      return words;
    };
    expect(v6.covered6(bounds('2001:db8::', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff'), 0)).toBeCloseTo(3 + 2 ** -16, 12);
    expect(v6.covered6(bounds('2001:db8:1::', '2001:db8:1:ffff:ffff:ffff:ffff:ffff'), 0)).toBe(0);
    expect(v6.covered6(bounds('2001:db8:3::', '2001:db8:3:7fff:ffff:ffff:ffff:ffff'), 0)).toBe(0.5);
    expect(v6.covered6(bounds('2001:db7::', '2001:db7:ffff:ffff:ffff:ffff:ffff:ffff'), 0)).toBe(0);
    // The range's bounds may sit anywhere in a larger array: the first four words at `from`, the last four after.
    const twice = new Uint32Array(16);
    twice.set(bounds('2001:db8:2::', '2001:db8:2:ffff:ffff:ffff:ffff:ffff'), 8);
    expect(v6.covered6(twice, 8)).toBe(1);
  });
});
