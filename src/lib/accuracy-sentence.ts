/**
 * The one plain sentence the hero says about where an address is, instead of four
 * badges that could contradict each other (a 10 km radius beside a 48 km disagreement):
 * 'Somewhere within about 50 km of London (our two databases disagree by 48 km)'. Built
 * from the record as it is (accuracy_radius, distance_consensus, the place and the tier),
 * and never claiming a radius smaller than the databases' disagreement: the circle is
 * the larger of the two, rounded up to a number people say. After the visitor corrected
 * their place the sentence is theirs: 'In Munich, the city you chose (it reaches about
 * 15 km from its centre)', sized by the city's population, never by the databases that
 * placed them elsewhere. Pure, shared by server and browser; accuracy-sentence.test.ts has
 * a row per case.
 */
import { fillTemplate } from './fill-template.ts';
import { UNKNOWN, type IpInfo } from './record.ts';
import type { PlaceCorrection } from './verification.ts';

/** The sentence's templates (content/site/lookup-text.json, `badges.sentence`). */
export interface AccuracyTemplates {
  /** '{radius}' and '{place}'. */
  near: string;
  /** Adds '{km}', the disagreement between the two databases. */
  nearDisagree: string;
  /** The two databases name places under 1 km apart. */
  nearAgree: string;
  /** A GPS fix: '{radius}'. */
  gps: string;
  /** Only a country or region is known: '{place}'. */
  region: string;
  /** A VPN or relay was detected: the place is its exit's, '{radius}' and '{place}'. */
  exit: string;
  /** Nothing is known. */
  unknown: string;
}

/** The sentence's templates once the visitor chose their city (`badges.sentence` too). */
export interface CorrectedTemplates {
  /** A city of known size: '{place}' and '{radius}', how far it reaches from its centre. */
  corrected: string;
  /** A city of unknown size: '{place}'. */
  correctedPlain: string;
  /** A name the city search could not check: '{place}'. */
  correctedUnverified: string;
}

export type SentenceRecord = Pick<IpInfo, 'accuracy_radius' | 'distance_consensus' | 'city' | 'region' | 'country_name'
  | 'accuracy_tier' | 'location_source' | 'vpn_detected' | 'reserved'>;

const known = (text: string) => !!text && text !== UNKNOWN;

/**
 * A radius in metres as people say it, rounded up so it never shrinks: under 1 km to the
 * next 100 m; to 10 km the next km; to 100 km the next 5 km; beyond, the next 50 km.
 */
export function sayRadius(metres: number): string {
  const m = Math.max(metres, 1);
  const hundreds = Math.ceil(m / 100) * 100;
  if (hundreds < 1000) return `${hundreds} m`;
  const km = m / 1000;
  if (km <= 10) return `${Math.ceil(km)} km`;
  if (km <= 100) return `${Math.ceil(km / 5) * 5} km`;
  return `${Math.ceil(km / 50) * 50} km`;
}

/**
 * The radius the sentence says, metres: the record's, or the disagreement when that is
 * larger. A GPS fix's radius is the device's own: where the databases put the address
 * says nothing about it.
 */
export function sentenceRadius(r: Pick<SentenceRecord, 'accuracy_radius' | 'distance_consensus' | 'location_source'>): number {
  const disagreement = r.distance_consensus === null || r.location_source === 'hybrid' ? 0 : r.distance_consensus * 1000;
  return Math.max(r.accuracy_radius, disagreement);
}

/** The sentence for a record; empty for a special-purpose address (the hero says what it is instead). */
export function accuracySentence(r: SentenceRecord, t: AccuracyTemplates): string {
  if (r.reserved) return '';
  const radius = sayRadius(sentenceRadius(r));
  if (r.location_source === 'hybrid') return fillTemplate(t.gps, { radius });
  const place = known(r.city) ? r.city : known(r.region) ? r.region : known(r.country_name) ? r.country_name : '';
  if (!place) return t.unknown;
  if (r.vpn_detected) return fillTemplate(t.exit, { radius, place });
  if (r.accuracy_tier === 'region' || !known(r.city)) return fillTemplate(t.region, { place });
  const d = r.distance_consensus;
  if (d === null) return fillTemplate(t.near, { radius, place });
  if (d < 1) return fillTemplate(t.nearAgree, { radius, place });
  return fillTemplate(t.nearDisagree, { radius, place, km: Math.round(d) });
}

/** People per km² of a city's built-up area, roughly: European and North American cities run from about 1,500 to 5,000. */
export const CITY_DENSITY_PER_KM2 = 3000;
/** The smallest reach said of a city: a village's houses still spread about a kilometre from where its name is pinned. */
export const CITY_RADIUS_MIN_M = 1000;
/** The largest: past 50 km a 'city' in the place data is a whole metropolitan region. */
export const CITY_RADIUS_MAX_M = 50_000;

/**
 * How far a city of `population` reaches from its centre, in metres: the radius of a disc
 * that holds its people at CITY_DENSITY_PER_KM2 (Munich's 1.26 million: 11.6 km), kept
 * between 1 and 50 km; null when the population is unknown.
 */
export function cityRadius(population: number | null | undefined): number | null {
  // One test for every count that is none: null, undefined, 0, negative, NaN.
  const people = Number(population);
  if (!(people > 0)) return null;
  const metres = Math.sqrt(people / (Math.PI * CITY_DENSITY_PER_KM2)) * 1000;
  return Math.min(CITY_RADIUS_MAX_M, Math.max(CITY_RADIUS_MIN_M, metres));
}

/** The sentence once the visitor chose their city: the place is theirs, and the reach is the city's own. */
export function correctedSentence(c: Pick<PlaceCorrection, 'city' | 'verified' | 'population'>, t: CorrectedTemplates): string {
  if (!c.verified) return fillTemplate(t.correctedUnverified, { place: c.city });
  const radius = cityRadius(c.population);
  return radius === null ? fillTemplate(t.correctedPlain, { place: c.city }) : fillTemplate(t.corrected, { place: c.city, radius: sayRadius(radius) });
}
