/**
 * Maps that forget their oldest entries, for memory that stays bounded whatever the traffic.
 * Oldest-first rather than least-recently-used: a hit then costs one Map lookup and no
 * reordering, which is what the hot paths that use them want.
 */

/**
 * A Map in insertion order that drops its oldest entry when asked (the rate limit's counts,
 * the UDP responders' per-source budgets). Walks with one cursor kept between calls: a fresh
 * `keys().next()` per eviction would rescan the deleted slots at the front of the table each
 * time (quadratic under churn).
 */
export class OldestFirst<K, V> extends Map<K, V> {
  private cursor: MapIterator<K> | undefined;
  /** Deletes the entry inserted first among those still held (none when empty). */
  dropOldest(): void {
    let next = this.cursor?.next();
    if (!next || next.done) {
      this.cursor = this.keys();
      next = this.cursor.next();
    }
    if (!next.done) this.delete(next.value);
  }
}

/**
 * A Map that keeps at most `limit` entries and drops the oldest first (a `limit` of 0 keeps
 * none); setting a key it holds changes the value, not the key's place (decoded city
 * records, /json bodies).
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
    if (this.entries.size >= this.limit && !this.entries.has(key)) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, value);
  }

  clear(): void {
    this.entries.clear();
  }
}
