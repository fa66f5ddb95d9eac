import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
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
    expect(lineFor('tor', 12 * 60_000, { failures: 2, error: 'http://x answered 503' })).toBe(
      'source tor: ok, fetched 2026-11-26T11:48:00Z (12 minutes ago), 12 ranges into tor, next 2026-11-26T13:00:00Z; 2 failed tries, last: http://x answered 503');
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

describe('versionDate', () => {
  it.each<[string, string | undefined]>([
    ['2.3.2026061719', '2026-06-17'],
    ['9.0.0', undefined],
    ['1.0.20261126', '2026-11-26'],
  ])('%s carries %s', (version, date) => {
    const ms = versionDate(version);
    expect(ms === undefined ? undefined : new Date(ms).toISOString().slice(0, 10)).toBe(date);
  });
});
