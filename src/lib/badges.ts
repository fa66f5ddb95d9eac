/**
 * Badge rules of the lookup screens (spec section 2, "Badges"): which tone a value
 * earns. Pure, shared by every island that shows a badge; tones map to CSS classes
 * whose colours pass contrast (src/islands/badge.css).
 */
import type { IpInfo } from './record.ts';

/** Colour family of a badge. */
export type Tone = 'green' | 'amber' | 'yellow' | 'orange' | 'red' | 'blue' | 'neutral';

/** Consensus (km between the two city sources): at most 20 green, at most 50 amber, above red. */
export function consensusTone(km: number): Tone {
  if (km <= 20) return 'green';
  if (km <= 50) return 'amber';
  return 'red';
}

/** Measured round trip: under 50 ms green, over 200 ms red, otherwise yellow. */
export function rttTone(ms: number): Tone {
  if (ms < 50) return 'green';
  if (ms > 200) return 'red';
  return 'yellow';
}

/** Confidence 0..1: shown as a whole percentage; above 0.8 green, above 0.6 yellow, otherwise orange. */
export function confidenceBadge(score: number): { percent: number; tone: Tone } {
  const tone: Tone = score > 0.8 ? 'green' : score > 0.6 ? 'yellow' : 'orange';
  return { percent: Math.round(score * 100), tone };
}

const TIER_TONES: Record<string, Tone> = { high: 'green', medium: 'amber', low: 'red', region: 'blue' };

/** Accuracy tier style: high, medium, low and region have their own; anything else the default. */
export function accuracyTierTone(tier: string): Tone {
  return TIER_TONES[tier] ?? 'neutral';
}

/** network_type as displayed: mobile, business or datacenter, every other value 'other'. */
export function networkTypeLabel(type: IpInfo['network_type']): 'mobile' | 'business' | 'datacenter' | 'other' {
  return type === 'mobile' || type === 'business' || type === 'datacenter' ? type : 'other';
}

/** The verdict badge's words: the most specific list that matched (Tor, Private Relay), else detected or not. */
export type VerdictKey = 'torExit' | 'privateRelay' | 'vpnDetected' | 'noVpn';

/** Which verdict the VPN badge shows for a record (its tone is red unless 'noVpn'). */
export function verdictKey(r: Pick<IpInfo, 'vpn_detected' | 'privacy'>): VerdictKey {
  if (r.privacy.tor) return 'torExit';
  if (r.privacy.relay) return 'privateRelay';
  return r.vpn_detected ? 'vpnDetected' : 'noVpn';
}

/** Default accuracy radius in metres when the record has none (spec section 3). */
export const DEFAULT_ACCURACY_RADIUS_M = 5000;

/**
 * Accuracy radius as text: rounded km; under one km in metres, because "0 km" would
 * claim more precision than a 100 m GPS fix, not less.
 */
export function formatAccuracyRadius(metres: number | null | undefined): string {
  const m = metres !== null && metres !== undefined && Number.isFinite(metres) && metres > 0 ? metres : DEFAULT_ACCURACY_RADIUS_M;
  return m < 1000 ? `${Math.round(m)} m` : `${Math.round(m / 1000)} km`;
}
