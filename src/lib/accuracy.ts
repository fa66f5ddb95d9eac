/**
 * Accuracy tier and radius of the shown location, and the risk level (spec sections 4, 5
 * and 9). The first matching rule wins:
 *
 * 1. a GPS fix from the browser: high, 100 m;
 * 2. VPN detected (the place is the exit's, not the visitor's): low, 10 000 m;
 * 3. both sources name a city (distance_consensus d km): d ≤ 5 high, max(1000, 200d) m;
 *    d ≤ 20 medium, max(2000, 200d); d ≤ 50 medium, max(5000, 200d); else low,
 *    max(10000, 200d);
 * 4. one source names a city: medium (the spec's default tier), radius from the decimal
 *    places of the coordinates: 4 or more on both 1000 m, 3 or more 2000 m, else 5000 m;
 * 5. only a country or region: 'region', 100 km (a centroid; the circle says "somewhere
 *    around here", not a town);
 * 6. nothing: low, 5000 m (the spec's default radius).
 */
import type { IpInfo } from './record.ts';
import { CONSENSUS_BANDS_KM } from './confidence.ts';

export type AccuracyTier = IpInfo['accuracy_tier'];
export type RiskLevel = IpInfo['risk_level'];

export const GPS_RADIUS_M = 100;
export const VPN_RADIUS_M = 10_000;
export const REGION_RADIUS_M = 100_000;
export const DEFAULT_RADIUS_M = 5000;
const CONSENSUS_MULTIPLIER = 200;

export interface AccuracyEvidence {
  gps: boolean;
  vpnDetected: boolean;
  /** distance_consensus, km; null unless both sources name a city. */
  consensusKm: number | null;
  cityKnown: boolean;
  countryKnown: boolean;
  /** The shown coordinates, for the decimal-places rule. */
  latitude: number;
  longitude: number;
}

export interface Accuracy {
  tier: AccuracyTier;
  /** Metres. */
  radius: number;
}

/** Decimal places a coordinate was written with (37.422 → 3); at most 10. */
export function decimalPlaces(value: number): number {
  if (!Number.isFinite(value)) return 0;
  let scale = 1;
  for (let places = 0; places < 10; places++, scale *= 10) {
    if (Math.round(value * scale) / scale === value) return places;
  }
  return 10;
}

/** Tier and radius per the rules in the module header. */
export function accuracyFor(e: AccuracyEvidence): Accuracy {
  if (e.gps) return { tier: 'high', radius: GPS_RADIUS_M };
  if (e.vpnDetected) return { tier: 'low', radius: VPN_RADIUS_M };
  if (e.consensusKm !== null) {
    const d = e.consensusKm;
    const scaled = Math.round(CONSENSUS_MULTIPLIER * d);
    const [close, near, moderate] = CONSENSUS_BANDS_KM;
    if (d <= close) return { tier: 'high', radius: Math.max(1000, scaled) };
    if (d <= near) return { tier: 'medium', radius: Math.max(2000, scaled) };
    if (d <= moderate) return { tier: 'medium', radius: Math.max(5000, scaled) };
    return { tier: 'low', radius: Math.max(10_000, scaled) };
  }
  if (e.cityKnown) {
    const places = Math.min(decimalPlaces(e.latitude), decimalPlaces(e.longitude));
    return { tier: 'medium', radius: places >= 4 ? 1000 : places >= 3 ? 2000 : DEFAULT_RADIUS_M };
  }
  if (e.countryKnown) return { tier: 'region', radius: REGION_RADIUS_M };
  return { tier: 'low', radius: DEFAULT_RADIUS_M };
}

/** risk_level: high when a VPN is detected, else medium when the tier is low, else low. */
export function riskLevel(vpnDetected: boolean, tier: AccuracyTier): RiskLevel {
  return vpnDetected ? 'high' : tier === 'low' ? 'medium' : 'low';
}
