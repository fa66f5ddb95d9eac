import { describe, expect, it } from 'vitest';
import { formatIp, type ParsedIp } from './ip-address.ts';
import type { WebrtcAddress } from './record.ts';
import { classifyWebrtc, sameNetwork, webrtcLeaks, type Network } from './webrtc-leak.ts';

// A small ASN table of public addresses (documentation ranges are reserved, so the rule
// would drop them before asking); tests/lookup-engine.test.ts runs the same rule on the
// real ASN data.
const COMCAST = { asn: 7922, org: 'Comcast Cable Communications, LLC' };
const M247 = { asn: 9009, org: 'M247 Europe SRL' }; // a VPN exit
const TELEKOM = { asn: 3320, org: 'Deutsche Telekom AG' };
const NETWORKS: Record<string, Network> = {
  '73.1.2.3': COMCAST,
  '2601:1c0::1': COMCAST,
  '2601:1c0::2': COMCAST,
  // The same provider announcing its IPv6 from another ASN, its name spelled differently.
  '2603:3000::1': { asn: 33491, org: 'COMCAST CABLE COMMUNICATIONS LLC' },
  '185.1.1.1': M247,
  '2a0d:5600::1': M247,
  '79.192.0.1': TELEKOM,
  '2003::1': TELEKOM,
  '45.1.1.1': { asn: 64500, org: '' }, // networks with no name
  '45.2.2.2': { asn: 64501, org: '' },
};
const networkOf = (ip: ParsedIp): Network | null => NETWORKS[formatIp(ip)] ?? null;
const classify = (candidates: string[], page: string) => classifyWebrtc(candidates, page, networkOf);

const row = (ip: string, kind: WebrtcAddress['kind']): WebrtcAddress => ({ ip, ip_version: ip.includes(':') ? 'ipv6' : 'ipv4', kind });

describe('classifyWebrtc', () => {
  it.each<[string, string[], string, WebrtcAddress[]]>([
    ['no candidates: nothing to show', [], '73.1.2.3', []],
    ['the page\'s own address is not listed', ['73.1.2.3'], '73.1.2.3', []],
    ['dual stack, page over IPv6: the IPv4 address of the same ASN is the other address', ['73.1.2.3'], '2601:1c0::1', [row('73.1.2.3', 'other-family')]],
    ['dual stack, page over IPv4: the IPv6 address of the same ASN is the other address', ['2601:1c0::1'], '73.1.2.3', [row('2601:1c0::1', 'other-family')]],
    ['the same organisation under another ASN and spelling is the same network', ['2603:3000::1'], '73.1.2.3', [row('2603:3000::1', 'other-family')]],
    ['same family, same network, another address (an IPv6 privacy address) is not a leak', ['2601:1c0::2'], '2601:1c0::1', [row('2601:1c0::2', 'same-network')]],
    ['a VPN over IPv4 with native IPv6 outside it: the IPv6 address leaks', ['2601:1c0::1'], '185.1.1.1', [row('2601:1c0::1', 'leak')]],
    ['a proxy: a same-family address of another network leaks', ['73.1.2.3'], '185.1.1.1', [row('73.1.2.3', 'leak')]],
    ['a VPN over IPv6 with native IPv4 outside it: the IPv4 address leaks', ['79.192.0.1'], '2a0d:5600::1', [row('79.192.0.1', 'leak')]],
    ['both families of the VPN itself are its own network, not a leak', ['185.1.1.1'], '2a0d:5600::1', [row('185.1.1.1', 'other-family')]],
    ['a candidate the ASN data does not know is a leak: nothing shows it is the visitor\'s', ['77.77.77.77'], '73.1.2.3', [row('77.77.77.77', 'leak')]],
    ['a page address the ASN data does not know: every other public address is a leak', ['73.1.2.3'], '77.77.77.77', [row('73.1.2.3', 'leak')]],
    ['a page loaded over a private network: a public candidate is another network', ['73.1.2.3'], '192.168.1.1', [row('73.1.2.3', 'leak')]],
    ['two networks with no names and different ASNs are not the same network', ['45.2.2.2'], '45.1.1.1', [row('45.2.2.2', 'leak')]],
    ['private, loopback, link-local, CGNAT and ULA candidates are never listed', ['192.168.1.20', '10.0.0.5', '127.0.0.1', '100.64.0.1', 'fd00::1', 'fe80::1'], '73.1.2.3', []],
    ['mDNS host names are never listed', ['0b7f8c4e-1d2a-4b8e-9a6d-3f2e1c0d9b8a.local'], '73.1.2.3', []],
    ['garbage is ignored', ['', 'not an address', '999.1.1.1'], '73.1.2.3', []],
    ['the page address in another spelling is the page address', ['::ffff:73.1.2.3'], '73.1.2.3', []],
    ['each address is listed once, in the order first seen', ['2601:1c0::1', ' 2601:1c0::1 ', '79.192.0.1'], '73.1.2.3', [row('2601:1c0::1', 'other-family'), row('79.192.0.1', 'leak')]],
  ])('%s', (_, candidates, page, expected) => expect(classify(candidates, page)).toEqual(expected));

  it('reads the address inside full ICE candidate lines and brackets', () => {
    const lines = ['candidate:842163049 1 udp 1677729535 73.1.2.3 51234 typ srflx raddr 0.0.0.0 rport 0', '[2003::1]'];
    expect(classify(lines, '2601:1c0::1')).toEqual([row('73.1.2.3', 'other-family'), row('2003::1', 'leak')]);
  });

  it.each<[string, string, WebrtcAddress[]]>([
    ['an SDP attribute line', 'a=candidate:1 1 udp 1677729535 79.192.0.1 51234 typ srflx', [row('79.192.0.1', 'leak')]],
    ['a line with runs of spaces and tabs between fields', 'candidate:1  1 udp\t1677729535   79.192.0.1 51234 typ srflx', [row('79.192.0.1', 'leak')]],
    ['a line with spaces around it', '  candidate:1 1 udp 1677729535 79.192.0.1 51234 typ srflx  ', [row('79.192.0.1', 'leak')]],
    ['a bracketed address with spaces around it', ' [2003::1] ', [row('2003::1', 'leak')]],
    ['a line cut short before the address', 'candidate:1 1 udp 1677729535', []],
    ['text that only contains a candidate line', 'x-candidate:1 1 udp 1677729535 79.192.0.1 51234 typ srflx', []],
    ['an address with only an opening bracket', '[2003::1', []],
    ['an address with only a closing bracket', '<2003::1]', []],
  ])('reads %s', (_, candidate, expected) => expect(classify([candidate], '73.1.2.3')).toEqual(expected));

  it('finds no network for a page address that is not public, whatever the ASN data answers', () => {
    const everywhere = (): Network => COMCAST;
    expect(classifyWebrtc(['73.1.2.3'], '10.0.0.1', everywhere)).toEqual([row('73.1.2.3', 'leak')]);
    expect(classifyWebrtc(['73.1.2.3'], 'not an address', everywhere)).toEqual([row('73.1.2.3', 'leak')]);
  });
});

describe('sameNetwork', () => {
  it.each<[string, Network | null, Network | null, boolean]>([
    ['same ASN, different names', { asn: 1, org: 'A' }, { asn: 1, org: 'B' }, true],
    ['different ASN, same name ignoring case and punctuation', { asn: 1, org: 'Acme, Inc.' }, { asn: 2, org: 'ACME INC' }, true],
    ['different ASN and name', { asn: 1, org: 'Acme' }, { asn: 2, org: 'Other' }, false],
    ['empty names never match', { asn: 1, org: '' }, { asn: 2, org: '...' }, false],
    ['an unknown side never matches', null, { asn: 2, org: 'Acme' }, false],
    ['an unknown other side never matches', { asn: 2, org: 'Acme' }, null, false],
    ['names that differ only in a digit are different networks', { asn: 1, org: 'Net 1' }, { asn: 2, org: 'Net 2' }, false],
    ['names in other scripts are compared too', { asn: 1, org: 'Ростелеком' }, { asn: 2, org: 'РОСТЕЛЕКОМ' }, true],
    // Lower-cased, the dotted capital İ is i plus a combining dot, which is dropped like punctuation.
    ['a Turkish name in capitals with the dotted İ', { asn: 1, org: 'TÜRK TELEKOMÜNİKASYON A.Ş.' }, { asn: 2, org: 'Türk Telekomünikasyon A.Ş.' }, true],
  ])('%s', (_, a, b, expected) => expect(sameNetwork(a, b)).toBe(expected));
});

describe('webrtcLeaks', () => {
  it('keeps only the leaks: the VPN score takes in nothing else', () => {
    expect(webrtcLeaks([row('1.1.1.1', 'leak'), row('2001:db8::1', 'other-family'), row('8.8.8.8', 'same-network'), row('9.9.9.9', 'leak')])).toEqual(['1.1.1.1', '9.9.9.9']);
    expect(webrtcLeaks([row('2001:db8::1', 'other-family')])).toEqual([]);
  });
});
