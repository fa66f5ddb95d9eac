/**
 * The write-behind queue between requests and the analytics store. A request only
 * appends a row to memory; batches are written off the request path, every `intervalMs`
 * or as soon as `batchSize` rows wait. When the store fails, the batch stays and is
 * retried with exponential backoff; the queue keeps at most `limit` rows and counts what
 * it had to refuse, so an outage costs memory up to that bound and nothing else.
 */
import { randomUUID } from 'node:crypto';
import type { AnalyticsStore, Batch, CorrectionRow, LookupRow } from './types.ts';
import { backoffMs } from '../utils/backoff.ts';
import { errorMessage } from '../../lib/error-message.ts';

export interface QueueOptions {
  /** Most rows held, written or not (default 10,000). */
  limit?: number;
  /** Most rows per transaction (default 1,000). */
  batchSize?: number;
  /** Longest a row waits before a write is tried (default 250 ms). */
  intervalMs?: number;
  /** First and longest wait after a failed write (defaults 250 ms and 5 s). */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Time as the queue reads it (default: the real clock); tests pass a clock they move. */
  clock?: QueueClock;
}

/** The queue's clock: what it reads of time and how it waits. */
export interface QueueClock {
  now(): number;
  /** A background timer: calls `run` after `ms`, without keeping the process alive. */
  setTimer(run: () => void, ms: number): unknown;
  clearTimer(timer: unknown): void;
  /** Waits `ms`, keeping the process alive (a flush at shutdown must finish). */
  sleep(ms: number): Promise<void>;
}

/** The real clock. */
export const SYSTEM_CLOCK: QueueClock = {
  now: () => Date.now(),
  setTimer: (run, ms) => setTimeout(run, ms).unref(),
  clearTimer: (timer) => clearTimeout(timer as NodeJS.Timeout),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** What /healthz reports about the queue. */
export interface QueueState {
  /** 'ok' while writes succeed; 'retrying' after a failed write until one succeeds. */
  state: 'ok' | 'retrying';
  queued: number;
  dropped: number;
  written: number;
  lastError: string | null;
}

export class RecordingQueue {
  private readonly limit: number;
  private readonly batchSize: number;
  private readonly intervalMs: number;
  private readonly backoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly clock: QueueClock;
  private lookups: LookupRow[] = [];
  private corrections: CorrectionRow[] = [];
  /** The batch being written or waiting for a retry: it keeps its id, so a retry is recognised. */
  private current: Batch | null = null;
  private timer: unknown = null;
  private writing: Promise<void> | null = null;
  private failures = 0;
  /** Flushes under way: while one runs it paces the retries, not the background timer. */
  private flushing = 0;
  private closed = false;
  private readonly counts = { dropped: 0, written: 0 };
  private lastError: string | null = null;

  private readonly store: Pick<AnalyticsStore, 'write'>;

  /** Writes through `store` (any AnalyticsStore, or something that opens one first). */
  constructor(store: Pick<AnalyticsStore, 'write'>, options: QueueOptions = {}) {
    this.store = store;
    this.limit = options.limit ?? 10_000;
    this.batchSize = options.batchSize ?? 1_000;
    this.intervalMs = options.intervalMs ?? 250;
    this.backoffMs = options.backoffMs ?? 250;
    this.maxBackoffMs = options.maxBackoffMs ?? 5_000;
    this.clock = options.clock ?? SYSTEM_CLOCK;
  }

  /** Rows held: waiting plus the batch in flight. */
  get queued(): number {
    return this.lookups.length + this.corrections.length + (this.current ? this.current.lookups.length + this.current.corrections.length : 0);
  }

  /** Appends a lookup; false (and counted as dropped) when the queue is full or closed. */
  pushLookup(row: LookupRow): boolean {
    return this.push(this.lookups, row);
  }

  pushCorrection(row: CorrectionRow): boolean {
    return this.push(this.corrections, row);
  }

  private push<T>(list: T[], row: T): boolean {
    if (this.closed || this.queued >= this.limit) {
      this.counts.dropped++;
      return false;
    }
    list.push(row);
    if (this.failures === 0 && this.lookups.length + this.corrections.length >= this.batchSize) this.schedule(0);
    else this.schedule(this.intervalMs);
    return true;
  }

  private schedule(delay: number): void {
    if (this.writing) return; // the running write schedules the next one when it ends
    if (this.timer) {
      if (delay > 0) return;
      this.clock.clearTimer(this.timer);
    }
    this.timer = this.clock.setTimer(() => { this.timer = null; void this.writeNext(); }, delay);
  }

  private take(): Batch | null {
    if (this.current) return this.current;
    if (this.lookups.length === 0 && this.corrections.length === 0) return null;
    const lookups = this.lookups.splice(0, this.batchSize);
    const corrections = this.corrections.splice(0, Math.max(0, this.batchSize - lookups.length));
    return this.current = { id: randomUUID(), lookups, corrections };
  }

  /** Writes one batch; on success goes on with the next, on failure waits and retries. */
  private writeNext(): Promise<void> {
    if (this.writing) return this.writing;
    const batch = this.take();
    if (!batch) return Promise.resolve();
    this.writing = this.store.write(batch).then(() => {
      this.current = null;
      this.counts.written += batch.lookups.length + batch.corrections.length;
      this.failures = 0;
      this.lastError = null;
    }, (error: unknown) => {
      this.failures++;
      this.lastError = errorMessage(error);
    }).finally(() => {
      this.writing = null;
      if (this.closed || this.flushing > 0) return;
      if (this.failures > 0) this.schedule(backoffMs(this.failures, this.backoffMs, this.maxBackoffMs));
      else if (this.lookups.length + this.corrections.length >= this.batchSize) this.schedule(0);
      else if (this.lookups.length + this.corrections.length > 0) this.schedule(this.intervalMs);
    });
    return this.writing;
  }

  /**
   * Writes everything held now, retrying until `deadline` (epoch ms); resolves true when
   * the queue is empty. Used at shutdown and by tests.
   */
  async flush(deadline = this.clock.now() + 5_000): Promise<boolean> {
    if (this.timer) { this.clock.clearTimer(this.timer); this.timer = null; }
    this.flushing++;
    try {
      while (this.queued > 0 && this.clock.now() < deadline) {
        const failuresBefore = this.failures;
        await this.writeNext();
        if (this.failures > failuresBefore) {
          await this.clock.sleep(Math.min(backoffMs(this.failures, this.backoffMs, this.maxBackoffMs), Math.max(0, deadline - this.clock.now())));
        }
      }
    } finally {
      this.flushing--;
    }
    if (!this.closed && this.queued > 0) this.schedule(this.intervalMs);
    return this.queued === 0;
  }

  /** Stops taking rows and flushes until `deadline`; rows left then are counted as dropped. */
  async close(deadline = this.clock.now() + 5_000): Promise<QueueState> {
    await this.flush(deadline);
    this.closed = true;
    if (this.timer) { this.clock.clearTimer(this.timer); this.timer = null; }
    if (this.writing) await this.writing;
    this.counts.dropped += this.queued;
    this.lookups = [];
    this.corrections = [];
    this.current = null;
    return this.state();
  }

  state(): QueueState {
    return { state: this.failures > 0 ? 'retrying' : 'ok', queued: this.queued, dropped: this.counts.dropped, written: this.counts.written, lastError: this.lastError };
  }
}
