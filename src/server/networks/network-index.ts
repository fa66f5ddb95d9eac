/**
 * The per-network index: for every AS number of the ASN data, its name, its IPv4 and IPv6
 * ranges (merged) with their address, /48 and prefix counts, and where its addresses are
 * (the top countries and cities by address count). Flat typed arrays indexed by a slot
 * per network, sorted by AS number, so that the whole index is a few tens of MB and loads
 * from its file without building an object per network (its parts: index-file.ts). Built by
 * build.ts; read by the network pages and `/api/asn` (src/server/handlers/asn-api.ts).
 */
import { forEachCidr4, forEachCidr6 } from '../../lib/cidr.ts';
import { formatIp } from '../../lib/ip-address.ts';
import { foldName } from '../cities/fold.ts';
import { fromWords } from '../data/sorted-ranges.ts';
import type { NetworkIndexData } from './index-file.ts';

/** How a network's places are counted: by IPv4 address, or by IPv6 /48 when it has no IPv4. */
export const PLACE_UNIT = { none: 0, ipv4: 4, ipv6: 6 } as const;
/** Countries and cities kept per network, largest first. */
export const TOP_PLACES = 10;

/** The index's data, its parts declared once in index-file.ts. */
export type { NetworkIndexData } from './index-file.ts';

/** One place a network's addresses are in, with how many and what share of those placed. */
export interface NetworkPlace { countryCode: string; count: number; share: number }
export interface NetworkCity extends NetworkPlace { city: string; region: string; latitude: number; longitude: number }

/** What the index knows of one network. */
export interface Network {
  slot: number;
  asn: number;
  name: string;
  v4Addresses: number;
  v4Prefixes: number;
  v6Prefixes: number;
  v6Blocks: number;
  placeUnit: 'ipv4' | 'ipv6' | null;
  /** Units (placeUnit) with a known country: what the shares are of. */
  placed: number;
  countries: NetworkPlace[];
  cities: NetworkCity[];
}

/** A network a search or a ranking found. */
export interface NetworkSummary { asn: number; name: string; countryCode: string; v4Addresses: number; v6Blocks: number }

/** A search match's tier, best first: the AS number, the whole name, the name's start, a word's start, inside a word. */
const TIERS = 5;

/** The search's haystack of a set of names, one per slot (NetworkIndexData's `haystack` and `nameAt`). */
export function searchText(foldedBySlot: readonly string[]): { haystack: string; nameAt: Uint32Array } {
  const nameAt = new Uint32Array(foldedBySlot.length + 1);
  let at = 0;
  foldedBySlot.forEach((name, slot) => {
    nameAt[slot] = at;
    at += name.length + 1;
  });
  nameAt[foldedBySlot.length] = at;
  return { haystack: foldedBySlot.map((name) => name + '\n').join(''), nameAt };
}

export class NetworkIndex {
  readonly data: NetworkIndexData;
  private byCountry: Map<string, Array<[slot: number, count: number]>> | undefined;

  constructor(data: NetworkIndexData) {
    this.data = data;
  }

  get size(): number { return this.data.asns.length; }
  get version(): string { return this.data.version; }

  /** The slot of an AS number, or -1. */
  slotOf(asn: number): number {
    const asns = this.data.asns;
    let lo = 0;
    let hi = asns.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const value = asns[mid]!;
      if (value === asn) return mid;
      if (value < asn) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** What the index knows of an AS number; undefined when the data has no range of it. */
  get(asn: number): Network | undefined {
    const slot = this.slotOf(asn);
    return slot < 0 ? undefined : this.network(slot);
  }

  private network(slot: number): Network {
    const d = this.data;
    const placed = d.placed[slot]!;
    const countries: NetworkPlace[] = [];
    for (let i = d.countriesStart[slot]!; i < d.countriesStart[slot + 1]!; i++) {
      countries.push({ countryCode: d.countries[d.countryIds[i]!]!, count: d.countryCounts[i]!, share: d.countryCounts[i]! / placed });
    }
    const cities: NetworkCity[] = [];
    for (let i = d.citiesStart[slot]!; i < d.citiesStart[slot + 1]!; i++) {
      const id = d.cityIds[i]!;
      cities.push({
        city: d.cityNames[id]!, region: d.cityRegions[d.cityRegionIds[id]!]!, countryCode: d.countries[d.cityCountry[id]!]!,
        latitude: d.cityLatitude[id]!, longitude: d.cityLongitude[id]!, count: d.cityCounts[i]!, share: d.cityCounts[i]! / placed,
      });
    }
    const unit = d.placeUnit[slot];
    return {
      slot, asn: d.asns[slot]!, name: d.names[d.nameIds[slot]!]!,
      v4Addresses: d.v4Addresses[slot]!, v4Prefixes: d.v4Prefixes[slot]!, v6Prefixes: d.v6Prefixes[slot]!, v6Blocks: d.v6Blocks[slot]!,
      placeUnit: unit === PLACE_UNIT.ipv4 ? 'ipv4' : unit === PLACE_UNIT.ipv6 ? 'ipv6' : null,
      placed, countries, cities,
    };
  }

  /** A network's merged IPv4 ranges as [first, last] pairs. */
  ranges4(slot: number): Uint32Array {
    return this.data.ranges4.subarray(this.data.ranges4Start[slot]! * 2, this.data.ranges4Start[slot + 1]! * 2);
  }

  /** A network's merged IPv6 ranges, eight words each (first, then last, high word first). */
  ranges6(slot: number): Uint32Array {
    return this.data.ranges6.subarray(this.data.ranges6Start[slot]! * 8, this.data.ranges6Start[slot + 1]! * 8);
  }

  /** A network's prefixes of one family as CIDR text, in address order; at most `limit`. */
  prefixes(slot: number, family: 4 | 6, limit = Infinity): string[] {
    const out: string[] = [];
    if (family === 4) {
      const ranges = this.ranges4(slot);
      const add = (base: number, bits: number) => { if (out.length < limit) out.push(`${formatIp({ version: 4, value: base })}/${bits}`); };
      for (let k = 0; k < ranges.length && out.length < limit; k += 2) forEachCidr4(ranges[k]!, ranges[k + 1]!, add);
    } else {
      const ranges = this.ranges6(slot);
      const add = (base: bigint, bits: number) => { if (out.length < limit) out.push(`${formatIp({ version: 6, value: base })}/${bits}`); };
      for (let k = 0; k < ranges.length / 4 && out.length < limit; k += 2) forEachCidr6(fromWords(ranges, k), fromWords(ranges, k + 1), add);
    }
    return out;
  }

  private summary(slot: number): NetworkSummary {
    const d = this.data;
    const first = d.countriesStart[slot]!;
    return {
      asn: d.asns[slot]!, name: d.names[d.nameIds[slot]!]!,
      countryCode: first < d.countriesStart[slot + 1]! ? d.countries[d.countryIds[first]!]! : '',
      v4Addresses: d.v4Addresses[slot]!, v6Blocks: d.v6Blocks[slot]!,
    };
  }

  /** The `limit` largest networks (IPv4 addresses, then /48s). */
  largest(limit: number): NetworkSummary[] {
    return [...this.data.bySize.subarray(0, limit)].map((slot) => this.summary(slot));
  }

  /** The `limit` networks with the most addresses in a country (ISO code), with that count. */
  largestIn(countryCode: string, limit: number): Array<NetworkSummary & { inCountry: number }> {
    if (!this.byCountry) {
      const d = this.data;
      const lists = new Map<string, Array<[number, number]>>();
      for (let slot = 0; slot < d.asns.length; slot++) {
        for (let i = d.countriesStart[slot]!; i < d.countriesStart[slot + 1]!; i++) {
          const code = d.countries[d.countryIds[i]!]!;
          let list = lists.get(code);
          if (!list) lists.set(code, (list = []));
          // Ranked in IPv4 addresses; an IPv6-only network's /48s do not compare with them.
          if (d.placeUnit[slot] === PLACE_UNIT.ipv4) list.push([slot, d.countryCounts[i]!]);
        }
      }
      for (const list of lists.values()) list.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
      this.byCountry = lists;
    }
    return (this.byCountry.get(countryCode) ?? []).slice(0, limit).map(([slot, inCountry]) => ({ ...this.summary(slot), inCountry }));
  }

  /**
   * Networks by name or number, best first: the AS number itself ('15169', 'AS15169'),
   * then names equal to the query, starting with it, with a word starting with it, holding
   * it; larger networks first within each. Case and accents fold as in the city search.
   */
  search(query: string, limit: number): NetworkSummary[] {
    const trimmed = query.trim();
    const rank = this.rankOf();
    // Per tier, its best `limit` slots so far, in rank order.
    const tiers: number[][] = Array.from({ length: TIERS }, () => []);
    const keep = (tier: number, slot: number) => {
      const list = tiers[tier]!;
      if (list.length === limit && rank[slot]! >= rank[list[limit - 1]!]!) return;
      let at = list.length;
      while (at > 0 && rank[list[at - 1]!]! > rank[slot]!) at--;
      list.splice(at, 0, slot);
      if (list.length > limit) list.pop();
    };
    const number = /^(?:as)?\s*(\d{1,10})$/i.exec(trimmed)?.[1];
    const slot = number === undefined ? -1 : this.slotOf(Number(number));
    if (slot >= 0) keep(0, slot);
    const folded = foldName(trimmed);
    if (folded) this.matchNames(folded, keep);
    const out: NetworkSummary[] = [];
    for (const tier of tiers) {
      for (const found of tier) {
        if (out.length < limit && (tier === tiers[0] || found !== slot)) out.push(this.summary(found));
      }
    }
    return out;
  }

  /** Every slot whose folded name holds `folded`, with its best tier (1-4). */
  private matchNames(folded: string, keep: (tier: number, slot: number) => void): void {
    const { haystack: hay, nameAt } = this.data;
    const wordStart = ' ' + folded;
    for (let at = hay.indexOf(folded); at !== -1; ) {
      // The slot whose name holds `at`: the last name starting at or before it.
      let lo = 0;
      let hi = nameAt.length - 2;
      while (lo < hi) {
        const mid = (lo + hi + 1) >>> 1;
        if (nameAt[mid]! <= at) lo = mid;
        else hi = mid - 1;
      }
      const start = nameAt[lo]!;
      const end = nameAt[lo + 1]! - 1;
      let tier: number;
      if (at === start) tier = at + folded.length === end ? 1 : 2;
      else if (hay[at - 1] === ' ') tier = 3;
      else {
        // Inside a word here; a later word of the same name may start with it. Looked for
        // within this name only: an indexOf over the rest of the haystack, for every match
        // inside a word, made a two-letter query slow (docs/benchmarks.md, "Load and build times").
        tier = 4;
        for (let i = at + 1; i + wordStart.length <= end; i++) {
          if (hay.startsWith(wordStart, i)) { tier = 3; break; }
        }
      }
      keep(tier, lo);
      at = hay.indexOf(folded, end + 1);
    }
  }

  private rank: Uint32Array | undefined;
  /** Each slot's place in bySize (0: the largest). */
  private rankOf(): Uint32Array {
    if (!this.rank) {
      this.rank = new Uint32Array(this.size);
      this.data.bySize.forEach((slot, i) => { this.rank![slot] = i; });
    }
    return this.rank;
  }
}
