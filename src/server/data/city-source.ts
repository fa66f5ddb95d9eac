/**
 * City databases: DB-IP City Lite (primary) and GeoLite2 City or the operator's own
 * MaxMind City file (second source). Two record schemas are understood:
 * - flat (the @ip-location-db files): city, state1, state2, postcode, country_code,
 *   latitude, longitude, timezone, strings possibly empty;
 * - nested (MaxMind GeoIP2/GeoLite2, DB-IP's MaxMind-format files): city.names.en,
 *   subdivisions[0].names.en, country.iso_code, location.latitude/longitude/time_zone/accuracy_radius,
 *   postal.code.
 * A source whose file is missing or broken is simply absent (echoip's optional readers).
 */
import { readFile } from 'node:fs/promises';
import { BoundedMap } from '../utils/bounded-map.ts';
import { isBigCity } from './big-cities.ts';
import { shortestFloat32, type MmdbDecoder } from '../mmdb/decoder.ts';
import { MmdbReader, NOT_FOUND } from '../mmdb/reader.ts';

/**
 * One source's answer. Missing text is '', missing coordinates NaN. Coordinates are
 * rounded where a record is decoded (PlaceCache), once per record: a float32 field reads
 * as 37.42200088500977, and shortestFloat32 gives the 37.422 the file's maker wrote.
 */
export interface Place {
  city: string;
  region: string;
  countryCode: string;
  postal: string;
  latitude: number;
  longitude: number;
  timezone: string;
  /** The source's own accuracy radius in km (MaxMind files' location.accuracy_radius); NaN when it gives none. */
  radiusKm: number;
  /** Whether `city` names a city of a million people or more (src/server/data/big-cities.ts). */
  bigCity: boolean;
  /** The region's ISO 3166-2 code without the country ('CA' of US-CA); '' when the source gives none (DB-IP's flat files). */
  regionCode: string;
  /** The US metro (DMA) code of MaxMind files, 0 for none. */
  metroCode: number;
}

export function emptyPlace(): Place {
  return { city: '', region: '', countryCode: '', postal: '', latitude: NaN, longitude: NaN, timezone: '', radiusKm: NaN, bigCity: false, regionCode: '', metroCode: 0 };
}

/** DB-IP names districts of large cities: 'Moscow (Tsentralnyy administrativnyy okrug)' → 'Moscow'. */
function cityName(name: string): string {
  const paren = name.endsWith(')') ? name.lastIndexOf(' (') : -1;
  return paren > 0 ? name.slice(0, paren) : name;
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');
const coordinate = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : NaN);
const field = (v: unknown, key: string): unknown => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined);

/** Fills `out` from a decoded record of the nested (MaxMind) schema. */
export function placeFromNested(record: unknown, out: Place): Place {
  const subdivision = field(field(record, 'subdivisions'), '0');
  const location = field(record, 'location');
  out.city = text(field(field(field(record, 'city'), 'names'), 'en'));
  out.region = text(field(field(subdivision, 'names'), 'en'));
  out.countryCode = text(field(field(record, 'country'), 'iso_code')) || text(field(field(record, 'registered_country'), 'iso_code'));
  out.postal = text(field(field(record, 'postal'), 'code'));
  out.latitude = coordinate(field(location, 'latitude'));
  out.longitude = coordinate(field(location, 'longitude'));
  out.timezone = text(field(location, 'time_zone'));
  out.radiusKm = coordinate(field(location, 'accuracy_radius'));
  out.regionCode = text(field(subdivision, 'iso_code'));
  const metro = field(location, 'metro_code');
  // MaxMind's metro codes are the US's; ifconfig.co gives none elsewhere either.
  out.metroCode = typeof metro === 'number' && metro > 0 && out.countryCode === 'US' ? metro : 0;
  return out;
}

/**
 * Reads the record at `offset` into `out`: the flat schema entry by entry without building
 * an object (the hot path); a record with nested values is decoded whole and mapped.
 */
export function readPlace(decoder: MmdbDecoder, offset: number, out: Place): Place {
  const pairs = decoder.openMap(offset);
  out.city = out.region = out.countryCode = out.postal = out.timezone = out.regionCode = '';
  out.latitude = out.longitude = out.radiusKm = NaN;
  out.metroCode = 0;
  for (let i = 0; i < pairs; i++) {
    const key = decoder.value();
    if (decoder.nextIsContainer()) return placeFromNested(decoder.decode(offset), out);
    switch (key) {
      case 'city': out.city = cityName(text(decoder.value())); break;
      case 'state1': out.region = text(decoder.value()); break;
      case 'country_code': out.countryCode = text(decoder.value()); break;
      case 'postcode': out.postal = text(decoder.value()); break;
      case 'latitude': out.latitude = coordinate(decoder.value()); break;
      case 'longitude': out.longitude = coordinate(decoder.value()); break;
      case 'timezone': out.timezone = text(decoder.value()); break;
      default: decoder.skip();
    }
  }
  return out;
}

/**
 * Decoded records by their offset in the file. Many addresses share one record (a city's,
 * a country's), and decoding is most of a lookup's cost; bounded, oldest out first. Per
 * record, not per address: nothing here says which address asked. Whether the record
 * names a big city is settled here too, once per record, off the per-address path.
 */
class PlaceCache {
  private readonly places: BoundedMap<number, Place>;
  constructor(max: number) {
    this.places = new BoundedMap(max);
  }

  /** Fills `out` with the record at `offset`, decoding it only the first time it is asked for. */
  fill(reader: MmdbReader, offset: number, out: Place): boolean {
    if (offset === NOT_FOUND) return false;
    const place = this.places.get(offset) ?? this.decode(reader, offset);
    out.city = place.city;
    out.region = place.region;
    out.countryCode = place.countryCode;
    out.postal = place.postal;
    out.latitude = place.latitude;
    out.longitude = place.longitude;
    out.timezone = place.timezone;
    out.radiusKm = place.radiusKm;
    out.bigCity = place.bigCity;
    out.regionCode = place.regionCode;
    out.metroCode = place.metroCode;
    return true;
  }

  /** The first time a record is asked for: decoded and kept. Apart from `fill`, so the hit path stays small. */
  private decode(reader: MmdbReader, offset: number): Place {
    const place = readPlace(reader.data, offset, emptyPlace());
    place.latitude = shortestFloat32(place.latitude);
    place.longitude = shortestFloat32(place.longitude);
    place.bigCity = isBigCity(place.countryCode, place.city);
    this.places.set(offset, place);
    return place;
  }
}

/** Decoded records kept per file and address family. */
const PLACE_CACHE_SIZE = 16_384;

/** A city database, one file per address family or one file for both. */
export class CitySource {
  readonly name: string;
  private readonly v4: MmdbReader | undefined;
  private readonly v6: MmdbReader | undefined;
  private readonly cache4 = new PlaceCache(PLACE_CACHE_SIZE);
  private readonly cache6 = new PlaceCache(PLACE_CACHE_SIZE);

  constructor(name: string, v4: MmdbReader | undefined, v6: MmdbReader | undefined) {
    this.name = name;
    this.v4 = v4;
    this.v6 = v6;
  }

  /** Which address families have a readable file. */
  get families(): string[] {
    return [this.v4 && 'IPv4', this.v6 && 'IPv6'].filter((f): f is string => typeof f === 'string');
  }

  /** Fills `out` for an IPv4 address (unsigned 32-bit); false when the source has no record. */
  find4(address: number, out: Place): boolean {
    return this.v4 !== undefined && this.cache4.fill(this.v4, this.v4.find4(address), out);
  }

  /** Fills `out` for an IPv6 address (four words, high first); false when there is no record. */
  find6(words: Uint32Array, out: Place): boolean {
    return this.v6 !== undefined && this.cache6.fill(this.v6, this.v6.find6(words), out);
  }
}

/** Opens an MMDB file; a missing or unreadable one is reported, not thrown. */
export async function openMmdb(path: string): Promise<MmdbReader | Error> {
  try {
    return new MmdbReader(await readFile(path));
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** The source name of an operator's file from its metadata: 'GeoIP2-City' → 'geoip2-city'. */
export function sourceNameOf(reader: MmdbReader, fallback: string): string {
  const type = reader.databaseType.trim().toLowerCase().replace(/[^a-z0-9]+/g, '-');
  return type || fallback;
}
