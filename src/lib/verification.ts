/**
 * Rules of the location verification card, pure and shared by its store and islands:
 * the header badge, and how a visitor's correction changes the record every island
 * shows (src/lib/verification.test.ts).
 */
import * as z from 'zod/mini';
import type { Tone } from './badges.ts';
import { UNKNOWN_REGION, type CityCandidate } from './city-search.ts';
import { placeLine } from './place-line.ts';
import type { IpInfo, LookupResponse } from './record.ts';

export type VerificationBadge = 'highAccuracy' | 'goodAccuracy' | 'vpnDetected' | 'approximate';

/** Header badge, first match wins: GPS (hybrid), confidence above 0.8, a VPN, otherwise approximate. */
export function verificationBadge(r: Pick<IpInfo, 'location_source' | 'confidence_score' | 'vpn_detected'>): { badge: VerificationBadge; tone: Tone } {
  if (r.location_source === 'hybrid') return { badge: 'highAccuracy', tone: 'green' };
  if (r.confidence_score > 0.8) return { badge: 'goodAccuracy', tone: 'green' };
  if (r.vpn_detected) return { badge: 'vpnDetected', tone: 'red' };
  return { badge: 'approximate', tone: 'amber' };
}

/** The place a visitor chose for one IP address; `verified` when the city search found it. Validated when read back from storage. */
export const PlaceCorrectionSchema = z.object({
  ip: z.string(),
  city: z.string(),
  region: z.string(),
  country: z.string(),
  country_code: z.string(),
  latitude: z.number().check(z.gte(-90), z.lte(90)),
  longitude: z.number().check(z.gte(-180), z.lte(180)),
  verified: z.boolean(),
  /** The city's GeoNames population, which sizes it (accuracy-sentence.ts, cityRadius); absent in corrections stored before it was kept. */
  population: z.optional(z.nullable(z.number())),
});
export type PlaceCorrection = z.infer<typeof PlaceCorrectionSchema>;

/** A correction for `ip` from a chosen candidate. */
export function correctionFrom(ip: string, c: CityCandidate, verified: boolean): PlaceCorrection {
  return { ip, city: c.city, region: c.region, country: c.country, country_code: c.country_code, latitude: c.latitude, longitude: c.longitude, verified, population: c.population };
}

const UNKNOWN = 'Unknown';

/**
 * The record as the page shows it after a correction of the same address: a verified
 * city replaces the place (city, region, country, coordinates); an unverified one, which
 * has no coordinates, replaces the city name only. The postal code belonged to the old
 * place and goes. Network, accuracy and VPN fields are the IP's and stay. Any other
 * address's record is returned as it is.
 */
export function applyCorrection(response: LookupResponse, correction: PlaceCorrection | null): LookupResponse {
  if (!correction || correction.ip !== response.data.ip) return response;
  const region = correction.region === UNKNOWN_REGION ? UNKNOWN : correction.region;
  const place: Partial<IpInfo> = correction.verified
    ? {
      city: correction.city, region, country: correction.country_code, country_name: correction.country,
      country_code: correction.country_code, latitude: correction.latitude, longitude: correction.longitude, postal: UNKNOWN,
    }
    : { city: correction.city, region: UNKNOWN, postal: UNKNOWN };
  return { ...response, data: { ...response.data, ...place } };
}

/** A candidate as one line, 'Munich, Bavaria, Germany', leaving out what is unknown. */
export function candidateLine(c: Pick<CityCandidate, 'city' | 'region' | 'country'>): string {
  return placeLine({ city: c.city, region: c.region === UNKNOWN_REGION ? UNKNOWN : c.region, country_name: c.country });
}
