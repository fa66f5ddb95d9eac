/**
 * How far apart the two city databases put an address (distance_consensus), and how far
 * to trust the place shown because of it (confidence_score): two sources that agree are
 * the strongest evidence the IP can give. Pure: shared by the server and the islands.
 *
 * confidence_score comes from the strongest evidence present:
 *
 * | evidence                                         | score |
 * |--------------------------------------------------|-------|
 * | GPS fix from the browser, within 50 m            | 0.99  |
 * | GPS fix within 500 m                             | 0.97  |
 * | GPS fix, coarser                                 | 0.95  |
 * | both sources name a city, at most 5 km apart     | 0.9   |
 * | ... at most 20 km apart                          | 0.8   |
 * | ... at most 50 km apart                          | 0.7   |
 * | only one source names a city                     | 0.6   |
 * | both name a city more than 50 km apart, or the   | 0.5   |
 * |   sources name different countries               |       |
 * | only a country or region is known                | 0.4   |
 * | nothing is known                                 | 0.3   |
 *
 * Monotone: the score never rises as the evidence weakens. A GPS fix (and a tighter fix)
 * beats any IP database; two independent sources that agree beat one, and closer
 * agreement beats looser; two sources that disagree by more than 50 km (or on the country)
 * rank below one uncorroborated source, because the disagreement shows that at least one
 * of them is wrong; a bare country is below any city; nothing at all is the spec's
 * fallback 0.3.
 */

const EARTH_RADIUS_KM = 6371.0088;

/** Great-circle distance in km between two points (haversine). */
export function haversineKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** A source's answer, as far as consensus cares. Empty city = no city named. */
export interface SourcePoint {
  city: string;
  latitude: number;
  longitude: number;
}

/**
 * distance_consensus: km between the two sources, rounded to 0.1 km (the thresholds below
 * use the rounded value, so what is shown and how it is judged agree), when both name a
 * city with coordinates; null otherwise.
 */
export function distanceConsensus(a: SourcePoint | null, b: SourcePoint | null): number | null {
  if (!a || !b || a.city === '' || b.city === '') return null;
  if (!Number.isFinite(a.latitude + a.longitude + b.latitude + b.longitude)) return null;
  return Math.round(haversineKm(a.latitude, a.longitude, b.latitude, b.longitude) * 10) / 10;
}

/** What is known about an address's place; see the table in the module header. */
export interface ConfidenceEvidence {
  /** Accuracy in metres of a GPS fix the browser sent; null or absent without one. */
  gpsAccuracyM?: number | null;
  /** distance_consensus: set when both sources name a city. */
  consensusKm: number | null;
  /** Whether at least one source names a city. */
  cityKnown: boolean;
  /** Whether a country (or region) is known at all. */
  countryKnown: boolean;
  /** Whether the two sources name different countries. */
  countriesDisagree: boolean;
}

/**
 * Upper edges (km, inclusive) of the distance_consensus bands: the confidence table above
 * uses the first three (5, 20, 50 km), the consensus badge (src/lib/badges.ts) the second
 * and third, and the accuracy radius model (src/lib/accuracy-model.ts) has one fitted
 * radius per band, the last band being everything beyond 200 km.
 */
export const CONSENSUS_BANDS_KM = [5, 20, 50, 200] as const;

/** Index of the consensus band `km` falls in: 0 for at most 5 km ... 4 beyond 200 km. */
export function consensusBand(km: number): number {
  let band = 0;
  while (band < CONSENSUS_BANDS_KM.length && km > CONSENSUS_BANDS_KM[band]!) band++;
  return band;
}

/** confidence_score, 0 to 1, per the table in the module header. */
export function confidenceScore(e: ConfidenceEvidence): number {
  if (e.gpsAccuracyM != null) return e.gpsAccuracyM <= 50 ? 0.99 : e.gpsAccuracyM <= 500 ? 0.97 : 0.95;
  if (e.consensusKm !== null) {
    const [close, near, moderate] = CONSENSUS_BANDS_KM;
    return e.consensusKm <= close ? 0.9 : e.consensusKm <= near ? 0.8 : e.consensusKm <= moderate ? 0.7 : 0.5;
  }
  if (e.countriesDisagree) return 0.5;
  if (e.cityKnown) return 0.6;
  return e.countryKnown ? 0.4 : 0.3;
}
