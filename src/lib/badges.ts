/**
 * Badge rules of the lookup screens (each row tested in badges.test.ts): which tone a
 * value earns. Pure, shared by every island that shows a badge; tones map to CSS classes
 * whose colours pass contrast (src/islands/lookup.css, checked by axe in tests/e2e).
 */
import { UNKNOWN_RADIUS_M } from './accuracy.ts';
import { CONSENSUS_BANDS_KM } from './confidence.ts';
import type { IpInfo } from './record.ts';

/** Colour family of a badge. */
export type Tone = 'green' | 'amber' | 'yellow' | 'orange' | 'red' | 'blue' | 'neutral';

const [, NEAR_KM, MODERATE_KM] = CONSENSUS_BANDS_KM;

/** Consensus (km between the two city sources): at most 20 green, at most 50 amber, above red (CONSENSUS_BANDS_KM). */
export function consensusTone(km: number): Tone {
  if (km <= NEAR_KM) return 'green';
  if (km <= MODERATE_KM) return 'amber';
  return 'red';
}

/** Measured round trip: under 50 ms green, over 200 ms red, otherwise yellow. */
export function rttTone(ms: number): Tone {
  if (ms < 50) return 'green';
  if (ms > 200) return 'red';
  return 'yellow';
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

/**
 * Accuracy radius as text: rounded km ('1,234 km'); under one km in metres, because "0 km"
 * would claim more precision than a 100 m GPS fix, not less. A missing or unusable radius
 * claims nothing: it reads as anywhere on Earth (UNKNOWN_RADIUS_M).
 */
export function formatAccuracyRadius(metres: number | null | undefined): string {
  const m = metres !== null && metres !== undefined && Number.isFinite(metres) && metres > 0 ? metres : UNKNOWN_RADIUS_M;
  // Compared once rounded: 999.7 m reads '1 km', not '1000 m'.
  return Math.round(m) < 1000 ? `${Math.round(m)} m` : `${Math.round(m / 1000).toLocaleString('en-US')} km`;
}
