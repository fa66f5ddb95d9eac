/**
 * Fetching one list source and writing the privacy list it feeds, shared by the
 * refresher (refresher.ts) and `npm run data:update` (update.ts). Each of a source's files
 * is fetched with a conditional GET, turned into list lines (list-formats.ts) and checked
 * before anything is replaced: a file with no address, or with more lines that are not
 * addresses than address lines (an HTML error page, garbage), is refused, and so is a
 * version past the source's bounds of width and change (list-bounds.ts); the last good data
 * stays. The good lines are kept per source under `<lists>/sources/`, with the source's
 * state (when fetched, its validators); the privacy list is then written whole from every
 * source that feeds it, each under a `# source` header line that privacy-lists.ts reads
 * for the source's name and age. Every file is written beside its target and renamed over
 * it, so a reader sees the old file or the new one.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { PrivacyFlag } from '../../lib/privacy.ts';
import { RangeList } from '../data/range-list.ts';
import { download, DownloadFailure, type Validators } from './download.ts';
import { changeProblem, CONFIRM_MS, shapeOf, widthProblem } from './list-bounds.ts';
import { toListLines } from './list-formats.ts';
import { LIST_SOURCES, type ListSource } from './list-sources.ts';
import { errorMessage } from '../../lib/error-message.ts';

/** What is known of a source between runs (`<lists>/sources/<id>.json`). */
export interface SourceState {
  /** When its data was last fetched or confirmed unchanged (ms since 1970). */
  fetchedAt?: number;
  /** When it was last tried, and when it will be next (the refresher's schedule). */
  triedAt?: number;
  nextAt?: number;
  /** Failed tries in a row, the last one's reason (for the log) and its kind (for /healthz: no URL or upstream text). */
  failures: number;
  error?: string;
  failure?: string;
  /** A version the change bound refused, and since when the upstream has served it (list-bounds.ts). */
  pending?: { hash: string; since: number };
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

/**
 * Checks one file's lines: throws when they are not an address list. Lines
 * that are not addresses are compared with the lines that are (before merging: 51 adjacent
 * /24s are 51 good lines, though they merge into one range).
 */
function checkLines(url: string, lines: string[]): void {
  const { list, lines: good, skipped } = RangeList.parse(lines.join('\n'), { labelColumn: true });
  if (list.v4Count + list.v6Count === 0) throw new DownloadFailure('not an address list', `${url} did not answer an address list (no address in it)`);
  if (skipped > good) throw new DownloadFailure('not an address list', `${url} is mostly not addresses (${skipped} other lines, ${good} addresses)`);
}

/** A file's kept lines ('' when there are none). */
const keptLines = (dir: string, id: string, file: number): Promise<string> =>
  readFile(path.join(dir, `${id}.${file}.txt`), 'utf8').catch(() => '');

export interface SourceResult { outcome: 'updated' | 'current'; ranges: number }

/**
 * Whether a version the change bound refuses is taken all the same: the upstream has served
 * these very bytes for CONFIRM_MS (list-bounds.ts). Otherwise the version is remembered as
 * pending in the state, and the reason thrown.
 */
async function confirmChange(dir: string, source: ListSource, state: SourceState, text: string, problem: string, now: number): Promise<void> {
  const hash = createHash('sha256').update(text).digest('base64url');
  const since = state.pending?.hash === hash ? state.pending.since : now;
  if (now - since >= CONFIRM_MS) return;
  await writeState(dir, source.id, { ...state, pending: { hash, since } });
  throw new DownloadFailure('refused: changed too much', `refused a new version of ${source.id}: ${problem}; kept the last good one (taken if served unchanged for ${CONFIRM_MS / 3_600_000} hours)`);
}

/**
 * Fetches a source's files; on success its kept lines and state are replaced. Throws (the
 * kept lines untouched) when any file fails or is refused, or when the version they make
 * together is past the source's bounds (list-bounds.ts).
 */
export async function fetchSource(
  source: ListSource, url: string, dir: string, state: SourceState, limits: FetchLimits = LIST_LIMITS, now: () => number = Date.now,
): Promise<SourceResult & { state: SourceState }> {
  const files = source.files(url);
  const fresh: Array<{ file: number; lines: string[]; validators: Validators }> = [];
  const offered: string[] = [];
  for (const [file, fileUrl] of files.entries()) {
    const kept = state.validators[fileUrl];
    const got = await download(fileUrl, { ...limits, ...kept });
    if (got.status === 'not-modified') { offered.push(await keptLines(dir, source.id, file)); continue; }
    let lines: string[];
    try {
      lines = toListLines(source.format, [got.body.toString('utf8')], source.service);
    } catch (error) {
      throw new DownloadFailure('not in its format', `${fileUrl} is ${errorMessage(error)}`, { cause: error });
    }
    checkLines(fileUrl, lines);
    fresh.push({ file, lines, validators: { etag: got.etag, lastModified: got.lastModified } });
    offered.push(lines.join('\n'));
  }
  const text = offered.join('\n');
  const parsed = RangeList.parse(text, { labelColumn: true });
  const next = shapeOf(parsed);
  if (fresh.length) {
    const wide = widthProblem(parsed, source.widest);
    if (wide) throw new DownloadFailure('refused: a range too wide', `refused a new version of ${source.id}: ${wide}; kept the last good one`);
    // The last good version is what is kept; with none kept (a first fetch, or kept lines an
    // operator removed to take a new shape at once) only the width bound applies.
    const kept = await Promise.all(files.map((_, file) => keptLines(dir, source.id, file)));
    const last = shapeOf(RangeList.parse(kept.join('\n'), { labelColumn: true }));
    const problem = last.ranges > 0 && changeProblem(last, next);
    if (problem) await confirmChange(dir, source, state, text, problem, now());
  }
  // Every file answered well and the whole is within bounds: only now is anything replaced.
  const validators = { ...state.validators };
  for (const f of fresh) {
    await replaceFile(path.join(dir, `${source.id}.${f.file}.txt`), f.lines.join('\n') + '\n');
    validators[files[f.file]!] = f.validators;
  }
  const at = now();
  const saved: SourceState = { ...state, fetchedAt: at, triedAt: at, failures: 0, error: undefined, failure: undefined, pending: undefined, ranges: next.ranges, validators };
  await writeState(dir, source.id, saved);
  return { outcome: fresh.length ? 'updated' : 'current', ranges: next.ranges, state: saved };
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
