import type { NetworkInterfaceInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { dnsZone, ownAddresses } from './leak-test.ts';

const nic = (address: string, family: 'IPv4' | 'IPv6', internal = false) => ({ address, family, internal }) as NetworkInterfaceInfo;
const MACHINE = {
  lo: [nic('127.0.0.1', 'IPv4', true), nic('::1', 'IPv6', true)],
  eth0: [nic('169.254.1.2', 'IPv4'), nic('fe80::1%eth0', 'IPv6'), nic('198.51.100.7', 'IPv4'), nic('2001:db8::7', 'IPv6'), nic('198.51.100.8', 'IPv4')],
};

describe('ownAddresses: what the zone\'s names answer without DNS_LEAK_ANSWER', () => {
  it.each<[string, string, Record<string, NetworkInterfaceInfo[]>, string[]]>([
    ['HOST naming one address: that address', '198.51.100.9', MACHINE, ['198.51.100.9']],
    ['HOST on loopback (a local run): loopback', '127.0.0.1', MACHINE, ['127.0.0.1']],
    ['HOST 0.0.0.0: the first IPv4 and IPv6 of the interfaces, not loopback or link-local', '0.0.0.0', MACHINE, ['198.51.100.7', '2001:db8::7']],
    ['HOST ::: the same', '::', MACHINE, ['198.51.100.7', '2001:db8::7']],
    ['HOST a name: the interfaces', 'localhost', MACHINE, ['198.51.100.7', '2001:db8::7']],
    ['an IPv4-only machine: its IPv4 only', '0.0.0.0', { eth0: [nic('198.51.100.7', 'IPv4')] }, ['198.51.100.7']],
    ['no interface but loopback: 127.0.0.1', '0.0.0.0', { lo: MACHINE.lo }, ['127.0.0.1']],
  ])('%s', (_, host, interfaces, expected) => {
    expect(ownAddresses(host, interfaces)).toEqual(expected);
  });
});

describe('dnsZone', () => {
  it('splits the zone into labels and the addresses into the bytes A and AAAA records carry', () => {
    expect(dnsZone('dns.example.com', ['192.0.2.1', '2001:db8::1', '192.0.2.255'])).toEqual({
      labels: ['dns', 'example', 'com'],
      ipv4: [Buffer.from([192, 0, 2, 1]), Buffer.from([192, 0, 2, 255])],
      ipv6: [Buffer.from('20010db8000000000000000000000001', 'hex')],
    });
  });
});
