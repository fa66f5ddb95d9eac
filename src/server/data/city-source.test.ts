import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseIp } from '../../lib/ip-address.ts';
import { writeMmdb } from '../../../tests/fixtures/mmdb-writer.ts';
import { emptyPlace, placeFromNested, type Place } from './city-source.ts';
import { openCitySource } from './sources.ts';

/** A GeoIP2 City record as MaxMind ships it (trimmed to the fields we read, plus noise). */
const LONDON = {
  city: { geoname_id: 2643743, names: { de: 'London', en: 'London', 'zh-CN': '伦敦' } },
  continent: { code: 'EU', names: { en: 'Europe' } },
  country: { iso_code: 'GB', names: { en: 'United Kingdom' } },
  location: { accuracy_radius: 10, latitude: 51.5142, longitude: -0.0931, time_zone: 'Europe/London' },
  postal: { code: 'EC2V' },
  registered_country: { iso_code: 'GB' },
  subdivisions: [{ iso_code: 'ENG', names: { en: 'England' } }, { iso_code: 'WSM', names: { en: 'Westminster' } }],
};

/** LONDON as a Place: MaxMind's own radius kept, and London is a city of a million people or more. */
const LONDON_PLACE: Place = {
  city: 'London', region: 'England', countryCode: 'GB', postal: 'EC2V', latitude: 51.5142, longitude: -0.0931, timezone: 'Europe/London',
  radiusKm: 10, bigCity: true, regionCode: 'ENG', metroCode: 0,
};

describe('placeFromNested', () => {
  it.each<[string, unknown, Partial<Place>]>([
    ['a full City record, with its accuracy_radius', LONDON, { ...LONDON_PLACE, bigCity: false }],
    ['a country-only record, registered country as fallback', { registered_country: { iso_code: 'SE' }, location: { latitude: 62, longitude: 15 } }, {
      city: '', region: '', countryCode: 'SE', postal: '', latitude: 62, longitude: 15, timezone: '', radiusKm: NaN,
    }],
    ['a record with wrong types', { city: 'London', country: { iso_code: 44 }, location: { latitude: '51' }, subdivisions: {} }, {
      city: '', countryCode: '', latitude: NaN,
    }],
    ['something that is not a record', 'nonsense', { city: '', countryCode: '', latitude: NaN, longitude: NaN }],
    ['a US record\'s metro code', { country: { iso_code: 'US' }, location: { metro_code: 807 }, subdivisions: [{ iso_code: 'CA' }] }, { metroCode: 807, regionCode: 'CA' }],
    ['no metro code outside the US', { country: { iso_code: 'GB' }, location: { metro_code: 807 } }, { metroCode: 0, regionCode: '' }],
    ['no metro code of 0 or of another type', { country: { iso_code: 'US' }, location: { metro_code: '807' } }, { metroCode: 0 }],
  ])('maps %s', (_, record, expected) => expect(placeFromNested(record, emptyPlace())).toMatchObject(expected));
});

describe('CitySource over an MMDB file', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'city-source-'));
  const nestedFile = path.join(dir, 'GeoIP2-City-test.mmdb');
  writeFileSync(nestedFile, writeMmdb([['81.2.69.0/24', LONDON], ['2a02:ff0::/32', { country: { iso_code: 'SE' } }]], 'GeoIP2-City'));
  const flatFile = path.join(dir, 'flat-ipv4.mmdb');
  writeFileSync(flatFile, writeMmdb([['5.255.255.0/24', {
    city: 'Moscow (Tsentralnyy administrativnyy okrug)', state1: 'Moscow', state2: '', postcode: '', country_code: 'RU',
    latitude: 55.7342, longitude: 37.5859, timezone: '',
  }]], 'city ipv4'));

  const v4 = (ip: string) => (parseIp(ip) as { value: number }).value;
  const words = (ip: string) => {
    const v = (parseIp(ip) as { value: bigint }).value;
    return new Uint32Array([96n, 64n, 32n, 0n].map((s) => Number(BigInt.asUintN(32, v >> s))));
  };

  it("reads MaxMind's nested schema for both families from one file, named from its metadata", async () => {
    const source = await openCitySource(undefined, nestedFile);
    if (source instanceof Error) throw source;
    expect(source.name).toBe('geoip2-city');
    const out = emptyPlace();
    expect(source.find4(v4('81.2.69.160'), out)).toBe(true);
    expect(out).toEqual(LONDON_PLACE);
    expect(source.find6(words('2a02:ff0::1'), out)).toBe(true);
    expect(out).toMatchObject({ city: '', countryCode: 'SE', bigCity: false });
    expect(source.find4(v4('8.8.8.8'), out)).toBe(false);
  });

  it('reads the flat schema and drops the district DB-IP appends to a city', async () => {
    const source = await openCitySource('flat', flatFile, flatFile);
    if (source instanceof Error) throw source;
    const out = emptyPlace();
    expect(source.find4(v4('5.255.255.5'), out)).toBe(true);
    expect(out).toMatchObject({ city: 'Moscow', region: 'Moscow', countryCode: 'RU', latitude: 55.7342, timezone: '', radiusKm: NaN, bigCity: true });
  });

  it('answers a record read before from its cache, whatever the caller did to its copy', async () => {
    const source = await openCitySource(undefined, nestedFile);
    if (source instanceof Error) throw source;
    const first = emptyPlace();
    source.find4(v4('81.2.69.1'), first);
    // The engine fills in blanks on its copy; the next address in the range must not see that.
    first.city = 'Changed';
    first.latitude = 0;
    const second = emptyPlace();
    expect(source.find4(v4('81.2.69.200'), second)).toBe(true);
    expect(second).toEqual(LONDON_PLACE);
    expect(source.find4(v4('81.2.70.1'), second)).toBe(false);
  });

  it('reports a missing or broken file instead of throwing', async () => {
    const broken = path.join(dir, 'broken.mmdb');
    writeFileSync(broken, 'this is not a MaxMind database');
    expect(await openCitySource(undefined, path.join(dir, 'missing.mmdb'))).toBeInstanceOf(Error);
    expect(await openCitySource(undefined, broken)).toBeInstanceOf(Error);
  });

  it('keeps the family whose file opened when the other is missing', async () => {
    const source = await openCitySource('half', flatFile, path.join(dir, 'missing.mmdb'));
    if (source instanceof Error) throw source;
    expect(source.find4(v4('5.255.255.5'), emptyPlace())).toBe(true);
    expect(source.find6(words('2a02:ff0::1'), emptyPlace())).toBe(false);
    expect(source.families).toEqual(['IPv4']);
  });
});
