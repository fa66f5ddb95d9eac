import { describe, expect, it } from 'vitest';
import { webrtcLeaks } from './webrtc-leak.ts';

const line = (addr: string, typ = 'srflx') => `candidate:842163049 1 udp 1677729535 ${addr} 54321 typ ${typ} raddr 0.0.0.0 rport 0 generation 0`;

describe('webrtcLeaks', () => {
  it.each([
    ['no candidates', [], '8.8.8.8', []],
    ['the same public address', [line('8.8.8.8')], '8.8.8.8', []],
    ['a different public address', [line('8.8.4.4')], '8.8.8.8', ['8.8.4.4']],
    ['a candidate line with the a= prefix', [`a=${line('8.8.4.4')}`], '8.8.8.8', ['8.8.4.4']],
    ['private and loopback addresses', [line('192.168.1.20', 'host'), line('10.0.0.2', 'host'), line('127.0.0.1', 'host')], '8.8.8.8', []],
    ['an mDNS name', [line('3f1c2a9e-1b2c-4d5e-8f90-123456789abc.local', 'host')], '8.8.8.8', []],
    ['the mapped form of the same address', ['8.8.8.8'], '::ffff:8.8.8.8', []],
    ['a public address twice', [line('8.8.4.4'), '8.8.4.4'], '8.8.8.8', ['8.8.4.4']],
    ['a public IPv6 beside an IPv4 server address', [line('2001:4860:4860::8844')], '8.8.8.8', ['2001:4860:4860::8844']],
    ['text that is no address', ['not an address'], '8.8.8.8', []],
  ])('finds for %s: %j', (_name, candidates, ip, leaks) => expect(webrtcLeaks(candidates, ip)).toEqual(leaks));
});
