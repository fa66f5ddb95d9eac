/**
 * Builds the per-network index from the data the lookup already holds: the ASN index's
 * ranges grouped by AS number (each network's ranges merged where they touch, counted, and
 * their CIDR prefixes counted), and DB-IP City's places summed over each network's
 * addresses (its IPv4 addresses; its /48s when it has no IPv4). Run by `npm run build`
 * (scripts/build-network-index.ts) and, when that file is missing or stale, by the server
 * in a child process (load.ts): seconds of CPU for the full data (bench/asn.mjs --build;
 * docs/benchmarks.md, "Load and build times").
 */
import { forEachCidr4, forEachCidr6 } from '../../lib/cidr.ts';
import type { AsnIndex } from '../data/asn-index.ts';
import { emptyPlace, readPlace } from '../data/city-source.ts';
import { shortestFloat32 } from '../mmdb/decoder.ts';
import { NOT_FOUND, type MmdbReader } from '../mmdb/reader.ts';
import { foldName } from '../cities/fold.ts';
import { grown, type Growing } from '../built-index/container.ts';
import { NETWORK_CONTAINER, type NetworkIndexData } from './index-file.ts';
import { PLACE_UNIT, searchText, TOP_PLACES } from './network-index.ts';

/** The place data a network's addresses are summed over (DB-IP City's two files). */
export interface PlaceReaders { v4: MmdbReader | undefined; v6: MmdbReader | undefined }

/** A /48 in the IPv6 counts. */
const BLOCK_BITS = 48;
const BLOCK = 1n << BigInt(128 - BLOCK_BITS);

/** Interns strings: each distinct one gets one id. */
class Strings {
  readonly list: string[] = [];
  private readonly ids = new Map<string, number>();
  id(text: string): number {
    let id = this.ids.get(text);
    if (id === undefined) {
      id = this.list.push(text) - 1;
      this.ids.set(text, id);
    }
    return id;
  }
}

/** The rows of each AS number, in address order (IPv4 rows before IPv6 ones), AS numbers ascending. */
function rowsByAsn(asn: AsnIndex): Uint32Array {
  const rows = new Uint32Array(asn.v4Count + asn.v6Count);
  for (let i = 0; i < rows.length; i++) rows[i] = i;
  return rows.sort((a, b) => asn.asn(a) - asn.asn(b) || a - b);
}

/** Keeps the `TOP_PLACES` largest counts of a map, largest first (ties: the smaller key). */
function top(counts: Map<number, number>): Array<[number, number]> {
  return [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, TOP_PLACES);
}

/**
 * One network's ranges (its rows `rows[from..to)`), merged where they overlap or touch:
 * IPv4 as [first, last] pairs, IPv6 the same in BigInt; and the row whose name it takes,
 * that of its largest range (a network's rows may spell its name differently), an IPv4
 * one when it has any, since most networks are known by their IPv4 registration.
 */
function mergedRanges(asn: AsnIndex, rows: Uint32Array, from: number, to: number): { v4: number[]; v6: bigint[]; nameRow: number } {
  const v4: number[] = [];
  const v6: bigint[] = [];
  let nameRow = rows[from]!;
  let largest = -1;
  for (let r = from; r < to; r++) {
    const row = rows[r]!;
    if (row < asn.v4Count) {
      const first = asn.first4(row);
      const last = asn.last4(row);
      const weight = last - first + 1 + 2 ** 40;
      if (weight > largest) { largest = weight; nameRow = row; }
      // Rows of one family come in address order: extend the last range or start one.
      if (v4.length && first <= v4.at(-1)! + 1) v4[v4.length - 1] = Math.max(v4.at(-1)!, last);
      else v4.push(first, last);
    } else {
      const first = asn.first6(row);
      const last = asn.last6(row);
      const weight = Number(last - first) * 2 ** -96;
      if (weight > largest) { largest = weight; nameRow = row; }
      const open = v6.at(-1);
      if (open !== undefined && first <= open + 1n) v6[v6.length - 1] = open > last ? open : last;
      else v6.push(first, last);
    }
  }
  return { v4, v6, nameRow };
}

/** The index's columns while it is built. */
type Columns = Growing<typeof NETWORK_CONTAINER.spec.columns>;

/** Appends one network's merged ranges to the range columns; returns its IPv4 address and /48 counts and prefix counts. */
function pushRanges(c: Columns, v4: readonly number[], v6: readonly bigint[]): { addresses: number; prefixes4: number; blocks: number; prefixes6: number } {
  let addresses = 0;
  let prefixes4 = 0;
  c.ranges4Start.push(c.ranges4.length / 2);
  for (let k = 0; k < v4.length; k += 2) {
    c.ranges4.push(v4[k]!);
    c.ranges4.push(v4[k + 1]!);
    addresses += v4[k + 1]! - v4[k]! + 1;
    prefixes4 += forEachCidr4(v4[k]!, v4[k + 1]!);
  }
  let blocks = 0;
  let prefixes6 = 0;
  c.ranges6Start.push(c.ranges6.length / 8);
  for (let k = 0; k < v6.length; k += 2) {
    for (const value of [v6[k]!, v6[k + 1]!]) {
      for (let shift = 96n; shift >= 0n; shift -= 32n) c.ranges6.push(Number(BigInt.asUintN(32, value >> shift)));
    }
    const span = v6[k + 1]! - v6[k]! + 1n;
    blocks += Number(span / BLOCK) + Number(span % BLOCK) / Number(BLOCK);
    prefixes6 += forEachCidr6(v6[k]!, v6[k + 1]!);
  }
  return { addresses, prefixes4, blocks, prefixes6 };
}

/**
 * A place file's record as [country id, city id] (-1: none), each record decoded once; a
 * city seen first is added to the city columns and the name lists.
 */
function placeDecoder(c: Columns, countries: Strings, regions: Strings, cityNames: Strings): (reader: MmdbReader, offset: number) => [number, number] {
  const cityOf = new Map<string, number>();
  const recordPlace = new Map<number, [number, number]>();
  const scratch = emptyPlace();
  return (reader: MmdbReader, offset: number): [number, number] => {
    let known = recordPlace.get(offset);
    if (!known) {
      const p = readPlace(reader.data, offset, scratch);
      const country = p.countryCode ? countries.id(p.countryCode) : -1;
      let city = -1;
      if (country >= 0 && p.city) {
        const key = `${p.countryCode}\n${p.region}\n${p.city}`;
        city = cityOf.get(key) ?? -1;
        if (city < 0) {
          city = cityNames.list.length;
          // The index file keeps names as lines (index-file.ts).
          cityNames.list.push(p.city.replaceAll('\n', ' '));
          cityOf.set(key, city);
          c.cityRegionIds.push(regions.id(p.region.replaceAll('\n', ' ')));
          c.cityCountry.push(country);
          c.cityLatitude.push(shortestFloat32(p.latitude));
          c.cityLongitude.push(shortestFloat32(p.longitude));
        }
      }
      known = [country, city];
      recordPlace.set(offset, known);
    }
    return known;
  };
}

/**
 * Builds the index. `version` names the data it is built from (load.ts compares it with
 * the data at hand). Without place readers the networks have no places.
 */
export function buildNetworkData(asn: AsnIndex, places: PlaceReaders, version: string): NetworkIndexData {
  const rows = rowsByAsn(asn);
  const names = new Strings();
  const countries = new Strings();
  const regions = new Strings();
  const cityNames = new Strings();
  // The index's columns, as index-file.ts declares them, grown as the networks are read.
  const c = NETWORK_CONTAINER.growing();
  const placeOf = placeDecoder(c, countries, regions, cityNames);

  const byCountry = new Map<number, number>();
  const byCity = new Map<number, number>();
  let placedUnits = 0;
  const count = (reader: MmdbReader) => (offset: number, units: number) => {
    if (offset === NOT_FOUND) return;
    const [country, city] = placeOf(reader, offset);
    if (country < 0) return;
    placedUnits += units;
    byCountry.set(country, (byCountry.get(country) ?? 0) + units);
    if (city >= 0) byCity.set(city, (byCity.get(city) ?? 0) + units);
  };
  const count4 = places.v4 && count(places.v4);
  const count6 = places.v6 && count(places.v6);

  for (let i = 0; i < rows.length; ) {
    const number = asn.asn(rows[i]!);
    let end = i;
    while (end < rows.length && asn.asn(rows[end]!) === number) end++;
    const { v4, v6, nameRow } = mergedRanges(asn, rows, i, end);

    const { addresses, prefixes4, blocks, prefixes6 } = pushRanges(c, v4, v6);

    byCountry.clear();
    byCity.clear();
    placedUnits = 0;
    let unit: number = PLACE_UNIT.none;
    if (addresses > 0 && count4) {
      unit = PLACE_UNIT.ipv4;
      for (let k = 0; k < v4.length; k += 2) places.v4!.forEachRecord4(v4[k]!, v4[k + 1]!, count4);
    } else if (blocks > 0 && count6) {
      unit = PLACE_UNIT.ipv6;
      for (let k = 0; k < v6.length; k += 2) places.v6!.forEachRecord6(v6[k]!, v6[k + 1]!, BLOCK_BITS, count6);
    }

    c.asns.push(number);
    c.nameIds.push(names.id(asn.orgs[asn.orgId(nameRow)] ?? ''));
    c.v4Addresses.push(addresses);
    c.v4Prefixes.push(prefixes4);
    c.v6Prefixes.push(prefixes6);
    c.v6Blocks.push(blocks);
    c.placeUnit.push(placedUnits > 0 ? unit : PLACE_UNIT.none);
    c.placed.push(placedUnits);
    c.countriesStart.push(c.countryIds.length);
    for (const [country, units] of top(byCountry)) { c.countryIds.push(country); c.countryCounts.push(units); }
    c.citiesStart.push(c.cityIds.length);
    for (const [city, units] of top(byCity)) { c.cityIds.push(city); c.cityCounts.push(units); }
    i = end;
  }
  c.ranges4Start.push(c.ranges4.length / 2);
  c.ranges6Start.push(c.ranges6.length / 8);
  c.countriesStart.push(c.countryIds.length);
  c.citiesStart.push(c.cityIds.length);

  // Only the cities some network lists are kept, renumbered in order of first mention.
  const columns = grown(c);
  const cityList = columns.cityIds;
  const kept = new Map<number, number>();
  for (let i = 0; i < cityList.length; i++) {
    let id = kept.get(cityList[i]!);
    if (id === undefined) kept.set(cityList[i]!, (id = kept.size));
    cityList[i] = id;
  }
  const keptIds = [...kept.keys()];
  const pick = <T>(values: ArrayLike<T>) => keptIds.map((id) => values[id]!);

  const folded = names.list.map((n) => foldName(n));
  const { v4Addresses: v4, v6Blocks: v6, nameIds } = columns;
  const bySize = Uint32Array.from({ length: nameIds.length }, (_, i) => i)
    .sort((a, b) => v4[b]! - v4[a]! || v6[b]! - v6[a]! || a - b);
  return {
    ...columns,
    version, bySize, ...searchText([...nameIds].map((id) => folded[id]!)),
    names: names.list, countries: countries.list, cityNames: pick(cityNames.list), cityRegions: regions.list,
    cityRegionIds: Uint32Array.from(pick(columns.cityRegionIds)), cityCountry: Uint16Array.from(pick(columns.cityCountry)),
    cityLatitude: Float64Array.from(pick(columns.cityLatitude)), cityLongitude: Float64Array.from(pick(columns.cityLongitude)),
  };
}
