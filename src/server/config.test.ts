import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('runs on embedded defaults with an empty environment', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ host: '127.0.0.1', port: 4321, webConcurrency: 1, trustProxy: { kind: 'none' } });
    expect(c.dataDir).toMatch(/\/data$/);
    expect(c.analytics).toEqual({ enabled: true, retentionDays: 90, queueLimit: 10_000, token: undefined });
  });
  it.each([
    [{ ANALYTICS: 'OFF' }, { enabled: false }],
    [{ ANALYTICS_RETENTION_DAYS: '1' }, { retentionDays: 1 }],
    [{ ANALYTICS_RETENTION_DAYS: '3650' }, { retentionDays: 3650 }],
    [{ ANALYTICS_TOKEN: '0123456789abcdef' }, { token: '0123456789abcdef' }],
  ])('reads the analytics settings %o', (env, expected) => {
    expect(loadConfig(env).analytics).toMatchObject(expected);
  });
  it.each<[string, Record<string, string>, number, string | null, number | null]>([
    ['answers STUN on 3478 by default, and the browser asks it', {}, 3478, null, 3478],
    ['STUN_PORT=0 turns the responder off', { STUN_PORT: '0' }, 0, null, null],
    ['the highest port', { STUN_PORT: '65535' }, 65535, null, 65535],
    ['PUBLIC_STUN_URL sends the browser elsewhere; the responder still runs', { PUBLIC_STUN_URL: 'stun:stun.example.net:3478' }, 3478, 'stun:stun.example.net:3478', 3478],
    ['a TLS STUN URI is accepted', { PUBLIC_STUN_URL: 'stuns:stun.example.net' }, 3478, 'stuns:stun.example.net', 3478],
  ])('%s', (_, env, port, stunUrl, stunPort) => {
    const c = loadConfig(env);
    expect(c.stunPort).toBe(port);
    expect(c.client).toMatchObject({ stunUrl, stunPort });
  });
  it.each<[Record<string, string>, { pageRateLimit: number; rateLimitSecret: string | undefined }]>([
    [{}, { pageRateLimit: 120, rateLimitSecret: undefined }],
    [{ PAGE_RATE_LIMIT: '0', RATE_LIMIT_SECRET: '' }, { pageRateLimit: 0, rateLimitSecret: undefined }],
    [{ PAGE_RATE_LIMIT: '1000000', RATE_LIMIT_SECRET: '0123456789abcdef' }, { pageRateLimit: 1_000_000, rateLimitSecret: '0123456789abcdef' }],
  ])('reads the pages\' rate limit and the Redis key secret from %o', (env, expected) => {
    expect(loadConfig(env)).toMatchObject(expected);
  });
  /** A zone of exactly 217 characters, the longest that leaves room for a token's 36-byte label. */
  const LONGEST_ZONE = ['a'.repeat(63), 'b'.repeat(63), 'c'.repeat(63), 'd'.repeat(25)].join('.');
  it.each<[string, Record<string, string>, { zone: string | undefined; port: number; answer: string[] | undefined }]>([
    ['no zone: the DNS leak test is off, port 53 by default', {}, { zone: undefined, port: 53, answer: undefined }],
    ['the zone in lower case, without its final dot', { DNS_LEAK_ZONE: ' DNS.Example.com. ' }, { zone: 'dns.example.com', port: 53, answer: undefined }],
    ['DNS_PORT=0: a free port (tests)', { DNS_LEAK_ZONE: 'dns.example.com', DNS_PORT: '0' }, { zone: 'dns.example.com', port: 0, answer: undefined }],
    ['answer addresses, trimmed and canonical', { DNS_LEAK_ANSWER: ' 192.0.2.1 , 2001:DB8:0::1' }, { zone: undefined, port: 53, answer: ['192.0.2.1', '2001:db8::1'] }],
    ['two answer addresses of each family, the most', { DNS_LEAK_ANSWER: '192.0.2.1,2001:db8::1,192.0.2.2,2001:db8::2' }, { zone: undefined, port: 53, answer: ['192.0.2.1', '2001:db8::1', '192.0.2.2', '2001:db8::2'] }],
    ['the longest zone', { DNS_LEAK_ZONE: LONGEST_ZONE }, { zone: LONGEST_ZONE, port: 53, answer: undefined }],
  ])('reads the DNS leak test settings: %s', (_, env, expected) => {
    const c = loadConfig(env);
    expect(c.dnsLeak).toEqual(expected);
    // The browser is offered the zone only once the responder listens (src/server/dns-leak/leak-test.ts).
    expect(c.client.dnsLeakZone).toBeNull();
  });
  it.each<[Record<string, string>, { enabled: boolean; servers: string[] }]>([
    [{}, { enabled: true, servers: [] }],
    [{ REVERSE_DNS: 'OFF' }, { enabled: false, servers: [] }],
    [{ DNS_RESOLVERS: '127.0.0.1:5353, [::1]:53,10.0.0.1' }, { enabled: true, servers: ['127.0.0.1:5353', '[::1]:53', '10.0.0.1:53'] }],
    [{ DNS_RESOLVERS: '::1' }, { enabled: true, servers: ['[::1]:53'] }],
    [{ DNS_RESOLVERS: '127.0.0.1:65535' }, { enabled: true, servers: ['127.0.0.1:65535'] }],
  ])('reads the reverse DNS settings %o', (env, expected) => {
    expect(loadConfig(env).reverseDns).toEqual(expected);
  });
  it.each<[Record<string, string>, { perMinute: number; allowPrivate: boolean }]>([
    [{}, { perMinute: 10, allowPrivate: false }],
    [{ PORT_CHECK_RATE_LIMIT: '0', PORT_CHECK_PRIVATE: 'ON' }, { perMinute: 0, allowPrivate: true }],
    [{ PORT_CHECK_RATE_LIMIT: '1000000', PORT_CHECK_PRIVATE: 'off' }, { perMinute: 1_000_000, allowPrivate: false }],
  ])('reads the port check settings %o', (env, expected) => {
    expect(loadConfig(env).portCheck).toEqual(expected);
  });
  it('reads the proxy header as the proxy names it, compared in lower case', () => {
    expect(loadConfig({ TRUST_PROXY: '1', TRUST_PROXY_HEADER: 'X-Real-IP' }).trustProxy).toEqual({ kind: 'hops', hops: 1, header: 'x-real-ip' });
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toEqual({ kind: 'hops', hops: 1, header: 'x-forwarded-for' });
  });
  it.each([
    ['PORT', '70000', /PORT="70000" must be a whole number from 0 to 65535/],
    ['PORT', '80a', /PORT="80a"/],
    ['WEB_CONCURRENCY', '0', /WEB_CONCURRENCY="0"/],
    ['TRUST_PROXY', 'yes please', /TRUST_PROXY entry "yes please"/],
    ['TRUST_PROXY_HEADER', 'X Forwarded', /TRUST_PROXY_HEADER "X Forwarded" must be one header name/],
    ['DATABASE_URL', 'mysql://x', /DATABASE_URL must start with postgres/],
    ['STUN_PORT', '65536', /STUN_PORT="65536" must be a whole number from 0 to 65535/],
    ['STUN_PORT', 'off', /STUN_PORT="off"/],
    ['PUBLIC_STUN_URL', 'https://stun.example.net', /PUBLIC_STUN_URL="https:\/\/stun.example.net" must be a STUN URI/],
    ['PUBLIC_STUN_URL', 'stun.example.net:3478', /PUBLIC_STUN_URL="stun.example.net:3478"/],
    ['REDIS_URL', 'localhost:6379', /REDIS_URL must start with redis:\/\//],
    ['ANALYTICS', 'maybe', /ANALYTICS="maybe" must be on or off/],
    ['ANALYTICS_RETENTION_DAYS', '0', /ANALYTICS_RETENTION_DAYS="0" must be a whole number from 1 to 3650/],
    ['ANALYTICS_RETENTION_DAYS', '3651', /ANALYTICS_RETENTION_DAYS="3651"/],
    ['ANALYTICS_TOKEN', '0123456789abcde', /ANALYTICS_TOKEN must be at least 16 characters/],
    ['ANALYTICS_QUEUE_LIMIT', '0', /ANALYTICS_QUEUE_LIMIT="0"/],
    ['PAGE_RATE_LIMIT', '1000001', /PAGE_RATE_LIMIT="1000001" must be a whole number from 0 to 1000000/],
    ['PAGE_RATE_LIMIT', '-1', /PAGE_RATE_LIMIT="-1"/],
    ['REVERSE_DNS', 'yes', /REVERSE_DNS="yes" must be on or off/],
    ['DNS_RESOLVERS', 'dns.google:53', /DNS_RESOLVERS entry "dns.google:53" must be an address/],
    ['DNS_RESOLVERS', '127.0.0.1:0', /DNS_RESOLVERS entry "127.0.0.1:0"/],
    ['DNS_RESOLVERS', '127.0.0.1:65536', /DNS_RESOLVERS entry "127.0.0.1:65536"/],
    ['DNS_RESOLVERS', '[127.0.0.1]:53', /DNS_RESOLVERS entry "\[127.0.0.1\]:53"/],
    ['DNS_RESOLVERS', '127.0.0.1:53,', /DNS_RESOLVERS entry ""/],
    ['PORT_CHECK_RATE_LIMIT', '1000001', /PORT_CHECK_RATE_LIMIT="1000001" must be a whole number from 0 to 1000000/],
    ['PORT_CHECK_PRIVATE', 'yes', /PORT_CHECK_PRIVATE="yes" must be on or off/],
    ['RATE_LIMIT_SECRET', '0123456789abcde', /RATE_LIMIT_SECRET must be at least 16 characters/],
    ['DNS_LEAK_ZONE', 'dns example.com', /DNS_LEAK_ZONE="dns example.com" must be a domain name/],
    ['DNS_LEAK_ZONE', '-dns.example.com', /DNS_LEAK_ZONE="-dns.example.com"/],
    ['DNS_LEAK_ZONE', 'dns..example.com', /DNS_LEAK_ZONE="dns..example.com"/],
    ['DNS_LEAK_ZONE', `e${['a'.repeat(63), 'b'.repeat(63), 'c'.repeat(63), 'd'.repeat(25)].join('.')}`, /of at most 217 characters/],
    ['DNS_PORT', '65536', /DNS_PORT="65536" must be a whole number from 0 to 65535/],
    ['DNS_LEAK_ANSWER', '192.0.2.1,dns.example.com', /DNS_LEAK_ANSWER: "dns.example.com" is not an IPv4 or IPv6 address/],
    ['DNS_LEAK_ANSWER', '192.0.2.1,2001:db8::1,192.0.2.2,::ffff:192.0.2.3', /DNS_LEAK_ANSWER: at most 2 IPv4 addresses, not 3/],
    ['DNS_LEAK_ANSWER', '2001:db8::1,2001:db8::2,2001:db8::3', /DNS_LEAK_ANSWER: at most 2 IPv6 addresses, not 3/],
    ['DATA_REFRESH', 'sometimes', /DATA_REFRESH="sometimes" must be on or off/],
    ['TOR_EXIT_LIST_URL', 'check.torproject.org/torbulkexitlist', /TOR_EXIT_LIST_URL="check.torproject.org\/torbulkexitlist" must be a URL starting with http/],
    ['X4BNET_LISTS_URL', 'ftp://mirror.example/lists', /X4BNET_LISTS_URL="ftp:\/\/mirror.example\/lists"/],
    ['NPM_REGISTRY_URL', 'registry', /NPM_REGISTRY_URL="registry"/],
  ])('rejects %s=%s with one clear line', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });
});

describe('loadConfig: the data refresher', () => {
  it('is on by default, with every source at its published URL', () => {
    const { refresh } = loadConfig({});
    expect(refresh.enabled).toBe(true);
    expect(refresh.urls).toMatchObject({ tor: 'https://check.torproject.org/torbulkexitlist', aws: 'https://ip-ranges.amazonaws.com/ip-ranges.json', registry: 'https://registry.npmjs.org' });
  });

  it('turns off with DATA_REFRESH=off, and each URL setting points its source elsewhere', () => {
    const { refresh } = loadConfig({ DATA_REFRESH: 'OFF', AWS_IP_RANGES_URL: 'http://127.0.0.1:9/aws.json', X4BNET_LISTS_URL: 'http://127.0.0.1:9/x4b' });
    expect(refresh.enabled).toBe(false);
    expect(refresh.urls).toMatchObject({ aws: 'http://127.0.0.1:9/aws.json', 'x4bnet-vpn': 'http://127.0.0.1:9/x4b', 'x4bnet-datacenter': 'http://127.0.0.1:9/x4b' });
  });
});
