/**
 * The one plain sentence the hero says about where an address is, instead of four
 * badges that could contradict each other (a 10 km radius beside a 48 km disagreement):
 * 'Somewhere within about 50 km of London (our two databases disagree by 48 km)'. Built
 * from the record as it is (accuracy_radius, distance_consensus, the place and the tier),
 * and never claiming a radius smaller than the databases' disagreement: the circle is
 * the larger of the two, rounded up to a number people say. Pure, shared by server and
 * browser; accuracy-sentence.test.ts has a row per case.
 */
import { fillTemplate } from './fill-template.ts';
import { UNKNOWN, type IpInfo } from './record.ts';

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
