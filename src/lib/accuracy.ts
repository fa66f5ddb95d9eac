/**
 * Accuracy radius and tier of the shown location, and the risk level. The radius has a
 * stated meaning, as MaxMind's accuracy_radius does: the address's true place lies inside
 * it for at least two addresses in three. It comes from the fitted model in
 * ./accuracy-model.ts (its header says how it was fitted; `npm run bench:accuracy` checks
 * it on addresses it was not fitted to). The first matching rule wins:
 *
 * 1. a GPS fix from the browser: the browser's own accuracy (at least 1 m);
 * 2. both sources name a city: the model's radius for their consensus band;
 * 3. one source names a city: the model's radius for a city of a million people or more,
 *    or for a smaller one;
 * 4. only a country: the model's radius for a country centroid;
 * 5. nothing: anywhere on Earth (half its circumference).
 *
 * The database's place is never claimed more precise than the database itself says: a
 * source that states its own radius (an operator's MaxMind file) widens 2 to 4 to it.
 *
 * The tier follows the radius: high up to 25 km (a city and its suburbs), medium up to
 * 100 km (a region), low beyond; 'region' when only a country is known; low whenever a VPN
 * is detected, since the place is then the VPN's exit, not the visitor.
 */
import type { IpInfo } from './record.ts';
import { consensusBand } from './confidence.ts';
import { RADIUS_KM, type RadiusTable } from './accuracy-model.ts';

export type AccuracyTier = IpInfo['accuracy_tier'];
export type RiskLevel = IpInfo['risk_level'];

/** Radius when nothing at all is known of the place: half the Earth's circumference, metres. */
export const UNKNOWN_RADIUS_M = 20_015_087;

/** Largest radius (km) of each tier; beyond the last, 'low'. */
export const TIER_MAX_KM = { high: 25, medium: 100 } as const;

export interface AccuracyEvidence {
  /** Accuracy in metres of the browser's GPS fix; null or absent without one. */
  gpsAccuracyM?: number | null;
  vpnDetected: boolean;
  /** distance_consensus, km; null unless both sources name a city. */
  consensusKm: number | null;
  /** Whether the place shown names a city (not only a country). */
  cityKnown: boolean;
  /** Whether that city has a million people or more (src/server/data/big-cities.ts). */
  bigCity: boolean;
  countryKnown: boolean;
  /** The shown source's own radius in km, when it states one (NaN or absent otherwise). */
  sourceRadiusKm?: number;
}

export interface Accuracy {
  tier: AccuracyTier;
  /** Metres, whole. */
  radius: number;
}

/**
 * Which row of the model's table IP-based evidence falls in (rules 2 to 5 of the module
 * header): a consensus band's index (0: at most 5 km ... 4: beyond 200 km), or a name.
 */
export type AccuracyCell = number | 'oneBigCity' | 'oneCity' | 'country' | 'unknown';

/** The row of the model's table the evidence falls in (the bench groups its figures by it too). */
export function accuracyCell(e: Pick<AccuracyEvidence, 'consensusKm' | 'cityKnown' | 'bigCity' | 'countryKnown'>): AccuracyCell {
  if (e.consensusKm !== null && e.cityKnown) return consensusBand(e.consensusKm);
  if (e.cityKnown) return e.bigCity ? 'oneBigCity' : 'oneCity';
  return e.countryKnown ? 'country' : 'unknown';
}

/** The radius in km of a cell in `table` (the fitted model unless the fit passes its own). */
export function cellRadiusKm(cell: AccuracyCell, table: RadiusTable = RADIUS_KM): number {
  if (typeof cell === 'number') return table.consensus[cell]!;
  return cell === 'unknown' ? UNKNOWN_RADIUS_M / 1000 : table[cell];
}

/** The tier a radius (metres) earns; see the module header. */
export function tierOf(radiusM: number): AccuracyTier {
  return radiusM <= TIER_MAX_KM.high * 1000 ? 'high' : radiusM <= TIER_MAX_KM.medium * 1000 ? 'medium' : 'low';
}

/** Tier and radius per the rules in the module header. */
export function accuracyFor(e: AccuracyEvidence): Accuracy {
  if (e.gpsAccuracyM != null) {
    const radius = Math.max(1, Math.round(e.gpsAccuracyM));
    return { tier: tierOf(radius), radius };
  }
  const own = e.sourceRadiusKm !== undefined && e.sourceRadiusKm > 0 && e.countryKnown ? e.sourceRadiusKm : 0;
  const radius = Math.round(Math.max(cellRadiusKm(accuracyCell(e)), own) * 1000);
  if (e.vpnDetected) return { tier: 'low', radius };
  if (!e.cityKnown) return { tier: e.countryKnown ? 'region' : 'low', radius };
  return { tier: tierOf(radius), radius };
}

/** risk_level: high when a VPN is detected, else medium when the tier is low, else low. */
export function riskLevel(vpnDetected: boolean, tier: AccuracyTier): RiskLevel {
  return vpnDetected ? 'high' : tier === 'low' ? 'medium' : 'low';
}
