/**
 * The per-network index's parts, declared once (the index's data type, its builder's output
 * and its file all follow from this table: built-index/container.ts), and its file
 * (dist/data/network-index.bin, written by `npm run build` through
 * scripts/build-network-index.ts), which the server loads in tens of milliseconds instead
 * of building it (seconds of CPU). Slot `i` is one network; `xStart[i]..xStart[i + 1]` its
 * slice of a flat list.
 */
import { defineContainer, type ContentsOf } from '../built-index/container.ts';

export const NETWORK_INDEX_FILE = 'data/network-index.bin';

export const NETWORK_CONTAINER = defineContainer({
  magic: 'NETIDX02',
  format: 2,
  columns: {
    asns: Uint32Array,
    nameIds: Uint32Array,
    v4Addresses: Float64Array,
    v4Prefixes: Uint32Array,
    v6Prefixes: Uint32Array,
    /** IPv6 space in /48s (a part of one counts as its fraction). */
    v6Blocks: Float64Array,
    /** PLACE_UNIT of the place counts; none when nothing of it is placed. */
    placeUnit: Uint8Array,
    /** Units with a known country (the denominator of the place shares). */
    placed: Float64Array,
    ranges4Start: Uint32Array,
    /** [first, last] pairs. */
    ranges4: Uint32Array,
    ranges6Start: Uint32Array,
    /** Eight words per range: first, then last, each four words high first. */
    ranges6: Uint32Array,
    countriesStart: Uint32Array,
    countryIds: Uint16Array,
    countryCounts: Float64Array,
    citiesStart: Uint32Array,
    cityIds: Uint32Array,
    cityCounts: Float64Array,
    /** Slots, largest network first (IPv4 addresses, then /48s). */
    bySize: Uint32Array,
    /** Where each slot's name starts in `haystack` (and at the end, one past its last line feed). */
    nameAt: Uint32Array,
    /** The cities the networks list, by city id: region id, country id, position. */
    cityRegionIds: Uint32Array,
    cityCountry: Uint16Array,
    cityLatitude: Float64Array,
    cityLongitude: Float64Array,
  },
  /**
   * `haystack`: each network's name folded for the search (foldName), by slot, each followed
   * by a line feed: one indexOf scan finds every match.
   */
  texts: ['haystack'],
  /** The names by name id, the ISO country codes by id, the city names and the regions by id. */
  lists: ['names', 'countries', 'cityNames', 'cityRegions'],
});

/** The index's data: one network per slot, its parts as NETWORK_CONTAINER declares them. */
export type NetworkIndexData = ContentsOf<typeof NETWORK_CONTAINER>;

/** The index as bytes. */
export function encodeNetworkIndex(data: NetworkIndexData): Buffer {
  return NETWORK_CONTAINER.encode(data);
}

/**
 * Reads encodeNetworkIndex's output; undefined when it is not a complete index of this
 * format, or was built from other data than `version` (when given).
 */
export function decodeNetworkIndex(file: Uint8Array, version?: string): NetworkIndexData | undefined {
  const data = NETWORK_CONTAINER.decode(file, version);
  return data && consistent(data) ? data : undefined;
}

/** Whether every slice and id stays inside its table: a damaged file is rebuilt, never read out of bounds. */
function consistent(d: NetworkIndexData): boolean {
  const n = d.asns.length;
  const starts: Array<[Uint32Array, number]> = [
    [d.ranges4Start, d.ranges4.length / 2], [d.ranges6Start, d.ranges6.length / 8],
    [d.countriesStart, d.countryIds.length], [d.citiesStart, d.cityIds.length],
  ];
  for (const [start, total] of starts) {
    if (start.length !== n + 1 || start[n] !== total) return false;
    for (let i = 0; i < n; i++) if (start[i]! > start[i + 1]!) return false;
  }
  const perSlot = [d.nameIds, d.v4Addresses, d.v4Prefixes, d.v6Prefixes, d.v6Blocks, d.placeUnit, d.placed, d.bySize];
  if (perSlot.some((a) => a.length !== n) || d.countryCounts.length !== d.countryIds.length || d.cityCounts.length !== d.cityIds.length) return false;
  const cityCount = d.cityNames.length;
  if ([d.cityRegionIds, d.cityCountry, d.cityLatitude, d.cityLongitude].some((a) => a.length !== cityCount)) return false;
  // The search finds a slot's name by its line in the haystack: every offset in order, the last its end.
  if (d.nameAt.length !== n + 1 || d.nameAt[n] !== d.haystack.length) return false;
  for (let i = 0; i < n; i++) if (d.nameAt[i]! >= d.nameAt[i + 1]! || d.haystack.charCodeAt(d.nameAt[i + 1]! - 1) !== 10) return false;
  const below = (ids: ArrayLike<number>, limit: number) => { for (let i = 0; i < ids.length; i++) if (ids[i]! >= limit) return false; return true; };
  return below(d.nameIds, d.names.length) && below(d.countryIds, d.countries.length) && below(d.cityIds, cityCount)
    && below(d.cityRegionIds, d.cityRegions.length) && below(d.cityCountry, d.countries.length) && below(d.bySize, n);
}
