/**
 * Loads a built index (built-index/container.ts) and keeps it current: from the first of its
 * files that holds it for the data at hand (the one `npm run build` wrote, then one kept
 * from an earlier build under DATA_DIR), else built from the data in a child process
 * (utils/child-task.ts), so the server listens and answers every other route meanwhile and
 * the build's garbage leaves with the child; the routes that need the index wait for it. An
 * index that cannot be built is an Error those routes report; the rest works. `rebuild`
 * builds it again from newer data and swaps it in whole: the index it had answers until
 * then, and stays when the rebuild fails or the data did not change.
 */
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { errorMessage } from '../../lib/error-message.ts';
import { ChildTaskError } from '../utils/child-task.ts';
import { collectGarbage } from '../utils/collect-garbage.ts';

/** A built index as its routes see it. */
export interface IndexHandle<I, A extends unknown[] = []> {
  /** The index once loaded or built, an Error when it cannot be, undefined while it builds. */
  current(): I | Error | undefined;
  /** Settles when loading ends (never rejects); after a rebuild, the rebuilt index. */
  ready: Promise<I | Error>;
  /** Milliseconds from the start of loading to the index being ready (undefined until then). */
  readyMs(): number | undefined;
  /** Why the built file was not used and the index is built from the data instead. */
  rebuiltBecause(): string | undefined;
  /**
   * Builds the index again from the data now on disk and swaps it in whole; settles with the
   * index answering then (the new one, or the old when nothing changed or the rebuild failed,
   * said in one line).
   */
  rebuild(...args: A): Promise<I | Error | undefined>;
  /**
   * The index's state for /healthz: `loading`, `ok`, `ok (91065 networks)` (with a summary),
   * `missing (why)`; the first two with ` (rebuilt: why)` when the built file was not used.
   */
  describe(): string;
}

/** How to have an index for one version of its data. */
export interface IndexPlan<I> {
  /** What the index is built from, in one line: a file of any other version is not used. */
  version: string;
  /** Files that may hold it already, in order; the first is the built one (rebuiltBecause names it). */
  files: readonly string[];
  /** The index in a file's bytes, when they hold a whole index of `version`. */
  decode(bytes: Buffer, version: string): I | undefined;
  /** Builds the index's file at `out` in a child process; resolves with lines to warn (problems the build met). */
  buildFile(out: string): Promise<string[]>;
  /** Where the built file is kept for the next start (under DATA_DIR); none: a file of this process's own, removed once read. */
  keepAt?: string;
  /** Instead of buildFile: builds in this thread (tests, benchmarks), with lines to warn. */
  buildHere?(): Promise<{ index: I; notes: string[] }>;
  /** Lines to warn before a build (data it goes without). */
  notes?: readonly string[];
}

export interface IndexSource<I, A extends unknown[]> {
  /** The first load's plan; an Error when there is nothing to build from (reported, not warned). Throwing is warned. */
  plan(): IndexPlan<I> | Error;
  /** A rebuild's plan; undefined when there is nothing to rebuild from. */
  replan(...args: A): IndexPlan<I> | undefined;
  /** The index in the log lines ('network index'). */
  noun: string;
  /** The first load's line when it builds: "…: building {building} now (npm run build writes the file)". */
  building: string;
  /** What is unavailable without it ('network pages'). */
  unavailable: string;
  /** What answers when a rebuild fails ('the network pages answer from the data they had'). */
  answersOld: string;
  /** What /healthz says of a loaded index besides `ok` ('91065 networks'). */
  summary?(index: I): string;
  /** Problems while loading (the server logs them once). */
  warn(line: string): void;
  /** What a rebuild did. */
  log(line: string): void;
}

/** What a child said when it failed (child-task.ts), else the error's message. */
const reason = (error: unknown) => (error instanceof ChildTaskError && error.reason) || errorMessage(error);

let builds = 0;

/** Builds the index of `plan` (in a child process unless it builds here), warning what the build says. */
async function build<I>(plan: IndexPlan<I>, warn: (line: string) => void): Promise<I> {
  for (const note of plan.notes ?? []) warn(note);
  if (plan.buildHere) {
    const { index, notes } = await plan.buildHere();
    for (const note of notes) warn(note);
    return index;
  }
  const out = plan.keepAt ?? path.join(tmpdir(), `built-index.${process.pid}.${++builds}.bin`);
  try {
    for (const note of await plan.buildFile(out)) warn(note);
    const index = plan.decode(await readFile(out), plan.version);
    if (!index) throw new Error(`the rebuilt index is not of ${plan.version} (the data changed meanwhile)`);
    return index;
  } finally {
    // A file of this process's own is read once; one kept (under DATA_DIR) stays for the next start.
    if (plan.keepAt === undefined) await rm(out, { force: true });
  }
}

/** The index from the first file of the plan that holds it, else built, with why the built file was not used. */
async function firstLoad<I>(plan: IndexPlan<I>, source: IndexSource<I, never>, because: (why: string) => void): Promise<I> {
  let builtBytes: Buffer | undefined;
  for (const [i, file] of plan.files.entries()) {
    const bytes = await readFile(file).catch(() => undefined);
    if (i === 0) builtBytes = bytes;
    const index = bytes && plan.decode(bytes, plan.version);
    if (index) return index;
  }
  if (plan.files.length > 0) {
    const why = `${plan.files[0]} is ${builtBytes ? 'damaged or was built from other data' : 'missing'}`;
    because(why);
    source.warn(`${why}: building ${source.building} now (npm run build writes the file)`);
  }
  return build(plan, source.warn);
}

/** Starts loading the index and returns its handle at once. */
export function loadBuiltIndex<I, A extends unknown[]>(source: IndexSource<I, A>): IndexHandle<I, A> {
  const started = performance.now();
  let state: I | Error | undefined;
  let version: string | undefined;
  let ms: number | undefined;
  let rebuiltBecause: string | undefined;
  const ready = (async (): Promise<I | Error> => {
    const plan = source.plan();
    if (plan instanceof Error) return plan;
    const index = await firstLoad(plan, source as IndexSource<I, never>, (why) => { rebuiltBecause = why; });
    version = plan.version;
    return index;
  })().catch((error: unknown) => {
    source.warn(`${source.unavailable} unavailable (${reason(error)})`);
    return new Error(reason(error));
  }).then((result) => {
    state = result;
    ms = performance.now() - started;
    return result;
  });
  let rebuilding: Promise<unknown> = ready;
  const handle: IndexHandle<I, A> = {
    current: () => state,
    ready,
    readyMs: () => ms,
    rebuiltBecause: () => rebuiltBecause,
    rebuild: (...args) => {
      const next = rebuilding.then(() => rebuildOnce(source, args, version)).then((rebuilt) => {
        if (rebuilt) {
          [state, version] = rebuilt;
          // The first `ready` holds the index of the start: replaced, the old index can be collected.
          handle.ready = Promise.resolve(rebuilt[0]);
        }
        return state;
      });
      rebuilding = next;
      return next;
    },
    describe: () => {
      if (state instanceof Error) return `missing (${state.message})`;
      const summary = state !== undefined && source.summary ? ` (${source.summary(state)})` : '';
      const now = state === undefined ? 'loading' : `ok${summary}`;
      return rebuiltBecause ? `${now} (rebuilt: ${rebuiltBecause})` : now;
    },
  };
  return handle;
}

/** The index built again for a rebuild's plan with its version; undefined when the one answering is of that data, or the build failed (logged). */
async function rebuildOnce<I, A extends unknown[]>(source: IndexSource<I, A>, args: A, answering: string | undefined): Promise<[I, string] | undefined> {
  const plan = source.replan(...args);
  if (!plan || plan.version === answering) return undefined;
  const started = performance.now();
  try {
    const index = await build(plan, source.log);
    const summary = source.summary ? `, ${source.summary(index)}` : '';
    source.log(`rebuilt the ${source.noun} from the newer data and swapped it in (${Math.round(performance.now() - started)} ms${summary})`);
    return [index, plan.version];
  } catch (error) {
    source.log(`the ${source.noun} could not be rebuilt from the newer data (${reason(error)}); ${source.answersOld}`);
    return undefined;
  } finally {
    // Once swapped, the old index is garbage: collected now, it leaves RSS now.
    setImmediate(() => collectGarbage());
  }
}
