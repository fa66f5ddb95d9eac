/**
 * The per-network index as one file (dist/data/network-index.bin, written by `npm run build`
 * through scripts/build-network-index.ts), so the server loads it in tens of milliseconds
 * instead of building it (seconds of CPU). Layout as the city index's file: the magic
 * 'NETIDX01', a little-endian u32 header length, a JSON header (the data version, the
 * country codes, where each part lies), then each part 8-byte aligned: the string lists as
 * UTF-8 text of lines (one string each: parsing them is a split, not a JSON parse of
 * 200,000 strings), the typed arrays as they are in memory (views on the file's buffer,
 * not copies). Read on a machine of the same byte order as the one that wrote it
 * (little-endian: x86 and ARM as run).
 */
import type { NetworkIndexData } from './network-index.ts';

export const NETWORK_INDEX_FILE = 'data/network-index.bin';
const MAGIC = 'NETIDX01';
const FORMAT = 1;

type Typed = Uint8Array | Uint16Array | Uint32Array | Float64Array;
const ARRAYS = {
  asns: Uint32Array, nameIds: Uint32Array, v4Addresses: Float64Array, v4Prefixes: Uint32Array, v6Prefixes: Uint32Array,
  v6Blocks: Float64Array, placeUnit: Uint8Array, placed: Float64Array, ranges4Start: Uint32Array, ranges4: Uint32Array,
  ranges6Start: Uint32Array, ranges6: Uint32Array, countriesStart: Uint32Array, countryIds: Uint16Array, countryCounts: Float64Array,
  citiesStart: Uint32Array, cityIds: Uint32Array, cityCounts: Float64Array, bySize: Uint32Array,
  cityRegionIds: Uint32Array, cityCountry: Uint16Array, cityLatitude: Float64Array, cityLongitude: Float64Array, nameAt: Uint32Array,
} as const;
/** The string lists, stored as lines (no string holds a line feed: names have them replaced, asn-index.ts). */
const TEXTS = ['names', 'cityNames', 'regions'] as const;
type TextName = typeof TEXTS[number];
type ArrayName = keyof typeof ARRAYS;

interface Header {
  format: number;
  version: string;
  countries: string[];
  /** Part name → [byte offset after the header, element count (bytes for a text), strings in a list of lines]. */
  parts: Record<string, [number, number, number?]>;
}

/** The city table's arrays under their names in the file. */
const CITY_ARRAYS = { cityRegionIds: 'regionIds', cityCountry: 'country', cityLatitude: 'latitude', cityLongitude: 'longitude' } as const;

function arraysOf(data: NetworkIndexData): Record<ArrayName, Typed> {
  const arrays = {} as Record<ArrayName, Typed>;
  for (const name of Object.keys(ARRAYS) as ArrayName[]) {
    arrays[name] = name in CITY_ARRAYS ? data.cities[CITY_ARRAYS[name as keyof typeof CITY_ARRAYS]] : data[name as Exclude<ArrayName, keyof typeof CITY_ARRAYS>];
  }
  return arrays;
}

const align = (n: number) => Math.ceil(n / 8) * 8;

/** The texts: each list of strings as lines, with its length (a list of one empty string and an empty list are both ''). */
const textsOf = (data: NetworkIndexData): Record<TextName | 'haystack', [string, number?]> => ({
  names: [data.names.join('\n'), data.names.length], cityNames: [data.cities.names.join('\n'), data.cities.names.length],
  regions: [data.cities.regions.join('\n'), data.cities.regions.length], haystack: [data.haystack],
});

/** The index as bytes. */
export function encodeNetworkIndex(data: NetworkIndexData): Buffer {
  const arrays = arraysOf(data);
  const blobs: Array<[string, Uint8Array, number, number?]> = [
    ...Object.entries(textsOf(data)).map(([name, [text, strings]]): [string, Uint8Array, number, number?] => {
      const bytes = Buffer.from(text);
      return [name, bytes, bytes.length, strings];
    }),
    ...(Object.keys(ARRAYS) as ArrayName[]).map((name): [string, Uint8Array, number] => {
      const a = arrays[name];
      return [name, new Uint8Array(a.buffer, a.byteOffset, a.byteLength), a.length];
    }),
  ];
  const parts: Header['parts'] = {};
  let at = 0;
  for (const [name, bytes, count, strings] of blobs) {
    parts[name] = strings === undefined ? [at, count] : [at, count, strings];
    at = align(at + bytes.byteLength);
  }
  const header: Header = { format: FORMAT, version: data.version, countries: data.countries, parts };
  const json = Buffer.from(JSON.stringify(header));
  const start = align(12 + json.length);
  const out = Buffer.alloc(start + at);
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt32LE(json.length, 8);
  json.copy(out, 12);
  for (const [name, bytes] of blobs) out.set(bytes, start + parts[name]![0]);
  return out;
}

/**
 * Reads encodeNetworkIndex's output; undefined when it is not a complete index of this
 * format, or was built from other data than `version` (when given).
 */
export function decodeNetworkIndex(file: Buffer, version?: string): NetworkIndexData | undefined {
  if (file.length < 12 || file.toString('latin1', 0, 8) !== MAGIC) return undefined;
  const length = file.readUInt32LE(8);
  if (12 + length > file.length) return undefined;
  let header: Header;
  try {
    header = JSON.parse(file.toString('utf8', 12, 12 + length)) as Header;
  } catch {
    return undefined;
  }
  if (header.format !== FORMAT || (version !== undefined && header.version !== version)) return undefined;
  // Views need their element alignment: copy a buffer that does not start on 8 bytes.
  const bytes = file.byteOffset % 8 === 0 ? file : Buffer.from(file);
  const start = align(12 + length);
  const arrays = {} as Record<ArrayName, Typed>;
  for (const name of Object.keys(ARRAYS) as ArrayName[]) {
    const part = header.parts[name];
    const Type = ARRAYS[name];
    if (!part || start + part[0] + part[1] * Type.BYTES_PER_ELEMENT > bytes.length) return undefined;
    arrays[name] = new Type(bytes.buffer as ArrayBuffer, bytes.byteOffset + start + part[0], part[1]);
  }
  const text = (name: string): string | undefined => {
    const part = header.parts[name];
    return part && start + part[0] + part[1] <= bytes.length ? bytes.toString('utf8', start + part[0], start + part[0] + part[1]) : undefined;
  };
  const lines = (name: TextName): string[] | undefined => {
    const t = text(name);
    const list = t === undefined || header.parts[name]![2] === 0 ? [] : t.split('\n');
    return t !== undefined && list.length === header.parts[name]![2] ? list : undefined;
  };
  const [names, cityNames, regions] = TEXTS.map(lines);
  const haystack = text('haystack');
  if (names === undefined || cityNames === undefined || regions === undefined || haystack === undefined) return undefined;
  const { cityRegionIds, cityCountry, cityLatitude, cityLongitude, ...rest } = arrays;
  const data = {
    ...rest, version: header.version, names, countries: header.countries, haystack,
    cities: { names: cityNames, regions, regionIds: cityRegionIds, country: cityCountry, latitude: cityLatitude, longitude: cityLongitude },
  } as NetworkIndexData;
  return consistent(data) ? data : undefined;
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
  const c = d.cities;
  const cityCount = c.names.length;
  if ([c.regionIds, c.country, c.latitude, c.longitude].some((a) => a.length !== cityCount)) return false;
  // The search finds a slot's name by its line in the haystack: every offset in order, the last its end.
  if (d.nameAt.length !== n + 1 || d.nameAt[n] !== d.haystack.length) return false;
  for (let i = 0; i < n; i++) if (d.nameAt[i]! >= d.nameAt[i + 1]! || d.haystack.charCodeAt(d.nameAt[i + 1]! - 1) !== 10) return false;
  const below = (ids: ArrayLike<number>, limit: number) => { for (let i = 0; i < ids.length; i++) if (ids[i]! >= limit) return false; return true; };
  return below(d.nameIds, d.names.length) && below(d.countryIds, d.countries.length) && below(d.cityIds, cityCount)
    && below(c.regionIds, c.regions.length) && below(c.country, d.countries.length) && below(d.bySize, n);
}
