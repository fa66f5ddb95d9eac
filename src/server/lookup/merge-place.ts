/**
 * Merges the two city sources' answers into the one place shown. The more specific answer
 * wins (a city over a bare country); when both name a city, the source the accuracy model
 * prefers for their consensus band (src/lib/accuracy-model.ts: measured on ground truth by
 * `npm run bench:accuracy -- --fit`, not a fixed primary); the other source only
 * fills blanks when it agrees: region and timezone when it names a city in the same
 * country within 50 km, the postal code only for a city of the same name. A timezone
 * still missing is taken from the country when it has exactly one zone, else from the
 * city's coordinates (tz-lookup's offline zone map; only for a city, since a bare
 * country's centroid can sit in another zone than the visitor).
 * DB-IP Lite carries no postal codes or timezones, so those come from the second source.
 */
import tzLookup from '@photostructure/tz-lookup';
import { PREFERRED_SOURCE, type PreferredSource } from '../../lib/accuracy-model.ts';
import { CONSENSUS_BANDS_KM, consensusBand } from '../../lib/confidence.ts';
import { UNKNOWN } from '../../lib/record.ts';
import type { Place } from '../data/city-source.ts';

const AGREEMENT_KM = CONSENSUS_BANDS_KM[2];

/**
 * The place to show. Both name a city: the one `preferred` names for their consensus band
 * (`consensusKm`, null when a city lacks coordinates: then the primary). Otherwise the one
 * that names a city, unless it contradicts the other's country; otherwise a country.
 */
export function choosePlace(primary: Place | null, second: Place | null, consensusKm: number | null = null,
  preferred: readonly PreferredSource[] = PREFERRED_SOURCE): Place | null {
  if (primary?.city && second?.city && consensusKm !== null) return preferred[consensusBand(consensusKm)] === 'second' ? second : primary;
  if (primary?.city) return primary;
  if (second?.city && (!primary?.countryCode || primary.countryCode === second.countryCode)) return second;
  if (primary?.countryCode) return primary;
  return second?.countryCode ? second : primary ?? second;
}

/**
 * Fills `chosen`'s blank region, postal code and timezone from `other` where it agrees
 * (see the module header). Mutates `chosen`, which is the engine's own scratch object.
 */
export function fillBlanks(chosen: Place, other: Place | null, consensusKm: number | null): void {
  const agrees = other !== null && other !== chosen && other.countryCode === chosen.countryCode
    && consensusKm !== null && consensusKm <= AGREEMENT_KM;
  if (agrees) {
    if (chosen.region === '') chosen.region = other.region;
    if (chosen.timezone === '') chosen.timezone = other.timezone;
    if (chosen.postal === '' && sameName(other.city, chosen.city)) chosen.postal = other.postal;
    // A code belongs to its name: taken only where both sources name the same region or city.
    if (chosen.regionCode === '' && sameName(other.region, chosen.region)) chosen.regionCode = other.regionCode;
    if (chosen.metroCode === 0 && sameName(other.city, chosen.city)) chosen.metroCode = other.metroCode;
  }
  if (chosen.timezone === '' && chosen.countryCode) chosen.timezone = onlyZoneOf(chosen.countryCode);
  if (chosen.timezone === '' && chosen.city && Number.isFinite(chosen.latitude) && Number.isFinite(chosen.longitude)) {
    try {
      chosen.timezone = tzLookup(chosen.latitude, chosen.longitude);
    } catch { /* coordinates out of range: leave it blank */ }
  }
}

function sameName(a: string, b: string): boolean {
  return a === b || a.toLowerCase() === b.toLowerCase();
}

const zoneOfCountry = new Map<string, string>();

/** The IANA zone of a country that has exactly one ('FR' → 'Europe/Paris'), else ''. */
export function onlyZoneOf(countryCode: string): string {
  let zone = zoneOfCountry.get(countryCode);
  if (zone === undefined) {
    let zones: readonly string[] = [];
    try {
      // Intl.Locale#getTimeZones (ES2024 Intl Locale Info), in Node 22+ and current browsers.
      const locale = new Intl.Locale(`und-${countryCode}`) as Intl.Locale & { getTimeZones?: () => string[] };
      zones = locale.getTimeZones?.() ?? [];
    } catch { /* not a region code */ }
    zone = zones.length === 1 ? zones[0]! : '';
    zoneOfCountry.set(countryCode, zone);
  }
  return zone;
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
const countryNames = new Map<string, string>();

/** English name of an ISO 3166-1 alpha-2 code ('US' → 'United States'), or 'Unknown'. */
export function countryName(code: string): string {
  let name = countryNames.get(code);
  if (name === undefined) {
    try {
      // CLDR names the user-assigned code ZZ 'Unknown Region'; the record says 'Unknown'.
      name = (code && code !== 'ZZ' && regionNames.of(code)) || UNKNOWN;
    } catch {
      name = UNKNOWN;
    }
    countryNames.set(code, name);
  }
  return name;
}
