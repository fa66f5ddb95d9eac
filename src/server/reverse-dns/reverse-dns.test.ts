import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { reverseName, startDnsServer, type TestDnsServer } from '../../../tests/support/dns-server.ts';
import { cleanHostname } from './hostname-text.ts';
import { createReverseDns } from './reverse-dns.ts';

describe('cleanHostname', () => {
  it.each([
    ['host.example.net.', 'host.example.net'],
    ['Host.Example.NET', 'host.example.net'],
    ['c-73-0-0-1.hsd1.fl.comcast.net', 'c-73-0-0-1.hsd1.fl.comcast.net'],
    ['_srv.example.net', '_srv.example.net'],
    ['a', 'a'],
    [`${'a'.repeat(63)}.net`, `${'a'.repeat(63)}.net`],
    [`${'a'.repeat(64)}.net`, null],
    [`${'a.'.repeat(126)}b`, `${'a.'.repeat(126)}b`], // 253 characters: the longest
    [`${'a.'.repeat(126)}bc`, null], // 254
    ['x'.repeat(10_000), null],
    ['', null],
    ['.', null],
    ['a..b', null],
    ['-a.net', null],
    ['a-.net', null],
    ['evil\u0007.net', null],
    ['evil\n.net', null],
    ['<script>.net', null],
    ['a b.net', null],
  ])('%j gives %j', (input, expected) => {
    expect(cleanHostname(input)).toBe(expected);
  });
});

describe('createReverseDns against a local DNS server', () => {
  let dns: TestDnsServer;
  beforeAll(async () => {
    dns = await startDnsServer({
      [reverseName('84.17.0.10')]: { ptr: ['host.example.test'] },
      'host.example.test': { a: ['84.17.0.10'], ttl: 120 },
      [reverseName('84.17.0.11')]: { ptr: ['liar.example.test'] },
      'liar.example.test': { a: ['84.17.0.99'] },
      [reverseName('84.17.0.12')]: { ptr: ['slow.example.test'], delayMs: 3000 },
      [reverseName('84.17.0.13')]: { ptr: Array.from({ length: 40 }, (_, i) => `${'x'.repeat(60)}.${'y'.repeat(60)}.${'z'.repeat(60)}.n${i}.test`) },
      [reverseName('84.17.0.14')]: { ptr: ['bad\u0001name.test'] },
      [reverseName('84.17.0.15')]: { ptr: [`${'x'.repeat(10_000)}.test`] },
      [reverseName('84.17.0.16')]: { ptr: [Array.from({ length: 100 }, () => 'x'.repeat(60)).join('.')] },
      [reverseName('2a02:2e0::1')]: { ptr: ['six.example.test'] },
      'six.example.test': { aaaa: ['2a02:2e0::1'] },
    });
  });
  afterAll(() => dns.close());
  const resolver = () => createReverseDns({ servers: [dns.address] });

  it('gives a name that resolves back to the address as confirmed', async () => {
    expect(await resolver().lookup('84.17.0.10')).toEqual({ hostname: 'host.example.test', hostname_confirmed: true });
  });

  it('confirms an IPv6 name by its AAAA records', async () => {
    expect(await resolver().lookup('2a02:2e0::1')).toEqual({ hostname: 'six.example.test', hostname_confirmed: true });
  });

  it('gives a name whose addresses do not hold the address as unconfirmed', async () => {
    expect(await resolver().lookup('84.17.0.11')).toEqual({ hostname: 'liar.example.test', hostname_confirmed: false });
  });

  it('gives null for an address without a PTR record', async () => {
    expect(await resolver().lookup('84.17.0.50')).toEqual({ hostname: null, hostname_confirmed: false });
  });

  it('gives up on a resolver that answers late within about a second', async () => {
    const start = performance.now();
    expect(await resolver().lookup('84.17.0.12')).toEqual({ hostname: null, hostname_confirmed: false });
    expect(performance.now() - start).toBeLessThan(1500);
  });

  it('refuses a 10 KB name and one with control characters, in time', async () => {
    const r = resolver();
    const start = performance.now();
    expect((await r.lookup('84.17.0.14')).hostname).toBeNull();
    expect((await r.lookup('84.17.0.15')).hostname).toBeNull();
    expect((await r.lookup('84.17.0.16')).hostname).toBeNull();
    expect(performance.now() - start).toBeLessThan(3000);
  });

  it('gives the first of an 8 KB answer of names, as a name of at most 253 characters', async () => {
    const { hostname } = await resolver().lookup('84.17.0.13');
    expect(hostname).toMatch(/^x{60}\.y{60}\.z{60}\.n0\.test$/);
  });

  it('answers a second ask from its cache without asking the server again', async () => {
    const r = resolver();
    expect(r.cached('84.17.0.10')).toBeUndefined();
    await r.lookup('84.17.0.10');
    const asked = dns.asked.length;
    expect(r.cached('84.17.0.10')).toEqual({ hostname: 'host.example.test', hostname_confirmed: true });
    await r.lookup('84.17.0.10');
    expect(dns.asked.length).toBe(asked);
  });

  describe('keeps an answer for its TTL', () => {
    afterEach(() => { vi.useRealTimers(); });
    it.each([
      ['a confirmed name: its A record\'s TTL (120 s)', '84.17.0.10', 120],
      ['no name: 300 s', '84.17.0.51', 300],
      ['a resolver that did not answer: 30 s', '84.17.0.12', 30],
    ])('%s', async (_, ip, ttl) => {
      vi.useFakeTimers({ toFake: ['Date'], now: Date.UTC(2026, 0, 1) });
      const r = resolver();
      await r.lookup(ip);
      vi.setSystemTime(Date.UTC(2026, 0, 1) + ttl * 1000 - 1);
      expect(r.cached(ip)).toBeDefined();
      vi.setSystemTime(Date.UTC(2026, 0, 1) + ttl * 1000);
      expect(r.cached(ip)).toBeUndefined();
    });
  });

  it('shares one lookup among asks in flight and refuses past its cap', async () => {
    const r = createReverseDns({ servers: [dns.address], maxInFlight: 1 });
    const asked = dns.asked.length;
    const [a, b, c] = await Promise.all([r.lookup('84.17.0.10'), r.lookup('84.17.0.10'), r.lookup('84.17.0.11')]);
    expect(a).toBe(b);
    expect(a.hostname).toBe('host.example.test');
    expect(c).toEqual({ hostname: null, hostname_confirmed: false });
    expect(dns.asked.slice(asked).filter((q) => q.startsWith('PTR'))).toHaveLength(1);
    // Refused for being busy is not kept: asked again later, it is looked up.
    expect(r.cached('84.17.0.11')).toBeUndefined();
  });

  it('asks nobody about special-purpose addresses', async () => {
    const asked = dns.asked.length;
    expect(await resolver().lookup('127.0.0.1')).toEqual({ hostname: null, hostname_confirmed: false });
    expect(await resolver().lookup('10.1.2.3')).toEqual({ hostname: null, hostname_confirmed: false });
    expect(dns.asked.length).toBe(asked);
  });
});
