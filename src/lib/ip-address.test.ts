import { describe, expect, it, vi } from 'vitest';
import { formatIp, isPublicIp, nat64Embedded, normalizeIp, parseCidr, cidrContains, parseIp, reservedKind, RESERVED_RANGES } from './ip-address.ts';

describe('normalizeIp', () => {
  it.each([
    ['8.8.8.8', '8.8.8.8'],
    [' 1.1.1.1 ', '1.1.1.1'],
    ['::ffff:1.2.3.4', '1.2.3.4'],
    ['::FFFF:0102:0304', '1.2.3.4'],
    ['2001:4860:4860:0:0:0:0:8888', '2001:4860:4860::8888'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['::', '::'],
    ['::1', '::1'],
    ['fe80::1%eth0', 'fe80::1'],
    ['1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8'],
    ['1::1.2.3.4', '1::102:304'],
    ['ABCD:EF01::', 'abcd:ef01::'],
  ])('normalises %j to %j', (input, expected) => expect(normalizeIp(input)).toBe(expected));

  it.each(['', '1.2.3', '1.2.3.4.5', '01.2.3.4', '256.1.1.1', '1.2.3.-1', 'abc', '::1::', '1:2:3:4:5:6:7:8:9', '12345::', 'g::1', '1.2.3.4/24', '::ffff:999.1.1.1', ':::',
    '1.2.3.4::', '1.2.3.4::1', '1:1.2.3.4::', '1:', ':1', '1::2::3', '1:2:3:4:5:6:7:1.2.3.4',
    // IPv4: an empty part at either end or in the middle, a letter where a digit goes.
    '1..2.3', '.1.2.3', '1.2.3.', '1.2.3.a', '1.2.3.4a'])(
    'rejects %j', (input) => expect(normalizeIp(input)).toBeUndefined());

  // The hand-written IPv6 scanner's edges: the longest spelling (45 characters), an IPv4
  // tail after six groups, seven groups beside a `::` (which stands for one zero group).
  it.each([
    ['ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
    ['0000:0000:0000:0000:0000:0000:255.255.255.255', '::ffff:ffff'],
    ['1:2:3:4:5:6:1.2.3.4', '1:2:3:4:5:6:102:304'],
    ['1:2:3:4:5:6:7::', '1:2:3:4:5:6:7:0'],
    ['1::3:4:5:6:7:8', '1:0:3:4:5:6:7:8'],
    ['::2:3:4:5:6:7:8', '0:2:3:4:5:6:7:8'],
    ['09af:AF::', '9af:af::'],
  ])('reads the IPv6 edge spelling %j as %j', (input, expected) => expect(normalizeIp(input)).toBe(expected));

  it.each([
    // A character just outside 0-9, a-f, A-F where a hex digit goes.
    '1::/', '1::@', '1::`', '1::G', '1::g', '@::1', '`::1',
    // An empty group: three colons in a row.
    '1:::2', ':::1',
    // A trailing single colon after a full or a compressed address.
    '1:2:3:4:5:6:7:8:', '1::2:',
    // A separator that is not a colon.
    '1x2::', '1:2 3::',
    // Too few groups without `::`, eight groups with it.
    '1:2:3:4:5:6:7', '1:2', '1::2:3:4:5:6:7:8', '::1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8::',
  ])('rejects the IPv6 spelling %j', (input) => expect(normalizeIp(input)).toBeUndefined());
});

describe('reservedKind', () => {
  // Every range's first and last address, and the addresses just outside it: a range one
  // bit too wide or too narrow fails a row. Where the neighbour is itself reserved, the row
  // expects the neighbour's kind. Where ranges overlap the first listed wins, so the edge
  // rows name addresses the range itself decides (255.255.255.255 is the Broadcast row's).
  const EDGES: ReadonlyArray<readonly [cidr: string, kind: string, first: string, last: string, outside: ReadonlyArray<readonly [string, string | undefined]>]> = [
    ['0.0.0.0/8', 'Unspecified', '0.0.0.0', '0.255.255.255', [['1.0.0.0', undefined]]],
    ['10.0.0.0/8', 'Private network', '10.0.0.0', '10.255.255.255', [['9.255.255.255', undefined], ['11.0.0.0', undefined]]],
    ['100.64.0.0/10', 'Carrier-grade NAT', '100.64.0.0', '100.127.255.255', [['100.63.255.255', undefined], ['100.128.0.0', undefined]]],
    ['127.0.0.0/8', 'Loopback', '127.0.0.0', '127.255.255.255', [['126.255.255.255', undefined], ['128.0.0.0', undefined]]],
    ['169.254.0.0/16', 'Link-local', '169.254.0.0', '169.254.255.255', [['169.253.255.255', undefined], ['169.255.0.0', undefined]]],
    ['172.16.0.0/12', 'Private network', '172.16.0.0', '172.31.255.255', [['172.15.255.255', undefined], ['172.32.0.0', undefined]]],
    ['192.0.0.0/24', 'Reserved', '192.0.0.0', '192.0.0.255', [['191.255.255.255', undefined], ['192.0.1.0', undefined]]],
    ['192.0.2.0/24', 'Documentation', '192.0.2.0', '192.0.2.255', [['192.0.1.255', undefined], ['192.0.3.0', undefined]]],
    ['192.88.99.0/24', 'Reserved', '192.88.99.0', '192.88.99.255', [['192.88.98.255', undefined], ['192.88.100.0', undefined]]],
    ['192.168.0.0/16', 'Private network', '192.168.0.0', '192.168.255.255', [['192.167.255.255', undefined], ['192.169.0.0', undefined]]],
    ['198.18.0.0/15', 'Benchmarking', '198.18.0.0', '198.19.255.255', [['198.17.255.255', undefined], ['198.20.0.0', undefined]]],
    ['198.51.100.0/24', 'Documentation', '198.51.100.0', '198.51.100.255', [['198.51.99.255', undefined], ['198.51.101.0', undefined]]],
    ['203.0.113.0/24', 'Documentation', '203.0.113.0', '203.0.113.255', [['203.0.112.255', undefined], ['203.0.114.0', undefined]]],
    ['224.0.0.0/4', 'Multicast', '224.0.0.0', '239.255.255.255', [['223.255.255.255', undefined], ['240.0.0.0', 'Reserved']]],
    ['255.255.255.255/32', 'Broadcast', '255.255.255.255', '255.255.255.255', [['255.255.255.254', 'Reserved']]],
    ['240.0.0.0/4', 'Reserved', '240.0.0.0', '255.255.255.254', [['239.255.255.255', 'Multicast']]],
    ['::/128', 'Unspecified', '::', '::', [['::1', 'Loopback']]],
    ['::1/128', 'Loopback', '::1', '::1', [['::2', 'Reserved']]],
    // Inside ::/8, so its neighbours are Reserved too (64:ff9b::/96 below it, NAT64, has its own table).
    ['64:ff9b:1::/48', 'Reserved', '64:ff9b:1::', '64:ff9b:1:ffff:ffff:ffff:ffff:ffff', [['64:ff9b:0:ffff:ffff:ffff:ffff:ffff', 'Reserved'], ['64:ff9b:2::', 'Reserved']]],
    ['100::/64', 'Reserved', '100::', '100::ffff:ffff:ffff:ffff', [['ff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'Reserved'], ['100:0:0:1::', undefined]]],
    ['2001::/23', 'Reserved', '2001::', '2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff', [['2000:ffff:ffff:ffff:ffff:ffff:ffff:ffff', undefined], ['2001:200::', undefined]]],
    ['2001:db8::/32', 'Documentation', '2001:db8::', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', [['2001:db7:ffff:ffff:ffff:ffff:ffff:ffff', undefined], ['2001:db9::', undefined]]],
    ['3fff::/20', 'Documentation', '3fff::', '3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff', [['3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff', undefined], ['3fff:1000::', undefined]]],
    ['fc00::/7', 'Private network', 'fc00::', 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', [['fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', undefined], ['fe00::', undefined]]],
    ['fe80::/10', 'Link-local', 'fe80::', 'febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff', [['fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff', undefined], ['fec0::', undefined]]],
    ['ff00::/8', 'Multicast', 'ff00::', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', [['feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', undefined]]],
    // `::` and `::1` are listed first, so the range's own first address is `::2`.
    ['::/8', 'Reserved', '::2', 'ff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', [['100::', 'Reserved'], ['100:0:0:1::', undefined]]],
  ];

  it('has edge rows for every range it knows, and only those', () => {
    expect(EDGES.map(([cidr, kind]) => [cidr, kind])).toEqual(RESERVED_RANGES.map(([cidr, kind]) => [cidr, kind]));
  });

  it.each(EDGES.flatMap(([cidr, kind, first, last, outside]) => [
    [cidr, 'first', first, kind],
    [cidr, 'last', last, kind],
    ...outside.map(([ip, neighbour]) => [cidr, 'outside', ip, neighbour] as const),
  ]))('%s: the %s address %s is %s', (cidr, edge, ip, kind) => {
    const parsed = parseIp(ip)!;
    expect(reservedKind(parsed)).toBe(kind);
    expect(cidrContains(parseCidr(cidr)!, parsed)).toBe(edge !== 'outside');
  });

  it.each([
    ['8.8.8.8', undefined], ['1.1.1.1', undefined], ['2001:4860:4860::8888', undefined],
    ['::ffff:10.0.0.1', 'Private network'], ['::ffff:8.8.8.8', undefined], ['::1.2.3.4', 'Reserved'],
  ])('classifies %s as %s', (ip, kind) => expect(reservedKind(parseIp(ip)!)).toBe(kind));

  it('builds its range tables from the registry list when the module loads (a fresh copy)', async () => {
    // The IPv4 and IPv6 tables are derived once, at import: load the module inside the test
    // so a wrong table fails here, not only in a test that imported it earlier.
    vi.resetModules();
    const fresh = await import('./ip-address.ts');
    for (const [ip, kind] of [['10.1.2.3', 'Private network'], ['255.255.255.255', 'Broadcast'], ['fe80::1', 'Link-local'], ['::1', 'Loopback'], ['8.8.8.8', undefined], ['2001:4860:4860::8888', undefined]] as const) {
      expect(fresh.reservedKind(fresh.parseIp(ip)!), ip).toBe(kind);
    }
  });

  it('calls an address public only when it is valid and not reserved', () => {
    expect(isPublicIp('8.8.8.8')).toBe(true);
    expect(isPublicIp('192.168.0.1')).toBe(false);
    expect(isPublicIp('nonsense')).toBe(false);
  });
});

describe('NAT64 (64:ff9b::/96)', () => {
  it.each([
    // [address, the IPv4 address it carries, what it is]
    ['64:ff9b::808:808', '8.8.8.8', undefined],
    ['64:ff9b::', '0.0.0.0', 'Unspecified'],
    ['64:ff9b::ffff:ffff', '255.255.255.255', 'Broadcast'],
    ['64:ff9b::a00:1', '10.0.0.1', 'Private network'],
    ['64:ff9b::1:0:0', undefined, 'Reserved'],
    ['64:ff9a:ffff:ffff:ffff:ffff:ffff:ffff', undefined, 'Reserved'],
    ['64:ff9b:1::1', undefined, 'Reserved'],
  ])('reads %s as %s, which is %s', (ip, carried, kind) => {
    const embedded = nat64Embedded(parseIp(ip)!);
    expect(embedded && formatIp(embedded)).toBe(carried);
    expect(reservedKind(parseIp(ip)!)).toBe(kind);
  });
});

describe('CIDR', () => {
  it.each([
    ['10.0.0.0/8', '10.255.1.1', true], ['10.0.0.0/8', '11.0.0.1', false], ['0.0.0.0/0', '8.8.8.8', true],
    ['2001:db8::/32', '2001:db8:ffff::1', true], ['2001:db8::/32', '2001:db9::1', false], ['1.2.3.4', '1.2.3.4', true],
    ['10.0.0.0/8', '::ffff:10.0.0.1', true], ['::/0', '10.0.0.1', false],
    // An IPv4 block never holds an IPv6 address, even one whose high bits are all zero.
    ['0.0.0.0/0', '::1', false], ['10.0.0.0/8', '::a00:1', false],
  ])('%s contains %s: %s', (cidr, ip, expected) => expect(cidrContains(parseCidr(cidr)!, parseIp(ip)!)).toBe(expected));
  it.each(['10.0.0.0/33', '::/129', '1.2.3.4/-1', 'x/8', '1.2.3.4/8/1', '10.0.0.0/08x',
    // A length is one to three decimal digits and nothing else, though Number() would read these.
    '10.0.0.0/', '10.0.0.0/+8', '10.0.0.0/ 8', '10.0.0.0/0x8', '10.0.0.0/1e1', '10.0.0.0/8.0', '::/0100',
  ])('rejects %j', (c) => expect(parseCidr(c)).toBeUndefined());

  it.each([
    [' 10.0.0.0/8 ', 4, 8], ['\t2001:db8::/32\n', 6, 32], ['10.0.0.0/0', 4, 0], ['1.2.3.4', 4, 32], ['::1', 6, 128], ['::/128', 6, 128],
  ])('reads %j as an IPv%i block of %i bits', (c, version, bits) => {
    expect(parseCidr(c)).toMatchObject({ version, bits });
  });
});
