import { describe, expect, it } from 'vitest';
import { toListLines, type ListFormat } from './list-formats.ts';

const aws = (v4: string[], v6: string[]) => JSON.stringify({ syncToken: '1', prefixes: v4.map((ip_prefix) => ({ ip_prefix, region: 'x' })), ipv6_prefixes: v6.map((ipv6_prefix) => ({ ipv6_prefix })) });

describe('toListLines: each upstream format as list lines', () => {
  it.each<[string, ListFormat, string[], string, string[]]>([
    // name, format, bodies, service, lines
    ['plain: blank lines, comments and surrounding space dropped', 'plain', ['# header\n\n  185.220.101.1  \r\n\t\n192.0.2.0/24\n'], '', ['185.220.101.1', '192.0.2.0/24']],
    ['plain: a comment after space is still a comment, a # later in a line is not one', 'plain', ['   # indented note\n198.51.100.7#x\n'], '', ['198.51.100.7#x']],
    ['plain: only the first field, cut at a space, a tab or a comma', 'plain', ['203.0.113.1 exit\n203.0.113.2\tnote\n203.0.113.3,named\n'], '', ['203.0.113.1', '203.0.113.2', '203.0.113.3']],
    ['plain: labelled with the service', 'plain', ['104.16.0.0/13\n\n2606:4700::/32\n'], 'Cloudflare', ['104.16.0.0/13,Cloudflare', '2606:4700::/32,Cloudflare']],
    ['plain: every body in order', 'plain', ['192.0.2.1\n', '', '2001:db8::1\n'], 'X', ['192.0.2.1,X', '2001:db8::1,X']],
    ['relay: the city and the country', 'relay-csv', ['172.224.224.0/27,GB,GB-EN,London,\n'], '', ['172.224.224.0/27,London (GB)']],
    ['relay: the region when there is no city', 'relay-csv', ['104.28.0.0/26,US,US-CA,,\n'], '', ['104.28.0.0/26,US-CA (US)']],
    ['relay: the country alone', 'relay-csv', ['104.28.1.0/26,US,,,\n'], '', ['104.28.1.0/26,US']],
    ['relay: a place without a country', 'relay-csv', ['104.28.2.0/26,,,Paris,\n'], '', ['104.28.2.0/26,Paris']],
    ['relay: no place at all, the prefix alone, trimmed', 'relay-csv', ['104.28.3.0/26 , , , ,\n104.28.4.0/26\n'], '', ['104.28.3.0/26', '104.28.4.0/26']],
    ['relay: the place columns trimmed, comments and blanks dropped', 'relay-csv', ['# Apple\n\n172.224.226.0/27, DE , DE-BE , Berlin ,\n'], '', ['172.224.226.0/27,Berlin (DE)']],
    ['relay: the prefix trimmed before its place', 'relay-csv', ['172.224.227.0/27 ,FR,FR-IDF,Paris,\n'], '', ['172.224.227.0/27,Paris (FR)']],
    ['relay: the service is not its label', 'relay-csv', ['172.224.224.0/27,GB,GB-EN,London,\n'], 'ignored', ['172.224.224.0/27,London (GB)']],
    ['geofeed: the prefix, trimmed, with the service', 'geofeed', ['# DigitalOcean\n5.101.96.0/21 ,NL,NL-NH,Amsterdam,1098\n\n2a03:b0c0::/48,NL,,,\n'], 'DigitalOcean', ['5.101.96.0/21,DigitalOcean', '2a03:b0c0::/48,DigitalOcean']],
    ['geofeed: without a service, the prefix alone', 'geofeed', ['5.101.96.0/21,NL\n'], '', ['5.101.96.0/21']],
    ['aws: IPv4 then IPv6 prefixes', 'aws-json', [aws(['3.5.140.0/22', '52.95.245.0/24'], ['2600:1f14::/35'])], 'AWS', ['3.5.140.0/22,AWS', '52.95.245.0/24,AWS', '2600:1f14::/35,AWS']],
    ['aws: two documents in order', 'aws-json', [aws(['3.5.140.0/22'], []), aws([], ['2600:1f14::/35'])], '', ['3.5.140.0/22', '2600:1f14::/35']],
    ['google: either family, an entry with neither skipped', 'google-json', [JSON.stringify({ prefixes: [{ ipv4Prefix: '34.1.208.0/20' }, { service: 'none' }, { ipv6Prefix: '2600:1900:8000::/44' }] })], 'Google Cloud', ['34.1.208.0/20,Google Cloud', '2600:1900:8000::/44,Google Cloud']],
    ['oracle: every region, every cidr', 'oracle-json', [JSON.stringify({ regions: [{ cidrs: [{ cidr: '129.146.0.0/21' }, { cidr: '134.70.24.0/21' }] }, { cidrs: [] }, { cidrs: [{ cidr: '130.61.0.0/16' }] }] })], 'Oracle Cloud', ['129.146.0.0/21,Oracle Cloud', '134.70.24.0/21,Oracle Cloud', '130.61.0.0/16,Oracle Cloud']],
  ])('%s', (_name, format, bodies, service, lines) => {
    expect(toListLines(format, bodies, service)).toEqual(lines);
  });

  it('labels nothing when no service is given', () => {
    expect(toListLines('plain', ['192.0.2.1\n'])).toEqual(['192.0.2.1']);
    expect(toListLines('aws-json', [aws(['3.5.140.0/22'], [])])).toEqual(['3.5.140.0/22']);
  });

  it.each<[ListFormat, string, string]>([
    ['aws-json', JSON.stringify({ prefixes: 'none', ipv6_prefixes: [] }), "not AWS's ip-ranges.json"],
    ['aws-json', JSON.stringify({ prefixes: [] }), "not AWS's ip-ranges.json"],
    ['google-json', JSON.stringify({ prefixes: [{ ipv4Prefix: 7 }] }), "not Google Cloud's cloud.json"],
    ['oracle-json', JSON.stringify({ regions: [{ cidrs: [{ cidr: null }] }] }), "not Oracle's public_ip_ranges.json"],
  ])('refuses a %s document of another shape', (format, body, message) => {
    expect(() => toListLines(format, [body])).toThrow(new Error(message));
  });

  it('refuses what is not JSON, quoting its first 40 characters with their white space folded', () => {
    const page = '<!DOCTYPE html>\n\n  <html>\t<head><title>503 Service Unavailable</title></head></html>';
    expect(() => toListLines('google-json', [page])).toThrow(new Error('not JSON (starts "<!DOCTYPE html> <html> <head><title>5")'));
  });
});
