/**
 * VPN/proxy judgement (spec section 5): each signal that fires adds its weight, and a VPN
 * is detected when the sum exceeds 0.4. So a datacenter address alone (0.4) is reported
 * but not judged a VPN; with a second signal (a timezone mismatch, a WebRTC leak) it is.
 *
 * | signal                                              | weight | indicator                 |
 * |-----------------------------------------------------|--------|---------------------------|
 * | the browser's timezone differs from the address's   | 0.3    | Timezone mismatch         |
 * | datacenter organisation keyword or network type     | 0.4    | Datacenter IP detected    |
 * | a known VPN brand in the organisation name          | 0.6    | Known VPN provider        |
 * | WebRTC shows an address of another network (1)      | 0.5    | WebRTC IP leak detected   |
 *
 * (1) src/lib/webrtc-leak.ts: the visitor's own address of the other IP version, on the
 * same network, is not a leak and does not count.
 */
import type { VpnResult } from './record.ts';

export const VPN_THRESHOLD = 0.4;

/** The rows of the table above, in order. */
export const VPN_SIGNALS = [
  { key: 'timezoneMismatch', weight: 0.3, indicator: 'Timezone mismatch' },
  { key: 'datacenter', weight: 0.4, indicator: 'Datacenter IP detected' },
  { key: 'vpnBrand', weight: 0.6, indicator: 'Known VPN provider' },
  { key: 'webrtcLeak', weight: 0.5, indicator: 'WebRTC IP leak detected' },
] as const;

export type VpnSignals = Record<(typeof VPN_SIGNALS)[number]['key'], boolean>;

/** Organisation-name words that mean hosting (spec section 5), matched case-insensitively. */
export const DATACENTER_KEYWORDS = ['hosting', 'datacenter', 'server', 'cloud', 'digital ocean', 'aws', 'google cloud', 'azure'] as const;
/** VPN brands (spec section 5), matched case-insensitively in the organisation name. */
export const VPN_BRANDS = ['nordvpn', 'expressvpn', 'surfshark', 'cyberghost', 'private internet access', 'protonvpn'] as const;

function mentions(org: string, words: readonly string[]): boolean {
  const lower = org.toLowerCase();
  return words.some((word) => lower.includes(word));
}

/** Whether an organisation name contains a datacenter keyword. */
export function orgMentionsDatacenter(org: string): boolean {
  return mentions(org, DATACENTER_KEYWORDS);
}

/** Whether an organisation name contains a known VPN brand. */
export function orgMentionsVpnBrand(org: string): boolean {
  return mentions(org, VPN_BRANDS);
}

// Every combination of signals has one result; built once and shared (frozen), so
// scoring allocates nothing.
const RESULTS: readonly VpnResult[] = Array.from({ length: 1 << VPN_SIGNALS.length }, (_, mask) => {
  const fired = VPN_SIGNALS.filter((_, i) => mask & (1 << i));
  // Round away float noise: 0.3 + 0.4 is 0.7, not 0.7000000000000001.
  const confidence = Math.round(fired.reduce((sum, s) => sum + s.weight, 0) * 100) / 100;
  return Object.freeze({
    detected: confidence > VPN_THRESHOLD,
    confidence,
    indicators: Object.freeze(fired.map((s) => s.indicator)) as string[],
  });
});

/** Sums the signals that fired into the verdict. The result is shared: do not mutate it. */
export function scoreVpn(signals: VpnSignals): VpnResult {
  let mask = 0;
  for (let i = 0; i < VPN_SIGNALS.length; i++) if (signals[VPN_SIGNALS[i]!.key]) mask |= 1 << i;
  return RESULTS[mask]!;
}
