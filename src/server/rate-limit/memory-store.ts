/**
 * Where the rate limit keeps its counts: the store interface, and the in-memory store of one
 * process (the default). Fixed one-minute windows, one count per key (a key is a client, or
 * an IPv6 /48, of the API or of the pages: limit.ts), each key with its own limit. The
 * memory store holds at most `maxKeys` keys whatever the traffic: past that it forgets the
 * keys it saw first, never one already past its limit, so a limited client stays limited
 * while others churn. It is our own rather than rate-limiter-flexible's RateLimiterMemory,
 * which keeps a record and a timer per client with no bound (several times the heap of this
 * one for as many clients: docs/benchmarks.md, "Memory bounds") and answers through a
 * promise on every request.
 * The stores shared between processes and machines are in shared-stores.ts.
 */
import { OldestFirst } from '../utils/bounded-map.ts';

/** The length of one window. */
export const WINDOW_MS = 60_000;

/** What a store says about one counted request. */
export interface Verdict {
  /** Requests of this client in the current window, this one included. */
  used: number;
  /** Milliseconds until the window ends and the count starts again. */
  resetMs: number;
}

/** Counts requests per key. */
export interface RateLimitStore {
  /**
   * Counts one request against `key`, whose limit is `limit` (the memory store never forgets
   * a key past it). A promise for stores in another process; undefined when the store
   * cannot answer (unreachable), in which case the request is let through (fail open).
   */
  hit(key: string, limit: number): Verdict | Promise<Verdict | undefined>;
  /** One line for /healthz: which store, and whether it answers. */
  state(): string;
}

/** Keys the memory store keeps at most (its heap at the bound: docs/benchmarks.md, "Memory bounds"). */
export const MAX_KEYS = 1_000_000;

export interface WindowCountsOptions {
  /** Keys kept at most (default MAX_KEYS). */
  maxKeys?: number;
  /** The clock (tests move it). */
  now?: () => number;
}

/** The in-memory store of one process: bounded, synchronous (the hot path takes no promise). */
export class WindowCounts implements RateLimitStore {
  private readonly maxKeys: number;
  private readonly now: () => number;
  /** Keys within their limit this window, oldest first: these are forgotten first. */
  private counts = new OldestFirst<string, number>();
  /** Keys past their limit this window: never forgotten for a newcomer's sake. */
  private over = new OldestFirst<string, number>();
  private windowStart: number;

  constructor({ maxKeys = MAX_KEYS, now = Date.now }: WindowCountsOptions = {}) {
    this.maxKeys = maxKeys;
    this.now = now;
    this.windowStart = now();
  }

  hit(key: string, limit: number): Verdict {
    const t = this.now();
    if (t - this.windowStart >= WINDOW_MS) {
      this.counts = new OldestFirst<string, number>();
      this.over = new OldestFirst<string, number>();
      this.windowStart = t;
    }
    const resetMs = this.windowStart + WINDOW_MS - t;
    const over = this.over.get(key);
    if (over !== undefined) {
      this.over.set(key, over + 1);
      return { used: over + 1, resetMs };
    }
    const used = (this.counts.get(key) ?? 0) + 1;
    if (used > limit) {
      this.counts.delete(key);
      this.over.set(key, used);
      // Only with a tiny limit could this many clients be past it; the bound holds all the same.
      if (this.over.size > this.maxKeys) this.over.dropOldest();
    } else {
      this.counts.set(key, used);
      if (this.counts.size > this.maxKeys) this.counts.dropOldest();
    }
    return { used, resetMs };
  }

  /** Keys counted in this window (kept, limited or not). */
  get size(): number {
    return this.counts.size + this.over.size;
  }

  state(): string {
    return `memory, this process only (${this.size} keys this minute, at most ${this.maxKeys})`;
  }
}
