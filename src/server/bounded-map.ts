/**
 * A Map that keeps at most `limit` entries and drops the oldest first (a `limit` of 0 keeps
 * none); setting a key it holds changes the value, not the key's place. Oldest-first rather
 * than least-recently-used: a hit then costs one Map lookup and no reordering, which is
 * what the hot paths that use it (decoded city records, /json bodies) want.
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
