/**
 * Builds the per-network index from the data the lookup already holds: the ASN index's
 * ranges grouped by AS number (each network's ranges merged where they touch, counted, and
 * their CIDR prefixes counted), and DB-IP City's places summed over each network's
 * addresses (its IPv4 addresses; its /48s when it has no IPv4). Run by `npm run build`
 * (scripts/build-network-index.ts) and, when that file is missing or stale, by the server
 * in a child process (load.ts). About 4 s of CPU for the full data (bench/asn.mjs --build).
 */
import { forEachCidr4, forEachCidr6 } from '../../lib/cidr.ts';
import type { AsnIndex } from '../lookup/asn-index.ts';
import { emptyPlace, readPlace } from '../lookup/city-source.ts';
import { shortestFloat32 } from '../mmdb/decoder.ts';
import { NOT_FOUND, type MmdbReader } from '../mmdb/reader.ts';
import { foldName } from '../cities/fold.ts';
import type { NetworkIndexData } from './index-file.ts';
import { PLACE_UNIT, searchText, TOP_PLACES } from './network-index.ts';

/** The place data a network's addresses are summed over (DB-IP City's two files). */
export interface PlaceReaders { v4: MmdbReader | undefined; v6: MmdbReader | undefined }

/** A /48 in the IPv6 counts. */
const BLOCK_BITS = 48;
const BLOCK = 1n << BigInt(128 - BLOCK_BITS);

/** Growable typed arrays: the builder does not know the sizes ahead. */
class Column<A extends Uint32Array | Float64Array | Uint16Array> {
  private array: A;
  length = 0;
  private readonly make: (size: number) => A;
  constructor(make: (size: number) => A) {
    this.make = make;
    this.array = make(1024);
  }
  push(value: number): void {
    if (this.length === this.array.length) {
      const bigger = this.make(this.array.length * 2);
      bigger.set(this.array);
      this.array = bigger;
    }
    this.array[this.length++] = value;
  }
  done(): A { return this.array.slice(0, this.length) as A; }
}

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
  const asns = new Column((n) => new Uint32Array(n));
  const nameIds = new Column((n) => new Uint32Array(n));
  const v4Addresses = new Column((n) => new Float64Array(n));
  const v4Prefixes = new Column((n) => new Uint32Array(n));
  const v6Prefixes = new Column((n) => new Uint32Array(n));
  const v6Blocks = new Column((n) => new Float64Array(n));
  const placeUnit = new Column((n) => new Uint32Array(n));
  const placed = new Column((n) => new Float64Array(n));
  const ranges4Start = new Column((n) => new Uint32Array(n));
  const ranges4 = new Column((n) => new Uint32Array(n));
  const ranges6Start = new Column((n) => new Uint32Array(n));
  const ranges6 = new Column((n) => new Uint32Array(n));
  const countriesStart = new Column((n) => new Uint32Array(n));
  const countryIds = new Column((n) => new Uint16Array(n));
  const countryCounts = new Column((n) => new Float64Array(n));
  const citiesStart = new Column((n) => new Uint32Array(n));
  const cityIds = new Column((n) => new Uint32Array(n));
  const cityCounts = new Column((n) => new Float64Array(n));
  const cityRegion = new Column((n) => new Uint32Array(n));
  const cityCountry = new Column((n) => new Uint16Array(n));
  const cityLat = new Column((n) => new Float64Array(n));
  const cityLon = new Column((n) => new Float64Array(n));
  const cityOf = new Map<string, number>();

  // Per record of the place file, its country id and city id (-1: none), decoded once.
  const recordPlace = new Map<number, [number, number]>();
  const scratch = emptyPlace();
  const placeOf = (reader: MmdbReader, offset: number): [number, number] => {
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
          cityRegion.push(regions.id(p.region.replaceAll('\n', ' ')));
          cityCountry.push(country);
          cityLat.push(shortestFloat32(p.latitude));
          cityLon.push(shortestFloat32(p.longitude));
        }
      }
      known = [country, city];
      recordPlace.set(offset, known);
    }
    return known;
  };

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

    let addresses = 0;
    let prefixes4 = 0;
    ranges4Start.push(ranges4.length / 2);
    for (let k = 0; k < v4.length; k += 2) {
      ranges4.push(v4[k]!);
      ranges4.push(v4[k + 1]!);
      addresses += v4[k + 1]! - v4[k]! + 1;
      prefixes4 += forEachCidr4(v4[k]!, v4[k + 1]!);
    }
    let blocks = 0;
    let prefixes6 = 0;
    ranges6Start.push(ranges6.length / 8);
    for (let k = 0; k < v6.length; k += 2) {
      for (const value of [v6[k]!, v6[k + 1]!]) {
        for (let shift = 96n; shift >= 0n; shift -= 32n) ranges6.push(Number(BigInt.asUintN(32, value >> shift)));
      }
      const span = v6[k + 1]! - v6[k]! + 1n;
      blocks += Number(span / BLOCK) + Number(span % BLOCK) / Number(BLOCK);
      prefixes6 += forEachCidr6(v6[k]!, v6[k + 1]!);
    }

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

    asns.push(number);
    nameIds.push(names.id(asn.orgs[asn.orgId(nameRow)] ?? ''));
    v4Addresses.push(addresses);
    v4Prefixes.push(prefixes4);
    v6Prefixes.push(prefixes6);
    v6Blocks.push(blocks);
    placeUnit.push(placedUnits > 0 ? unit : PLACE_UNIT.none);
    placed.push(placedUnits);
    countriesStart.push(countryIds.length);
    for (const [country, units] of top(byCountry)) { countryIds.push(country); countryCounts.push(units); }
    citiesStart.push(cityIds.length);
    for (const [city, units] of top(byCity)) { cityIds.push(city); cityCounts.push(units); }
    i = end;
  }
  ranges4Start.push(ranges4.length / 2);
  ranges6Start.push(ranges6.length / 8);
  countriesStart.push(countryIds.length);
  citiesStart.push(cityIds.length);

  // Only the cities some network lists are kept, renumbered in order of first mention.
  const cityList = cityIds.done();
  const kept = new Map<number, number>();
  for (let i = 0; i < cityList.length; i++) {
    let id = kept.get(cityList[i]!);
    if (id === undefined) kept.set(cityList[i]!, (id = kept.size));
    cityList[i] = id;
  }
  const keptIds = [...kept.keys()];
  const pick = <T>(values: ArrayLike<T>) => keptIds.map((id) => values[id]!);
  const regionIds = pick(cityRegion.done());

  const nameList = names.list;
  const folded = nameList.map((n) => foldName(n));
  const v4 = v4Addresses.done();
  const v6 = v6Blocks.done();
  const nameIdArray = nameIds.done();
  const bySize = Uint32Array.from({ length: nameIdArray.length }, (_, i) => i)
    .sort((a, b) => v4[b]! - v4[a]! || v6[b]! - v6[a]! || a - b);
  return {
    version,
    asns: asns.done(), nameIds: nameIdArray, v4Addresses: v4, v4Prefixes: v4Prefixes.done(), v6Prefixes: v6Prefixes.done(), v6Blocks: v6,
    placeUnit: Uint8Array.from(placeUnit.done()), placed: placed.done(),
    ranges4Start: ranges4Start.done(), ranges4: ranges4.done(), ranges6Start: ranges6Start.done(), ranges6: ranges6.done(),
    countriesStart: countriesStart.done(), countryIds: countryIds.done(), countryCounts: countryCounts.done(),
    citiesStart: citiesStart.done(), cityIds: cityList, cityCounts: cityCounts.done(),
    bySize,
    names: nameList, ...searchText([...nameIdArray].map((id) => folded[id]!)),
    countries: countries.list,
    cityNames: pick(cityNames.list), cityRegionIds: Uint32Array.from(regionIds), cityRegions: regions.list,
    cityCountry: Uint16Array.from(pick(cityCountry.done())),
    cityLatitude: Float64Array.from(pick(cityLat.done())), cityLongitude: Float64Array.from(pick(cityLon.done())),
  };
}
