/**
 * Fetching one list source and writing the privacy list it feeds, shared by the
 * refresher (refresher.ts) and `npm run data:update` (update.ts). Each of a source's files
 * is fetched with a conditional GET, turned into list lines (list-formats.ts) and checked
 * before anything is replaced: a file with no address, or with more lines that are not
 * addresses than ranges (an HTML error page, garbage), is refused and the last good data
 * stays. The good lines are kept per source under `<lists>/sources/`, with the source's
 * state (when fetched, its validators); the privacy list is then written whole from every
 * source that feeds it, each under a `# source` header line that privacy-lists.ts reads
 * for the source's name and age. Every file is written beside its target and renamed over
 * it, so a reader sees the old file or the new one.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { PrivacyFlag } from '../../lib/privacy.ts';
import { RangeList } from '../lookup/range-list.ts';
import { download, type Validators } from './download.ts';
import { toListLines } from './list-formats.ts';
import { LIST_SOURCES, type ListSource } from './list-sources.ts';

/** What is known of a source between runs (`<lists>/sources/<id>.json`). */
export interface SourceState {
  /** When its data was last fetched or confirmed unchanged (ms since 1970). */
  fetchedAt?: number;
  /** When it was last tried, and when it will be next (the refresher's schedule). */
  triedAt?: number;
  nextAt?: number;
  /** Failed tries in a row, and the last one's reason. */
  failures: number;
  error?: string;
  /** Ranges in its last good data. */
  ranges?: number;
  /** Per file URL, the validators of its last answer. */
  validators: Record<string, Validators>;
}

export interface FetchLimits { timeoutMs: number; maxBytes: number }

/** Production's limits: the largest list (AWS's JSON) is about 2 MB. */
export const LIST_LIMITS: FetchLimits = { timeoutMs: 60_000, maxBytes: 64 * 1024 * 1024 };

/** The folder of the sources' kept lines and states, beside the privacy list files. */
export const sourcesDir = (listsDir: string): string => path.join(listsDir, 'sources');

let written = 0;

/** Writes beside the target, then renames over it: readers see the old file or the new one. */
export async function replaceFile(target: string, body: string | Uint8Array): Promise<void> {
  await mkdir(path.dirname(target), { recursive: true });
  const temp = `${target}.${process.pid}.${++written}.tmp`;
  await writeFile(temp, body);
  await rename(temp, target);
}

/** A source's saved state; a fresh one when there is none or it cannot be read. */
export async function readState(dir: string, id: string): Promise<SourceState> {
  try {
    return { failures: 0, validators: {}, ...(JSON.parse(await readFile(path.join(dir, `${id}.json`), 'utf8')) as Partial<SourceState>) };
  } catch {
    return { failures: 0, validators: {} };
  }
}

export const writeState = (dir: string, id: string, state: SourceState): Promise<void> =>
  replaceFile(path.join(dir, `${id}.json`), JSON.stringify(state) + '\n');

/** Checks one file's lines: the ranges it holds, or why it is not an address list. */
function checkLines(url: string, lines: string[]): number {
  const { list, skipped } = RangeList.parse(lines.join('\n'), { labelColumn: true });
  const ranges = list.v4Count + list.v6Count;
  if (ranges === 0) throw new Error(`${url} did not answer an address list (no address in it)`);
  if (skipped > ranges) throw new Error(`${url} is mostly not addresses (${skipped} other lines, ${ranges} ranges)`);
  return ranges;
}

export interface SourceResult { outcome: 'updated' | 'current'; ranges: number }

/**
 * Fetches a source's files; on success its kept lines and state are replaced. Throws (the
 * kept lines untouched) when any file fails or is refused.
 */
export async function fetchSource(source: ListSource, url: string, dir: string, state: SourceState, limits: FetchLimits = LIST_LIMITS): Promise<SourceResult & { state: SourceState }> {
  const files = source.files(url);
  const fresh: Array<{ file: number; lines: string[]; validators: Validators }> = [];
  let ranges = 0;
  for (const [file, fileUrl] of files.entries()) {
    const kept = state.validators[fileUrl];
    const got = await download(fileUrl, { ...limits, ...kept });
    if (got.status === 'not-modified') { ranges += (state.ranges ?? 0) / files.length; continue; }
    let lines: string[];
    try {
      lines = toListLines(source.format, [got.body.toString('utf8')], source.service);
    } catch (error) {
      throw new Error(`${fileUrl} is ${(error as Error).message}`, { cause: error });
    }
    ranges += checkLines(fileUrl, lines);
    fresh.push({ file, lines, validators: { etag: got.etag, lastModified: got.lastModified } });
  }
  // Every file answered well: only now is anything replaced.
  const validators = { ...state.validators };
  for (const f of fresh) {
    await replaceFile(path.join(dir, `${source.id}.${f.file}.txt`), f.lines.join('\n') + '\n');
    validators[files[f.file]!] = f.validators;
  }
  const now = Date.now();
  const next: SourceState = { ...state, fetchedAt: now, triedAt: now, failures: 0, error: undefined, ranges: Math.round(ranges), validators };
  await writeState(dir, source.id, next);
  return { outcome: fresh.length ? 'updated' : 'current', ranges: next.ranges!, state: next };
}

/** The `# source` header line of one source in a privacy list (privacy-lists.ts parses it). */
export const sourceHeader = (source: ListSource, fetchedAt: number): string =>
  `# source ${source.id} fetched ${new Date(fetchedAt).toISOString()}${source.service ? ` as ${source.service}` : ''}: ${source.name}`;

/**
 * Writes a privacy list from the kept lines of every source that feeds it. Sources never
 * fetched are left out; with none at all the list is not written.
 */
export function writePrivacyList(flag: PrivacyFlag, target: string, dir: string): Promise<boolean> {
  // One at a time: two sources of one list finishing together would each write the list
  // from what they read, and the later write could miss the earlier source's new lines.
  const write = writing.then(() => composeList(flag, target, dir));
  writing = write.catch(() => undefined);
  return write;
}

let writing: Promise<unknown> = Promise.resolve();

async function composeList(flag: PrivacyFlag, target: string, dir: string): Promise<boolean> {
  const parts: string[] = [];
  for (const source of LIST_SOURCES.filter((s) => s.into === flag)) {
    const state = await readState(dir, source.id);
    if (state.fetchedAt === undefined) continue;
    const bodies = await Promise.all(source.files('').map((_, file) => readFile(path.join(dir, `${source.id}.${file}.txt`), 'utf8').catch(() => '')));
    parts.push(sourceHeader(source, state.fetchedAt), ...bodies.map((b) => b.trimEnd()).filter(Boolean));
  }
  if (parts.length === 0) return false;
  await replaceFile(target, parts.join('\n') + '\n');
  return true;
}
