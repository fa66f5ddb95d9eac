import { describe, expect, it } from 'vitest';
import { BIG_CITY_POPULATION, bigCityEntries } from '../../../bench/accuracy/fit.ts';
import list from './big-cities.json' with { type: 'json' };
import { BIG_CITY_MIN_POPULATION, isBigCity } from './big-cities.ts';

describe('isBigCity', () => {
  it.each([
    ['RU', 'Moscow', true],
    ['RU', 'moscow', false], // names are matched as the databases and GeoNames both write them
    ['US', 'New York City', true],
    ['US', 'Moscow', false], // Moscow, Idaho
    ['IN', 'Hyderabad', true],
    ['PK', 'Hyderabad', true], // one name, two countries
    ['GB', 'Bracknell', false],
    ['RU', '', false],
    ['', 'Moscow', false],
  ])('%s %j: %s', (country, city, big) => expect(isBigCity(country, city)).toBe(big));
});

describe('big-cities.json', () => {
  it('is what `npm run bench:accuracy -- --fit` derives from the installed GeoNames list, at the threshold the fit uses', () => {
    expect(BIG_CITY_MIN_POPULATION).toBe(BIG_CITY_POPULATION);
    expect(list.cities).toEqual([...bigCityEntries()].sort());
  });
});
