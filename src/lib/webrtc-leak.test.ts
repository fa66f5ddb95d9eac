import { describe, expect, it } from 'vitest';
import { webrtcLeaks } from './webrtc-leak.ts';

describe('webrtcLeaks', () => {
  it.each<[string, string[], string, string[]]>([
    ['no candidates: no leak', [], '8.8.8.8', []],
    ['the address the server saw is not a leak', ['8.8.8.8'], '8.8.8.8', []],
    ['the same address in another spelling is not a leak', ['::ffff:8.8.8.8'], '8.8.8.8', []],
    ['a different public address is a leak', ['1.1.1.1'], '8.8.8.8', ['1.1.1.1']],
    ['a public IPv6 address is a leak, canonicalised', ['2001:4860:4860:0:0:0:0:8888'], '8.8.8.8', ['2001:4860:4860::8888']],
    ['private and loopback candidates are not leaks', ['192.168.1.20', '10.0.0.5', '127.0.0.1', 'fd00::1', 'fe80::1'], '8.8.8.8', []],
    ['mDNS host names are not leaks', ['0b7f8c4e-1d2a-4b8e-9a6d-3f2e1c0d9b8a.local'], '8.8.8.8', []],
    ['garbage is ignored', ['', 'not an address', '999.1.1.1'], '8.8.8.8', []],
    ['the address inside a full ICE candidate line counts', ['candidate:842163049 1 udp 1677729535 1.1.1.1 51234 typ srflx raddr 0.0.0.0 rport 0'], '8.8.8.8', ['1.1.1.1']],
    ['a bracketed IPv6 candidate counts', ['[2606:4700::1111]'], '8.8.8.8', ['2606:4700::1111']],
    ['each leaked address is listed once', ['1.1.1.1', ' 1.1.1.1 ', '9.9.9.9'], '8.8.8.8', ['1.1.1.1', '9.9.9.9']],
  ])('%s', (_, candidates, ip, leaks) => expect(webrtcLeaks(candidates, ip)).toEqual(leaks));
});
