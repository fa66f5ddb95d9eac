/**
 * The privacy lists on disk (Tor exits, iCloud Private Relay egress, VPN, open-proxy and
 * hosting ranges), each compiled into a RangeList and swapped for a fresh one when its
 * file changes, without a restart: `npm run data:update` (scripts/data-update.ts) rewrites
 * the files and every running process picks them up within the poll interval. Each list
 * is optional, as the other data sources are (sources.ts): a missing file leaves its
 * check unavailable (the record says so, src/lib/privacy.ts), and a file that appears
 * later is loaded then. Polled with stat() (utils/watch-file.ts): that survives the rename
 * that replaces a file, and costs one stat per list per interval.
 */
import { listsDir } from './layout.ts';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ParsedIp } from '../../lib/ip-address.ts';
import type { ListCheck, PrivacyFlag } from '../../lib/privacy.ts';
import { RangeList } from './range-list.ts';
import { errorMessage } from '../../lib/error-message.ts';
import { watchForChanges } from '../utils/watch-file.ts';

/** A path per list. */
export type ListPaths = Record<PrivacyFlag, string>;

/** File names under DATA_DIR/lists when no setting names another path. */
export const DEFAULT_LIST_FILES: Readonly<ListPaths> = {
  tor: 'tor-exits.txt',
  relay: 'private-relay.csv',
  vpn: 'vpn.txt',
  proxy: 'proxy.txt',
  hosting: 'hosting.txt',
};

/** The environment setting that names each list's path. */
export const LIST_SETTINGS: Readonly<Record<PrivacyFlag, string>> = {
  tor: 'TOR_EXIT_LIST',
  relay: 'PRIVATE_RELAY_LIST',
  vpn: 'VPN_LIST',
  proxy: 'PROXY_LIST',
  hosting: 'HOSTING_LIST',
};

/** The default paths under a data directory. */
export function defaultListPaths(dataDir: string): ListPaths {
  const entries = Object.entries(DEFAULT_LIST_FILES).map(([kind, file]) => [kind, path.join(listsDir(dataDir), file)]);
  return Object.fromEntries(entries) as ListPaths;
}

/** VPN, proxy and hosting lists may name the service in their second field; Private Relay ranges their place. */
const LABELLED: ReadonlySet<PrivacyFlag> = new Set(['vpn', 'proxy', 'hosting', 'relay']);

/** A source a list file was written from, by its `# source` line (src/server/data-update/list-update.ts). */
export interface FileSource { id: string; fetchedAt: number; service: string; name: string }

const SOURCE_LINE = /^# source (\S+) fetched (\S+?)(?: as (.+?))?: (.+)$/gm;

/** The `# source` lines of a list file, in order. */
export function sourcesOf(text: string): FileSource[] {
  const out: FileSource[] = [];
  for (const [, id, at, service, name] of text.matchAll(SOURCE_LINE)) {
    const fetchedAt = Date.parse(at!);
    if (Number.isFinite(fetchedAt)) out.push({ id: id!, fetchedAt, service: service ?? '', name: name!.trim() });
  }
  return out;
}

type Attribution = Pick<ListCheck, 'source' | 'fetchedAt'>;

/** One source's section of a list file written from several (hosting: cloud providers and X4BNet's list). */
interface Part { list: RangeList; source: FileSource }

/**
 * A loaded list: `list` holds every range (one search tells a miss); with several sources,
 * `parts` holds each source's own, asked on a hit for the service and source: merged into
 * one index, a provider's range inside a wider unnamed one would lose its name.
 */
interface Loaded { list: RangeList; updated: string; sources: FileSource[]; miss: Attribution; parts: Part[]; mtimeMs: number; size: number; ino: number }

/** The sections of a list file written from several sources, each compiled alone. */
function partsOf(text: string, sources: FileSource[], labelColumn: boolean): Part[] {
  if (sources.length < 2) return [];
  return text.split(/^(?=# source )/m).flatMap((section) => {
    const [source] = sourcesOf(section);
    return source ? [{ list: RangeList.parse(section, { labelColumn }).list, source }] : [];
  });
}

/** The source of a listed row in a file of one source at most (a file of several is asked part by part: partsOf). */
function soleAttribution(sources: FileSource[]): Attribution {
  const [from] = sources;
  return from ? { source: from.name, fetchedAt: from.fetchedAt } : {};
}

/** A miss is answered by every source of the list: named together, with the oldest one's age. */
function missAttribution(sources: FileSource[]): Attribution {
  if (sources.length === 0) return {};
  const fetchedAt = Math.min(...sources.map((s) => s.fetchedAt));
  return { source: sources.length === 1 ? sources[0]!.name : `${sources[0]!.name} and ${sources.length - 1} more`, fetchedAt };
}

/** What one list holds of a network: IPv4 addresses, IPv6 /48s, and the list file's date (YYYY-MM-DD). */
export interface ListCoverage { v4: number; v6: number; updated: string }

export interface ListOptions {
  /** How often each file's stat is polled, ms (0: never; tests set a short one). */
  pollMs?: number;
  log?: (line: string) => void;
}

/** The lists of one process; `generation` counts the changes (the /json memo reads it). */
export class PrivacyLists {
  private readonly loaded = new Map<PrivacyFlag, Loaded>();
  private readonly paths: ListPaths;
  private readonly log: (line: string) => void;
  private readonly unwatch: Array<() => void> = [];
  /** Bumped every time a list is loaded, replaced or dropped. */
  generation = 0;
  private missedAnswer: Readonly<Partial<Record<PrivacyFlag, ListCheck>>> = {};
  private missedIn = -1;

  private constructor(paths: ListPaths, log: (line: string) => void) {
    this.paths = paths;
    this.log = log;
  }

  /** Loads every list that exists and, with `pollMs`, watches all of them. */
  static async open(paths: ListPaths, options: ListOptions = {}): Promise<PrivacyLists> {
    const lists = new PrivacyLists(paths, options.log ?? ((line) => console.warn(`lists: ${line}`)));
    const kinds = Object.keys(paths) as PrivacyFlag[];
    await Promise.all(kinds.map((kind) => lists.reload(kind, true)));
    const missing = kinds.filter((kind) => !lists.loaded.has(kind));
    if (missing.length) lists.log(`not loaded (their checks say "not available"): ${missing.map((k) => paths[k]).join(', ')}; the refresher (or npm run data:update) fetches the public ones`);
    if (options.pollMs) for (const kind of kinds) lists.watch(kind, options.pollMs);
    return lists;
  }

  /** Which lists are loaded, with their range counts (for logs and tests). */
  summary(): Partial<Record<PrivacyFlag, number>> {
    return Object.fromEntries([...this.loaded].map(([kind, l]) => [kind, l.list.v4Count + l.list.v6Count]));
  }

  /** Each list's state for /healthz: its ranges and file date, or that its check is not available (its file by name only: /healthz shows no path; the start's log line has it). */
  states(): Array<[string, string]> {
    return (Object.keys(this.paths) as PrivacyFlag[]).map((kind) => {
      const l = this.loaded.get(kind);
      const state = l ? `ok (${l.list.v4Count + l.list.v6Count} ranges, file of ${l.updated})` : `not loaded (no ${path.basename(this.paths[kind])}): its check says "not available"`;
      return [`${kind} list`, state];
    });
  }

  /**
   * Every loaded list's answer for an address that none of them holds: one frozen object
   * per generation, which `check` returns for such an address, so that a caller can tell
   * the common case by identity and share what it builds from it (privacy-memo.ts).
   */
  missed(): Readonly<Partial<Record<PrivacyFlag, ListCheck>>> {
    if (this.missedIn !== this.generation) {
      const out: Partial<Record<PrivacyFlag, ListCheck>> = {};
      for (const [kind, { updated, miss }] of this.loaded) out[kind] = Object.freeze({ listed: false, service: '', updated, source: miss.source, fetchedAt: miss.fetchedAt });
      this.missedAnswer = Object.freeze(out);
      this.missedIn = this.generation;
    }
    return this.missedAnswer;
  }

  /** Each loaded list's answer for an address; a list that is not loaded is absent. `missed()` itself when no list holds it. */
  check(parsed: ParsedIp, words: Uint32Array): Readonly<Partial<Record<PrivacyFlag, ListCheck>>> {
    let out: Partial<Record<PrivacyFlag, ListCheck>> | undefined;
    for (const [kind, { list, updated, sources, parts }] of this.loaded) {
      const row = parsed.version === 4 ? list.find4(parsed.value) : list.find6(words);
      if (row < 0) continue;
      out ??= { ...this.missed() };
      let service = list.label(row);
      let from = parts.length ? undefined : soleAttribution(sources);
      for (const part of parts) {
        const r = parsed.version === 4 ? part.list.find4(parsed.value) : part.list.find6(words);
        if (r >= 0) { service = part.list.label(r); from = { source: part.source.name, fetchedAt: part.source.fetchedAt }; break; }
      }
      out[kind] = { listed: true, service, updated, source: from?.source, fetchedAt: from?.fetchedAt };
    }
    return out ?? this.missed();
  }

  /**
   * How much of a network's space each loaded list holds: its IPv4 addresses and its IPv6
   * /48s on the list, and the list file's date. `ranges4` holds [first, last] pairs,
   * `ranges6` eight words per range (first, then last), as the network index keeps them.
   */
  coverage(ranges4: Uint32Array, ranges6: Uint32Array): Partial<Record<PrivacyFlag, ListCoverage>> {
    const out: Partial<Record<PrivacyFlag, ListCoverage>> = {};
    for (const [kind, { list, updated }] of this.loaded) {
      let v4 = 0;
      let v6 = 0;
      for (let k = 0; k < ranges4.length; k += 2) v4 += list.covered4(ranges4[k]!, ranges4[k + 1]!);
      for (let k = 0; k < ranges6.length; k += 8) v6 += list.covered6(ranges6, k);
      out[kind] = { v4, v6, updated };
    }
    return out;
  }

  /** Reads a list's file again now (the refresher in this process just wrote it), rather than at the next poll. */
  refresh(kind: PrivacyFlag): Promise<void> {
    return this.reload(kind, false);
  }

  /** Stops watching the files. */
  close(): void {
    for (const stop of this.unwatch.splice(0)) stop();
  }

  private watch(kind: PrivacyFlag, pollMs: number): void {
    const file = this.paths[kind];
    this.unwatch.push(watchForChanges(file, pollMs, (now) => {
      // A file this process already read (the refresher here wrote it and asked for it at once) is not read twice;
      // its size counts, as a copy that keeps the time (`cp -p`) rewrites a file in place: same time, same inode.
      const loaded = this.loaded.get(kind);
      if (loaded && now.mtimeMs === loaded.mtimeMs && now.size === loaded.size && now.ino === loaded.ino) return;
      void this.reload(kind, false);
    }));
  }

  /** Reads a list again; a missing file drops it, a read error keeps the one in memory. */
  private async reload(kind: PrivacyFlag, first: boolean): Promise<void> {
    const file = this.paths[kind];
    let text: string;
    let mtimeMs: number;
    let size: number;
    let ino: number;
    try {
      ({ mtimeMs, size, ino } = await stat(file));
      text = await readFile(file, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') {
        if (this.loaded.delete(kind)) {
          this.generation++;
          this.log(`${file} is gone: the ${kind} check is not available until it is back`);
        }
      } else this.log(`${file} could not be read (${errorMessage(error)}); keeping what was loaded`);
      return;
    }
    const { list, skipped, firstSkipped } = RangeList.parse(text, { labelColumn: LABELLED.has(kind) });
    const updated = new Date(mtimeMs).toISOString().slice(0, 10);
    const sources = sourcesOf(text);
    this.loaded.set(kind, { list, updated, sources, miss: missAttribution(sources), parts: partsOf(text, sources, LABELLED.has(kind)), mtimeMs, size, ino });
    this.generation++;
    const ranges = list.v4Count + list.v6Count;
    if (skipped) this.log(`${file}: skipped ${skipped} lines that are not addresses (first: "${firstSkipped}")`);
    if (!first) this.log(`${file}: reloaded, ${ranges} ranges`);
  }
}
