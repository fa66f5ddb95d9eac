import { describe, expect, it } from 'vitest';
import { parseIp } from '../../lib/ip-address.ts';
import { clientIp, forwardedProtoIsHttps, parseTrustProxy, trustsPeer, untrustedProxyHeader } from './client-ip.ts';

const headers = (h: Record<string, string>) => ({ get: (n: string) => h[n.toLowerCase()] ?? null });

describe('clientIp', () => {
  const cases: Array<[string, string, Record<string, string>, string, string, string?]> = [
    // [behaviour, peer, headers, TRUST_PROXY, expected, TRUST_PROXY_HEADER (default X-Forwarded-For)]
    ['uses the socket address when no proxy is trusted', '203.0.113.5', {}, '', '203.0.113.5'],
    ['treats X-Forwarded-For from an untrusted peer as absent', '203.0.113.5', { 'x-forwarded-for': '1.2.3.4' }, '', '203.0.113.5'],
    ['treats X-Real-IP from an untrusted peer as absent', '203.0.113.5', { 'x-real-ip': '1.2.3.4' }, '10.0.0.0/8', '203.0.113.5'],
    ['shows an IPv4-mapped IPv6 peer as IPv4', '::ffff:198.51.100.2', {}, '', '198.51.100.2'],
    ['canonicalises an IPv6 peer', '2001:DB8:0:0:0:0:0:1', {}, '', '2001:db8::1'],
    ['takes the client from X-Forwarded-For when the peer is trusted', '10.0.0.2', { 'x-forwarded-for': '198.51.100.7' }, '10.0.0.0/8', '198.51.100.7'],
    ['walks a chain through two trusted proxies', '10.0.0.2', { 'x-forwarded-for': '198.51.100.7, 10.1.1.1' }, '10.0.0.0/8', '198.51.100.7'],
    ['stops at the first untrusted hop from the right', '10.0.0.2', { 'x-forwarded-for': '6.6.6.6, 198.51.100.7, 10.1.1.1' }, '10.0.0.0/8', '198.51.100.7'],
    ['uses every hop when all are trusted', '10.0.0.2', { 'x-forwarded-for': '10.9.9.9, 10.1.1.1' }, '10.0.0.0/8', '10.9.9.9'],
    ['honours a hop count of one', '192.0.2.1', { 'x-forwarded-for': '6.6.6.6, 198.51.100.7' }, '1', '198.51.100.7'],
    ['honours a hop count of two', '192.0.2.1', { 'x-forwarded-for': '6.6.6.6, 198.51.100.7, 192.0.2.9' }, '2', '198.51.100.7'],
    ['falls back to the leftmost hop when the chain is shorter than the hop count', '192.0.2.1', { 'x-forwarded-for': '198.51.100.7' }, '3', '198.51.100.7'],
    ['reads the Forwarded header with a quoted, bracketed IPv6 and port when the proxy sets it', '127.0.0.1', { forwarded: 'for="[2001:db8:cafe::17]:4711";proto=https' }, 'loopback', '2001:db8:cafe::17', 'Forwarded'],
    ['walks a Forwarded chain from the right', '127.0.0.1', { forwarded: 'for=6.6.6.6, for=198.51.100.1;proto=https' }, '1', '198.51.100.1', 'forwarded'],
    // A client can send any header: only the one the operator's proxy sets is read.
    ['ignores a client-sent Forwarded when the proxy sets X-Forwarded-For', '127.0.0.1', { forwarded: 'for=6.6.6.6', 'x-forwarded-for': '198.51.100.2' }, 'loopback', '198.51.100.2'],
    ['ignores a client-sent Forwarded naming a private address', '127.0.0.1', { forwarded: 'for=10.0.0.1', 'x-forwarded-for': '198.51.100.2' }, '1', '198.51.100.2'],
    ['ignores a client-sent X-Real-IP when the proxy sets X-Forwarded-For', '127.0.0.1', { 'x-real-ip': '6.6.6.6' }, 'loopback', '127.0.0.1'],
    ['ignores a client-sent X-Forwarded-For when the proxy sets Forwarded', '127.0.0.1', { 'x-forwarded-for': '6.6.6.6', forwarded: 'for=198.51.100.1' }, 'loopback', '198.51.100.1', 'Forwarded'],
    ['strips a port from an IPv4 hop', '127.0.0.1', { 'x-forwarded-for': '198.51.100.7:5555' }, 'loopback', '198.51.100.7'],
    ['strips brackets and port from an IPv6 hop', '127.0.0.1', { 'x-forwarded-for': '[2001:db8::5]:443' }, 'loopback', '2001:db8::5'],
    ['accepts an unbracketed IPv6 hop', '127.0.0.1', { 'x-forwarded-for': '2001:db8::5' }, 'loopback', '2001:db8::5'],
    ['reads X-Real-IP when the proxy sets it', '127.0.0.1', { 'x-real-ip': '198.51.100.8', 'x-forwarded-for': '6.6.6.6' }, 'loopback', '198.51.100.8', 'X-Real-IP'],
    ['makes the client unknown, not the proxy, for a hop that is not an address', '127.0.0.1', { 'x-forwarded-for': 'not-an-ip' }, 'loopback', 'unknown'],
    ['makes the client unknown for a trusted proxy\'s "unknown" after a client-sent address', '127.0.0.1', { 'x-forwarded-for': '8.8.8.8, unknown' }, 'loopback', 'unknown'],
    ['makes the client unknown for an empty hop', '127.0.0.1', { 'x-forwarded-for': '8.8.8.8, ' }, 'loopback', 'unknown'],
    ['reads garbage left of the first untrusted hop as the client\'s own, not as unknown', '127.0.0.1', { 'x-forwarded-for': 'unknown, 198.51.100.7' }, 'loopback', '198.51.100.7'],
    ['takes the proxy as the client when it sends no header at all', '127.0.0.1', {}, 'loopback', '127.0.0.1'],
    ['makes the client unknown at garbage reached through trusted hops', '127.0.0.1', { 'x-forwarded-for': '198.51.100.1, <script>, 127.0.0.2' }, 'loopback', 'unknown'],
    ['makes the client unknown for a header sent empty', '127.0.0.1', { 'x-forwarded-for': '' }, 'loopback', 'unknown'],
    ['makes the client unknown for an out-of-range octet', '127.0.0.1', { 'x-forwarded-for': '1.2.3.256' }, 'loopback', 'unknown'],
    ['makes the client unknown for an obfuscated Forwarded identifier', '127.0.0.1', { forwarded: 'for=_hidden' }, 'loopback', 'unknown', 'Forwarded'],
    ['makes the client unknown for Forwarded for=unknown', '127.0.0.1', { forwarded: 'for=unknown' }, 'loopback', 'unknown', 'Forwarded'],
    ['shows a mapped address from a header as IPv4', '127.0.0.1', { 'x-forwarded-for': '::ffff:198.51.100.3' }, 'loopback', '198.51.100.3'],
    ['reads for= in any case', '127.0.0.1', { forwarded: 'For=198.51.100.1' }, 'loopback', '198.51.100.1', 'Forwarded'],
    ['reads for= among other parameters', '127.0.0.1', { forwarded: 'by=10.0.0.1; for=198.51.100.9;proto=http' }, 'loopback', '198.51.100.9', 'Forwarded'],
    ['reads a quoted IPv4 in Forwarded', '127.0.0.1', { forwarded: 'for="198.51.100.4"' }, 'loopback', '198.51.100.4', 'Forwarded'],
    ['makes the client unknown for a Forwarded element without for=', '127.0.0.1', { forwarded: 'proto=https' }, 'loopback', 'unknown', 'Forwarded'],
    ['makes the client unknown for an IPv6 hop with an unclosed bracket', '127.0.0.1', { 'x-forwarded-for': '[2001:db8::5' }, 'loopback', 'unknown'],
    ['makes the client unknown for a port followed by junk', '127.0.0.1', { 'x-forwarded-for': '198.51.100.7:80abc' }, 'loopback', 'unknown'],
    ['keeps an unbracketed IPv6 hop that ends in two numeric groups', '127.0.0.1', { 'x-forwarded-for': '2001:db8::1:2' }, 'loopback', '2001:db8::1:2'],
    ['trusts the last address of a named range', '172.31.255.255', { 'x-forwarded-for': '198.51.100.7' }, 'private', '198.51.100.7'],
    ['does not trust the address after it', '172.32.0.0', { 'x-forwarded-for': '198.51.100.7' }, 'private', '172.32.0.0'],
    ['trusts an IPv6 private proxy by name', 'fd12::1', { 'x-forwarded-for': '198.51.100.7' }, 'private', '198.51.100.7'],
    ['trusts an IPv6 link-local proxy by name', 'fe80::1', { 'x-forwarded-for': '198.51.100.7' }, 'linklocal', '198.51.100.7'],
    ['trusts an IPv4 link-local proxy by name', '169.254.1.1', { 'x-forwarded-for': '198.51.100.7' }, 'linklocal', '198.51.100.7'],
    ['trusts IPv6 loopback by name', '::1', { 'x-forwarded-for': '198.51.100.7' }, 'loopback', '198.51.100.7'],
    ['skips empty entries in the trust list', '10.0.0.2', { 'x-forwarded-for': '198.51.100.7' }, '192.0.2.1,, 10.0.0.0/8', '198.51.100.7'],
    ['keeps a peer it cannot parse as it is', 'unix-socket', { 'x-forwarded-for': '198.51.100.7' }, 'loopback', 'unix-socket'],
    ['strips a port from a hop written after a comma and a space', '127.0.0.1', { 'x-forwarded-for': '6.6.6.6, 198.51.100.7:5555' }, 'loopback', '198.51.100.7'],
    ['makes the client unknown for a Forwarded value quoted only up to its port', '127.0.0.1', { forwarded: 'for="198.51.100.7":4711' }, 'loopback', 'unknown', 'Forwarded'],
    ['makes the client unknown for a hop with quotes inside it', '127.0.0.1', { 'x-forwarded-for': '198.51.100."7"' }, 'loopback', 'unknown'],
    ['reads for= and not a parameter that only starts with for', '127.0.0.1', { forwarded: 'forx=6.6.6.6;for=198.51.100.9' }, 'loopback', '198.51.100.9', 'Forwarded'],
  ];
  it.each(cases)('%s', (_name, peer, h, trust, expected, header) => {
    expect(clientIp(peer, headers(h), parseTrustProxy(trust, header))).toBe(expected);
  });
});

describe('parseTrustProxy', () => {
  it.each([
    ['', { kind: 'none' }], ['false', { kind: 'none' }], ['0', { kind: 'none' }],
    [' 2 ', { kind: 'hops', hops: 2, header: 'x-forwarded-for' }], ['32', { kind: 'hops', hops: 32, header: 'x-forwarded-for' }],
  ])('reads %j as %j', (value, expected) => {
    expect(parseTrustProxy(value)).toEqual(expected);
  });
  it.each([
    ['10.0.0.0/8, ::1', 2], ['loopback,private', 6], ['private, loopback', 6], ['linklocal', 2],
  ])('reads %j as %i CIDRs', (value, count) => {
    const trust = parseTrustProxy(value);
    expect(trust.kind === 'cidrs' && trust.cidrs.length).toBe(count);
  });
  it.each([
    ['10.0.0.0/33', 'TRUST_PROXY entry "10.0.0.0/33" is not a CIDR, an address, a hop count or loopback/private/linklocal'],
    ['proxy.local', 'TRUST_PROXY entry "proxy.local" is not a CIDR, an address, a hop count or loopback/private/linklocal'],
    ['1.2.3.4/8/9', 'TRUST_PROXY entry "1.2.3.4/8/9" is not a CIDR, an address, a hop count or loopback/private/linklocal'],
    ['33', 'TRUST_PROXY hop count 33 is implausible (max 32)'],
  ])('rejects %j with a reason', (value, reason) => {
    expect(() => parseTrustProxy(value)).toThrow(reason);
  });
  it.each(['X Forwarded', 'x-forwarded-for,forwarded', 'a:b'])('rejects the proxy header %j with a reason', (header) => {
    expect(() => parseTrustProxy('1', header)).toThrow(/TRUST_PROXY_HEADER/);
  });
});

describe('forwardedProtoIsHttps', () => {
  it.each([
    ['believes https from a trusted peer', '127.0.0.1', { 'x-forwarded-proto': 'https' }, 'loopback', true],
    ['ignores https from an untrusted peer', '203.0.113.1', { 'x-forwarded-proto': 'https' }, 'loopback', false],
    ['ignores the header when nothing is trusted', '127.0.0.1', { 'x-forwarded-proto': 'https' }, '', false],
    ['reads proto from Forwarded when the proxy sets Forwarded', '127.0.0.1', { forwarded: 'for=1.2.3.4;proto=https' }, '1', true, 'Forwarded'],
    ['is false for plain http', '127.0.0.1', { 'x-forwarded-proto': 'http' }, 'loopback', false],
    // The proxy appends its own value: a client-injected leftmost https must not turn HSTS on.
    ['takes the rightmost X-Forwarded-Proto, the one the proxy appended', '127.0.0.1', { 'x-forwarded-proto': 'https, http' }, 'loopback', false],
    ['believes a rightmost https after a client-sent http', '127.0.0.1', { 'x-forwarded-proto': 'http, https' }, 'loopback', true],
    ['ignores a client-sent Forwarded proto when the proxy sets X-Forwarded-For', '127.0.0.1', { forwarded: 'proto=https', 'x-forwarded-proto': 'http' }, 'loopback', false],
    ['takes the rightmost Forwarded element\'s proto', '127.0.0.1', { forwarded: 'for=6.6.6.6;proto=https, for=1.2.3.4;proto=http' }, '1', false, 'Forwarded'],
    ['reads the scheme in any case', '127.0.0.1', { 'x-forwarded-proto': 'HTTPS' }, 'loopback', true],
    ['reads a quoted proto from Forwarded', '127.0.0.1', { forwarded: 'for=1.2.3.4;proto="https"' }, 'loopback', true, 'Forwarded'],
    ['does not read a parameter that only ends in proto', '127.0.0.1', { forwarded: 'for=1.2.3.4;xproto=https' }, 'loopback', false, 'Forwarded'],
    ['is false without any header', '127.0.0.1', {}, 'loopback', false],
    ['is false for a peer it cannot parse', 'unix-socket', { 'x-forwarded-proto': 'https' }, 'loopback', false],
    ['does not read a scheme with quotes inside it', '127.0.0.1', { 'x-forwarded-proto': 'http"s"' }, 'loopback', false],
    ['does not read a quoted proto followed by more text', '127.0.0.1', { forwarded: 'for=1.2.3.4;proto="http"s' }, 'loopback', false, 'Forwarded'],
  ] as const)('%s', (_n, peer, h, trust, expected, header?: string) => {
    expect(forwardedProtoIsHttps(peer, headers(h), parseTrustProxy(trust, header))).toBe(expected);
  });
});

describe('untrustedProxyHeader', () => {
  // [peer, headers, TRUST_PROXY, the header named (undefined: nothing to warn of)]
  it.each<[string, Record<string, string>, string, string | undefined]>([
    ['127.0.0.1', { 'x-forwarded-for': '8.8.8.8' }, '', 'X-Forwarded-For'],
    ['10.0.0.5', { forwarded: 'for=8.8.8.8' }, '', 'Forwarded'],
    ['::1', { 'x-real-ip': '8.8.8.8' }, '', 'X-Real-IP'],
    ['fd00::2', { 'x-forwarded-for': '8.8.8.8' }, '', 'X-Forwarded-For'],
    ['::ffff:192.168.1.1', { 'x-forwarded-for': '8.8.8.8' }, '', 'X-Forwarded-For'],
    ['100.64.0.1', { 'x-forwarded-for': '8.8.8.8' }, '', 'X-Forwarded-For'],
    ['127.0.0.1', { 'x-forwarded-for': '' }, '', 'X-Forwarded-For'],
    ['127.0.0.1', { forwarded: 'for=8.8.8.8', 'x-real-ip': '8.8.8.8' }, '', 'Forwarded'],
    ['127.0.0.1', { 'x-forwarded-for': '8.8.8.8', forwarded: 'for=8.8.8.8' }, '', 'X-Forwarded-For'],
    // A public peer's headers are its own; a trusted proxy is what the setting is for.
    ['8.8.8.8', { 'x-forwarded-for': '1.1.1.1' }, '', undefined],
    ['2606:4700::1111', { forwarded: 'for=1.1.1.1' }, '', undefined],
    ['127.0.0.1', {}, '', undefined],
    ['127.0.0.1', { 'x-client-ip': '8.8.8.8' }, '', undefined],
    ['127.0.0.1', { 'x-forwarded-for': '8.8.8.8' }, 'loopback', undefined],
    ['127.0.0.1', { 'x-forwarded-for': '8.8.8.8' }, '1', undefined],
    ['', { 'x-forwarded-for': '8.8.8.8' }, '', undefined],
  ])('from %s with %j, TRUST_PROXY=%s: %s', (peer, h, trust, expected) => {
    expect(untrustedProxyHeader(peer, headers(h), parseTrustProxy(trust))).toBe(expected);
  });
});

describe('trustsPeer', () => {
  it.each<[string, string, boolean]>([
    ['10.0.0.2', '', false],
    ['127.0.0.1', '', false],
    ['8.8.8.8', '1', true],
    ['10.0.0.2', '10.0.0.0/8', true],
    ['11.0.0.0', '10.0.0.0/8', false],
    ['9.255.255.255', '10.0.0.0/8', false],
    ['::1', 'loopback', true],
    ['127.0.0.1', 'private', false],
  ])('%s with TRUST_PROXY=%s: %s', (peer, trust, expected) => {
    expect(trustsPeer(parseIp(peer)!, parseTrustProxy(trust))).toBe(expected);
  });
});
