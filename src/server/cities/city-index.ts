/**
 * The city search index: every word start of every folded name (primary and alternate)
 * as one sorted key, so a query is one binary search and a short scan of the keys that
 * begin with it. 'new y' finds 'new york city'; 'york' finds 'york city' (a later word);
 * 'munch' finds 'munchen', Munich's German name.
 *
 * Ranking (src/server/cities/city-index.test.ts): log10 of the population, plus
 * - NAME_START when the match begins the name rather than a later word,
 * - WHOLE_WORD when the query ends where a word ends ('york' in 'york city'),
 * - EXACT when the query is the whole name ('paris' is Paris),
 * minus ALTERNATE when the name matched is one of the city's other names, so an English
 * or local name finds the big city while a village of that exact name still comes
 * before a city ten times its size found only through a foreign spelling.
 * One place appears once, with its best-scoring key.
 *
 * All of it lives in typed arrays and two long strings (no object per key), so it is
 * written and read as one file whose arrays are views on its bytes (index-file.ts).
 */
import type { CityTable } from './city-data.ts';
import { foldName } from './fold.ts';

export const NAME_START = 0.5;
export const WHOLE_WORD = 1;
export const EXACT = 1.5;
export const ALTERNATE = 1;

const FLAG_NAME_START = 1;
const FLAG_ALTERNATE = 2;

/** The built index: the places and their sorted keys. Transferable as it is. */
export interface CityIndexData {
  table: CityTable;
  /** Folded keys back to back, in sorted order; key i is `keys.slice(keyStart[i], keyStart[i + 1])`. */
  keys: string;
  keyStart: Uint32Array;
  keyCity: Uint32Array;
  /** The part of the score that does not depend on the query. */
  keyRank: Float32Array;
  keyFlags: Uint8Array;
}

/** A place the search found, before it is worded for the API. */
export interface CityMatch {
  /** The place's row in the index's table: the same place has the same id while the index lives. */
  id: number;
  name: string;
  /** '' when GeoNames names no region. */
  region: string;
  countryCode: string;
  latitude: number;
  longitude: number;
  population: number;
  score: number;
}

/** Builds the keys of every name of every place and sorts them. */
export function buildIndexData(table: CityTable, alternates: ReadonlyMap<number, readonly string[]>): CityIndexData {
  const texts: string[] = [];
  const cities: number[] = [];
  const ranks: number[] = [];
  const flags: number[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < table.count; i++) {
    const base = Math.log10(table.population[i]! + 10);
    const primary = table.names.slice(table.nameStart[i], table.nameStart[i + 1]);
    const others = alternates.get(table.geonameId[i]!) ?? [];
    seen.clear();
    for (let n = -1; n < others.length; n++) {
      const folded = foldName(n < 0 ? primary : others[n]!);
      if (folded === '' || seen.has(folded)) continue;
      seen.add(folded);
      const alternate = n >= 0;
      for (let start = 0; ;) {
        texts.push(start === 0 ? folded : folded.slice(start));
        cities.push(i);
        ranks.push(base + (start === 0 ? NAME_START : 0) - (alternate ? ALTERNATE : 0));
        flags.push((start === 0 ? FLAG_NAME_START : 0) | (alternate ? FLAG_ALTERNATE : 0));
        const space = folded.indexOf(' ', start);
        if (space === -1) break;
        start = space + 1;
      }
    }
  }
  const order = Array.from(texts.keys()).sort((a, b) => (texts[a]! < texts[b]! ? -1 : texts[a]! > texts[b]! ? 1 : a - b));
  const count = order.length;
  const keyStart = new Uint32Array(count + 1);
  const keyCity = new Uint32Array(count);
  const keyRank = new Float32Array(count);
  const keyFlags = new Uint8Array(count);
  const sorted = new Array<string>(count);
  let length = 0;
  for (let i = 0; i < count; i++) {
    const k = order[i]!;
    sorted[i] = texts[k]!;
    keyStart[i] = length;
    length += texts[k]!.length;
    keyCity[i] = cities[k]!;
    keyRank[i] = ranks[k]!;
    keyFlags[i] = flags[k]!;
  }
  keyStart[count] = length;
  return { table, keys: sorted.join(''), keyStart, keyCity, keyRank, keyFlags };
}

/** Searches a built index; `search` is synchronous and allocates only its answer. */
export class CityIndex {
  readonly data: CityIndexData;
  private readonly topCity: Int32Array;
  private readonly topScore: Float64Array;
  constructor(data: CityIndexData, maxLimit = 20) {
    this.data = data;
    this.topCity = new Int32Array(maxLimit);
    this.topScore = new Float64Array(maxLimit);
  }

  get size(): { places: number; keys: number } {
    return { places: this.data.table.count, keys: this.data.keyCity.length };
  }

  /** First key not below `query` (code-unit order, as the keys were sorted). */
  private lowerBound(query: string): number {
    const { keys, keyStart } = this.data;
    let lo = 0;
    let hi = this.data.keyCity.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareKey(keys, keyStart[mid]!, keyStart[mid + 1]!, query) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** First key after `from` that does not start with `query` (those that do follow each other from `from`). */
  private endOfPrefix(query: string, from: number): number {
    const { keys, keyStart } = this.data;
    let lo = from;
    let hi = this.data.keyCity.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const start = keyStart[mid]!;
      if (keyStart[mid + 1]! - start >= query.length && keys.startsWith(query, start)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The best `limit` places for an already folded query (see foldName), best first. */
  searchFolded(query: string, limit: number): CityMatch[] {
    const { keys, keyStart, keyCity, keyRank, keyFlags } = this.data;
    const topCity = this.topCity;
    const topScore = this.topScore;
    const max = Math.min(limit, topCity.length);
    const q = query.length;
    const first = this.lowerBound(query);
    // Both ends of the run of keys that start with the query by binary search, so the scan
    // of a short query's thousands of keys compares no text.
    const end = this.endOfPrefix(query, first);
    let size = 0;
    for (let i = first; i < end; i++) {
      const start = keyStart[i]!;
      const keyLength = keyStart[i + 1]! - start;
      let score = keyRank[i]!;
      if (keyLength === q || keys.charCodeAt(start + q) === 32) {
        score += WHOLE_WORD;
        if (keyLength === q && keyFlags[i]! & FLAG_NAME_START) score += EXACT;
      }
      if (size === max && score <= topScore[size - 1]!) continue;
      const city = keyCity[i]!;
      let at = topCity.subarray(0, size).indexOf(city);
      if (at !== -1) {
        if (score <= topScore[at]!) continue;
        // A better key of a place already listed: take the old entry out first.
        topCity.copyWithin(at, at + 1, size);
        topScore.copyWithin(at, at + 1, size);
        size--;
      }
      at = size < max ? size : max - 1;
      while (at > 0 && topScore[at - 1]! < score) {
        topCity[at] = topCity[at - 1]!;
        topScore[at] = topScore[at - 1]!;
        at--;
      }
      topCity[at] = city;
      topScore[at] = score;
      if (size < max) size++;
    }
    const matches: CityMatch[] = [];
    for (let i = 0; i < size; i++) matches.push(this.match(topCity[i]!, topScore[i]!));
    return matches;
  }

  /** Folds `query` and searches; an empty fold finds nothing. */
  search(query: string, limit: number): CityMatch[] {
    const folded = foldName(query);
    return folded ? this.searchFolded(folded, limit) : [];
  }

  private match(i: number, score: number): CityMatch {
    const t = this.data.table;
    return {
      id: i,
      name: t.names.slice(t.nameStart[i], t.nameStart[i + 1]),
      region: t.regions[t.region[i]!]!,
      countryCode: t.countries[t.country[i]!]!,
      latitude: t.lat[i]! / 1e5,
      longitude: t.lon[i]! / 1e5,
      population: t.population[i]!,
      score,
    };
  }
}

/** Compares the key `keys[start, end)` with `query`, code unit by code unit, like `<` on strings. */
function compareKey(keys: string, start: number, end: number, query: string): number {
  const n = Math.min(end - start, query.length);
  for (let i = 0; i < n; i++) {
    const d = keys.charCodeAt(start + i) - query.charCodeAt(i);
    if (d !== 0) return d;
  }
  return end - start - query.length;
}
