/**
 * How fresh the data is, for /healthz: every list source (list-sources.ts) with its fetch
 * time, age, next refresh and last failure, and every data package with its version, the
 * date in it, age and next check; each `stale` past its age limit (lists: Tor 6 hours,
 * the others 3 days; databases 35 days). Read from the state files the refresher writes
 * (list-update.ts), so every worker reports what the one process that fetches knows;
 * kept for a second, as /healthz may be asked often.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ageText } from '../../lib/data-age.ts';
import { packageDir, packagesDir } from '../data/layout.ts';
import { sourcesDir, type SourceState } from './list-update.ts';
import { LIST_SOURCES, PACKAGES_SOURCE } from './list-sources.ts';
import { DATA_PACKAGES, installedVersion } from './update.ts';

export interface FreshnessOptions {
  dataDir: string;
  /** The folder of the privacy lists (the sources' states are under it). */
  listsDir: string;
  refresh: boolean;
  now?: () => number;
  /** The version of a data package installed in node_modules (default: update.ts installedVersion). */
  installedVersion?: (name: string) => string | undefined;
}

function readJson<T>(file: string): Partial<T> {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Partial<T>;
  } catch {
    return {};
  }
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The date a data package's version carries ('2.3.2026061719' → 2026-06-17), in ms; undefined when it carries none. */
export function versionDate(version: string): number | undefined {
  const match = /(\d{4})(\d{2})(\d{2})\d*$/.exec(version);
  if (!match) return undefined;
  const ms = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return Number.isFinite(ms) ? ms : undefined;
}

function nextText(refresh: boolean, state: Partial<SourceState>, now: number): string {
  if (!refresh) return 'next: off (DATA_REFRESH=off)';
  if (state.nextAt === undefined) return 'next: soon';
  return `next ${state.nextAt <= now ? 'now' : iso(state.nextAt)}`;
}

/** The failures in a row and the last one's kind: our own words, never the upstream's text or a URL (the log has those). */
const failure = (state: Partial<SourceState>) => (state.failures ? `; ${state.failures} failed ${state.failures === 1 ? 'try' : 'tries'}, last: ${state.failure ?? 'failed'}` : '');

/** A list source's state as the fetching process last wrote it. */
export interface ListSourceFreshness { id: string; into: string; state: Partial<SourceState>; stale: boolean }

/** Every list source's state, from the state files. */
export function listFreshness(listsDir: string, now: number): ListSourceFreshness[] {
  const dir = sourcesDir(listsDir);
  return LIST_SOURCES.map((source) => {
    const state = readJson<SourceState>(path.join(dir, `${source.id}.json`));
    return { id: source.id, into: source.into, state, stale: state.fetchedAt !== undefined && now - state.fetchedAt > source.staleMs };
  });
}

/** The `name: state` lines. */
function lines(o: FreshnessOptions): string[] {
  const now = (o.now ?? Date.now)();
  const out = listFreshness(o.listsDir, now).map(({ id, into, state, stale }) => {
    const next = nextText(o.refresh, state, now);
    if (state.fetchedAt === undefined) return `source ${id}: not fetched yet, ${next}${failure(state)}`;
    return `source ${id}: ${stale ? 'stale' : 'ok'}, fetched ${iso(state.fetchedAt)} (${ageText(now - state.fetchedAt)}), ${state.ranges ?? 0} ranges into ${into}, ${next}${failure(state)}`;
  });
  const packages = readJson<SourceState>(path.join(packagesDir(o.dataDir), 'packages.json'));
  for (const name of DATA_PACKAGES) {
    const fresh = readJson<{ version: string }>(path.join(packageDir(o.dataDir, name), 'package.json')).version;
    const version = fresh ?? (o.installedVersion ?? installedVersion)(name);
    const dated = version === undefined ? undefined : versionDate(version);
    const next = nextText(o.refresh, packages, now);
    if (version === undefined) { out.push(`package ${name}: not installed, ${next}`); continue; }
    const age = dated === undefined ? 'no date in its version' : `${ageText(now - dated)}`;
    const stale = dated !== undefined && now - dated > PACKAGES_SOURCE.staleMs;
    out.push(`package ${name}: ${stale ? 'stale' : 'ok'}, version ${version} (${age}${fresh ? ', fetched' : ', installed'}), ${next}${failure(packages)}`);
  }
  return out;
}

/** The freshness lines, read at most once a second. */
export function freshnessReport(o: FreshnessOptions): () => string[] {
  let kept: { at: number; lines: string[] } | undefined;
  return () => {
    const at = Date.now();
    if (!kept || at - kept.at > 1000) kept = { at, lines: lines(o) };
    return kept.lines;
  };
}
