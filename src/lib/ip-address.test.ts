import { describe, expect, it } from 'vitest';
import { formatIp, isPublicIp, nat64Embedded, normalizeIp, parseCidr, cidrContains, parseIp, reservedKind } from './ip-address.ts';

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
    '1.2.3.4::', '1.2.3.4::1', '1:1.2.3.4::', '1:', ':1', '1::2::3', '1:2:3:4:5:6:7:1.2.3.4'])(
    'rejects %j', (input) => expect(normalizeIp(input)).toBeUndefined());
});

describe('reservedKind', () => {
  it.each([
    ['127.0.0.1', 'Loopback'], ['10.0.0.1', 'Private network'], ['172.16.5.4', 'Private network'],
    ['192.168.1.1', 'Private network'], ['100.64.0.1', 'Carrier-grade NAT'], ['169.254.1.1', 'Link-local'],
    ['192.0.2.1', 'Documentation'], ['203.0.113.9', 'Documentation'], ['224.0.0.1', 'Multicast'],
    ['255.255.255.255', 'Broadcast'], ['0.0.0.0', 'Unspecified'], ['::1', 'Loopback'], ['fd00::1', 'Private network'],
    ['fe80::1', 'Link-local'], ['2001:db8::1', 'Documentation'], ['ff02::1', 'Multicast'], ['::', 'Unspecified'],
    ['8.8.8.8', undefined], ['1.1.1.1', undefined], ['2001:4860:4860::8888', undefined], ['172.32.0.1', undefined],
  ])('classifies %s as %s', (ip, kind) => expect(reservedKind(parseIp(ip)!)).toBe(kind));

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
  ])('%s contains %s: %s', (cidr, ip, expected) => expect(cidrContains(parseCidr(cidr)!, parseIp(ip)!)).toBe(expected));
  it.each(['10.0.0.0/33', '::/129', '1.2.3.4/-1', 'x/8', '1.2.3.4/8/1', '10.0.0.0/08x'])('rejects %s', (c) => expect(parseCidr(c)).toBeUndefined());
});
