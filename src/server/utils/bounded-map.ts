/**
 * Maps that forget their oldest entries, for memory that stays bounded whatever the traffic.
 * Oldest-first rather than least-recently-used: a hit then costs one Map lookup and no
 * reordering, which is what the hot paths that use them want.
 */

/**
 * A Map in insertion order that drops its oldest entry when asked (the rate limit's counts,
 * the UDP responders' per-source budgets, BoundedMap below). Walks with one cursor kept between calls: a fresh
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

  /** Empties the map; the next eviction starts a new walk. */
  override clear(): void {
    super.clear();
    this.cursor = undefined;
  }
}

/**
 * A Map that keeps at most `limit` entries and drops the oldest first (a `limit` of 0 keeps
 * none); setting a key it holds changes the value, not the key's place (decoded city
 * records, the bot memo of the analytics, the parsed User-Agents, and SecondHitMemo below).
 */
export class BoundedMap<K, V> {
  readonly #entries = new OldestFirst<K, V>();
  readonly #limit: number;
  constructor(limit: number) {
    this.#limit = limit;
  }

  get(key: K): V | undefined {
    return this.#entries.get(key);
  }

  set(key: K, value: V): void {
    if (this.#limit === 0) return;
    if (this.#entries.size >= this.#limit && !this.#entries.has(key)) this.#entries.dropOldest();
    this.#entries.set(key, value);
  }

  /** Entries held (at most the limit). */
  get size(): number {
    return this.#entries.size;
  }

  clear(): void {
    this.#entries.clear();
  }
}

/** What SecondHitMemo holds for a key asked once: no value yet. */
const NOTED = Symbol('noted');

/**
 * Keeps a value from its key's second ask: the first ask only notes the key, a later one
 * keeps the value, and from then on `get` answers it (the /json bodies, the city search's
 * answers, the page shell's compressed pages). Most keys of a spread of distinct asks
 * never come back: a value kept for each would push out the ones asked again and again,
 * and outlive the young generation only to be dropped unread from the old one. Bounded,
 * oldest out first, noted and kept keys alike.
 */
export class SecondHitMemo<K, V> {
  readonly #entries: BoundedMap<K, V | typeof NOTED>;
  constructor(limit: number) {
    this.#entries = new BoundedMap(limit);
  }

  /** The value kept for `key`, when it was asked before and is still among the newest. */
  get(key: K): V | undefined {
    const entry = this.#entries.get(key);
    return entry === NOTED ? undefined : entry;
  }

  /** Whether `key` was asked before: a value is kept for it, or it is noted. */
  has(key: K): boolean {
    return this.#entries.get(key) !== undefined;
  }

  /** After a miss: keeps `value` when `key` was asked before, else notes `key` only. True when kept. */
  offer(key: K, value: V): boolean {
    const kept = this.has(key);
    this.#entries.set(key, kept ? value : NOTED);
    return kept;
  }

  /** Entries held, noted or kept (at most the limit). */
  get size(): number {
    return this.#entries.size;
  }

  clear(): void {
    this.#entries.clear();
  }
}
