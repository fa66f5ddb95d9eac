import { describe, expect, it } from 'vitest';
import { withDnsLeakZone } from './security-headers.ts';

const PAGE = "default-src 'self'; connect-src 'self' https:; worker-src 'self'";

describe('withDnsLeakZone', () => {
  it.each<[string, string, string | null, string]>([
    ['adds the zone\'s subdomains to connect-src', PAGE, 'dns.example.com', "default-src 'self'; connect-src 'self' https: https://*.dns.example.com; worker-src 'self'"],
    ['leaves the policy alone without a zone', PAGE, null, PAGE],
    ['takes a zone with an underscore, as DNS_LEAK_ZONE does', PAGE, '_dns.example.com', "default-src 'self'; connect-src 'self' https: https://*._dns.example.com; worker-src 'self'"],
    ['leaves it alone for an empty zone', PAGE, '', PAGE],
    ['refuses a zone that would add a directive of its own', PAGE, "x.test; script-src 'unsafe-inline'", PAGE],
    ['refuses a zone with a wildcard or a scheme', PAGE, '*.example.com', PAGE],
    ['adds it when connect-src is the first directive', "connect-src 'self'; img-src 'self'", 'z.test', "connect-src 'self' https://*.z.test; img-src 'self'"],
    ['adds it when connect-src is the last directive', "img-src 'self'; connect-src 'self'", 'z.test', "img-src 'self'; connect-src 'self' https://*.z.test"],
    ['touches no directive whose name only ends in connect-src', "x-connect-src 'self'", 'z.test', "x-connect-src 'self'"],
  ])('%s', (_, csp, zone, expected) => {
    expect(withDnsLeakZone(csp, zone)).toBe(expected);
  });
});
