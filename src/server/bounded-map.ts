/**
 * A Map that keeps at most `limit` entries and drops the oldest first (a `limit` of 0 keeps
 * none). Oldest-first rather than least-recently-used: a hit then costs one Map lookup and
 * no reordering, which is what the hot paths that use it (decoded city records, /json
 * bodies) want. AdaptiveMemo, below, is one that stands aside while it does not pay.
 */
export class BoundedMap<K, V> {
  private readonly entries = new Map<K, V>();
  private readonly limit: number;
  constructor(limit: number) {
    this.limit = limit;
  }

  get(key: K): V | undefined {
    return this.entries.get(key);
  }

  set(key: K, value: V): void {
    if (this.limit === 0) return;
    if (this.entries.size >= this.limit) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, value);
  }
}

/**
 * A memo that stands aside while it does not pay. Keeping values that never come back is
 * not free: each one outlives a few garbage collections, gets promoted, and must be
 * collected again from the old generation (a /json body kept and never asked again cost
 * more than the lookup it might have saved, bench/api.mjs over 10,000 distinct addresses).
 * So hits are counted over windows of `window` lookups; below `minHitRate`, the memo
 * neither looks up nor keeps anything for the next `rest` requests, then tries again.
 */
export class AdaptiveMemo<K, V> {
  private readonly map: BoundedMap<K, V>;
  private readonly window: number;
  private readonly minHits: number;
  private readonly rest: number;
  private tries = 0;
  private hits = 0;
  private resting = 0;

  constructor(limit: number, { minHitRate, window = 1024, rest = 16 * 1024 }: { minHitRate: number; window?: number; rest?: number }) {
    this.map = new BoundedMap(limit);
    this.window = window;
    this.minHits = Math.ceil(window * minHitRate);
    this.rest = rest;
  }

  get(key: K): V | undefined {
    if (this.resting > 0) {
      this.resting--;
      return undefined;
    }
    const found = this.map.get(key);
    if (found !== undefined) this.hits++;
    if (++this.tries === this.window) {
      if (this.hits < this.minHits) this.resting = this.rest;
      this.tries = this.hits = 0;
    }
    return found;
  }

  /** Keeps a value, unless the memo is standing aside. */
  set(key: K, value: V): void {
    if (this.resting === 0) this.map.set(key, value);
  }
}
