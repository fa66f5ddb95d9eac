import { describe, expect, it } from 'vitest';
import { fallbackCandidate } from './city-search.ts';

describe('fallbackCandidate', () => {
  it.each<[string, boolean, string, number]>([
    ['  Springfield, IL  ', false, 'Springfield', 0.5],
    ['Springfield , IL', false, 'Springfield', 0.5],
    ['  Springfield, IL  ', true, 'Springfield, IL', 0.3],
    ['Springfield', true, 'Springfield', 0.3],
  ])('offers %j (server unreachable: %s) as city %j, confidence %s', (query, unreachable, city, confidence) => {
    expect(fallbackCandidate(query, unreachable)).toEqual({
      city, region: 'Unknown Region', country: 'Unknown', country_code: 'Unknown',
      latitude: 0, longitude: 0, confidence, population: null,
    });
  });
});
