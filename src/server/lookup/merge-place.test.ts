import { describe, expect, it } from 'vitest';
import { emptyPlace, type Place } from '../data/city-source.ts';
import { choosePlace, countryName, fillBlanks, onlyZoneOf } from './merge-place.ts';

const place = (values: Partial<Place>): Place => ({ ...emptyPlace(), ...values });
const dbipCity = place({ city: 'Mountain View', region: 'California', countryCode: 'US', latitude: 37.422, longitude: -122.085 });
const geoCountry = place({ countryCode: 'US', latitude: 37.751, longitude: -97.822, timezone: 'America/Chicago' });
const geoCity = place({ city: 'Sunnyvale', countryCode: 'US', postal: '94089', timezone: 'America/Los_Angeles', region: 'California' });
const geoCanada = place({ city: 'Toronto', countryCode: 'CA' });
const dbipCountry = place({ countryCode: 'US' });

describe('choosePlace', () => {
  // Both name a city: the preference table (fitted in src/lib/accuracy-model.ts) decides per consensus band.
  const preferred = ['primary', 'second', 'second', 'primary', 'second'] as const;
  it.each<[string, number | null, Place]>([
    ['the primary in a band that prefers it (exactly 5 km)', 5, dbipCity],
    ['the second in a band that prefers it (just past 5 km)', 5.1, geoCity],
    ['the second at exactly 50 km', 50, geoCity],
    ['the primary just past 50 km', 50.1, dbipCity],
    ['the second beyond the last edge', 200.1, geoCity],
    ['the primary when a city has no coordinates (no consensus)', null, dbipCity],
  ])('takes %s', (_, km, expected) => expect(choosePlace(dbipCity, geoCity, km, preferred)).toBe(expected));

  it.each([
    ['the primary when it names a city and there is no consensus', dbipCity, geoCity, dbipCity],
    ['the second when only it names a city in the same country', dbipCountry, geoCity, geoCity],
    ['the primary country over a second city in another country', dbipCountry, geoCanada, dbipCountry],
    ['the second city when the primary is silent', null, geoCity, geoCity],
    ['the primary country when neither names a city', dbipCountry, geoCountry, dbipCountry],
    ['the second country when the primary has nothing', place({}), geoCountry, geoCountry],
    ['nothing when both are silent', null, null, null],
    ['the primary, naming nothing, over a second that is silent', place({}), null, 'primary'],
    ['the second, naming nothing, over a primary that is silent', null, place({}), 'second'],
  ] as const)('takes %s', (_, primary, second, expected) =>
    expect(choosePlace(primary, second)).toBe(expected === 'primary' ? primary : expected === 'second' ? second : expected));

  // A distance between the two is a consensus only when both name a city (distanceConsensus gives null otherwise).
  it.each([
    ['the second\'s city over a primary that names only the country', dbipCountry, geoCity, geoCity],
    ['the primary\'s city over a second that names only the country', dbipCity, geoCountry, dbipCity],
  ] as const)('takes %s, whatever the table prefers at that distance', (_, primary, second, expected) => {
    for (const km of [1, 10, 300]) expect(choosePlace(primary, second, km, preferred)).toBe(expected);
  });
});

describe('fillBlanks', () => {
  it.each<[string, Place, number | null, Partial<Place>]>([
    ['region and timezone from a city within 50 km, not a postal code of another town', geoCity, 10, { timezone: 'America/Los_Angeles', postal: '' }],
    ['region and timezone from a city exactly 50 km away', geoCity, 50, { timezone: 'America/Los_Angeles', region: 'California', postal: '' }],
    ['nothing from a city more than 50 km away (the zone comes from its own coordinates)', geoCity, 60, { timezone: 'America/Los_Angeles', postal: '', region: '' }],
    ['not the country centroid\'s zone from a source that names only the country', geoCountry, null, { timezone: 'America/Los_Angeles' }],
    ['the postal code from the same city', place({ ...geoCity, city: 'mountain view' }), 3, { postal: '94089' }],
    ['no postal code from another town whose name is as long', place({ ...geoCity, city: 'Half Moon Bay' }), 30, { postal: '', region: 'California' }],
    ['nothing from another country', place({ ...geoCanada, timezone: 'America/Toronto', region: 'Ontario' }), 5, { timezone: 'America/Los_Angeles', region: '' }],
  ])('takes %s', (_, other, km, expected) => {
    const chosen = place({ ...dbipCity, region: '' });
    fillBlanks(chosen, other, km);
    expect(chosen).toMatchObject(expected);
  });

  it.each<[string, Partial<Place>, Place, Partial<Place>]>([
    ['the region code of the same region', {}, place({ ...geoCity, regionCode: 'CA' }), { regionCode: 'CA' }],
    ['the region code of the same region written in another case', {}, place({ ...geoCity, region: 'CALIFORNIA', regionCode: 'CA' }), { regionCode: 'CA' }],
    ['no region code of another region', {}, place({ ...geoCity, region: 'Nevada', regionCode: 'NV' }), { regionCode: '' }],
    ['its own region code over the other\'s', { regionCode: 'XX' }, place({ ...geoCity, regionCode: 'CA' }), { regionCode: 'XX' }],
    ['the metro code of the same city', {}, place({ ...dbipCity, metroCode: 807 }), { metroCode: 807 }],
    ['no metro code of another city', {}, place({ ...geoCity, metroCode: 807 }), { metroCode: 0 }],
    ['its own metro code over the other\'s', { metroCode: 1 }, place({ ...dbipCity, metroCode: 807 }), { metroCode: 1 }],
  ])('takes %s', (_, own, other, expected) => {
    const chosen = place({ ...dbipCity, ...own });
    fillBlanks(chosen, other, 3);
    expect(chosen).toMatchObject(expected);
  });

  it('takes the postal code from the same city written with a composed or a decomposed İ', () => {
    // 'İzmir' lower-cases to six code units, 'I\u0307zmir' (I + combining dot) too: same name.
    const izmir = place({ city: 'İzmir', countryCode: 'TR', latitude: 38.41, longitude: 27.14 });
    const chosen = place({ ...izmir });
    fillBlanks(chosen, place({ ...izmir, city: 'I\u0307zmir', postal: '35000' }), 2);
    expect(chosen.postal).toBe('35000');
  });

  it('takes the zone of a single-zone country when no source gave one', () => {
    const chosen = place({ city: 'Lyon', countryCode: 'FR' });
    fillBlanks(chosen, null, null);
    expect(chosen.timezone).toBe('Europe/Paris');
  });

  it.each([
    ['a city in a multi-zone country from its coordinates', place({ city: 'Denver', countryCode: 'US', latitude: 39.74, longitude: -104.99 }), 'America/Denver'],
    ['no zone for a bare country in a multi-zone country', place({ countryCode: 'US', latitude: 37.75, longitude: -97.82 }), ''],
    ['no zone for a city without coordinates', place({ city: 'Somewhere', countryCode: 'US' }), ''],
  ])('takes %s', (_, chosen, zone) => {
    fillBlanks(chosen, null, null);
    expect(chosen.timezone).toBe(zone);
  });

  it('never overwrites what the chosen source said', () => {
    const chosen = place({ ...dbipCity, timezone: 'America/Los_Angeles', postal: '94043' });
    fillBlanks(chosen, place({ ...geoCity, city: 'Mountain View', timezone: 'America/Denver', postal: '1', region: 'CA' }), 1);
    expect(chosen).toMatchObject({ timezone: 'America/Los_Angeles', postal: '94043', region: 'California' });
  });

  it('takes the zone of an agreeing city before the one its own coordinates fall in', () => {
    // South Bend, Indiana and Niles, Michigan: 17 km apart, on either side of a zone line.
    const chosen = place({ city: 'South Bend', countryCode: 'US', latitude: 41.676, longitude: -86.252 });
    fillBlanks(chosen, place({ city: 'Niles', countryCode: 'US', region: 'Michigan', timezone: 'America/Detroit' }), 17);
    expect(chosen.timezone).toBe('America/Detroit');
  });

  it('keeps the zone a source gave for a bare country that has several', () => {
    const chosen = place({ ...geoCountry });
    fillBlanks(chosen, null, null);
    expect(chosen.timezone).toBe('America/Chicago');
  });
});

describe('onlyZoneOf', () => {
  // 'Latn' is a script, not a region: the locale has no zones at all.
  it.each([['FR', 'Europe/Paris'], ['JP', 'Asia/Tokyo'], ['US', ''], ['AU', ''], ['', ''], ['ZZ', ''], ['not a code', ''], ['Latn', '']])(
    '%j has the single zone %j', (code, zone) => expect(onlyZoneOf(code)).toBe(zone));
});

describe('countryName', () => {
  it.each([['US', 'United States'], ['GB', 'United Kingdom'], ['DE', 'Germany'], ['', 'Unknown'], ['ZZ', 'Unknown'], ['not a code', 'Unknown']])(
    'names %j %j', (code, name) => expect(countryName(code)).toBe(name));
});
