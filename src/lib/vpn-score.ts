/**
 * VPN/proxy judgement, the whole rule in one place: which signals fire (`vpnSignals`, from
 * what the lookup knows) and what they weigh (`scoreVpn`). Each signal that fires adds its
 * weight, and a VPN is detected when the sum exceeds 0.4. So a datacenter address alone
 * (0.4) is reported but not judged a VPN; with a second signal (a timezone mismatch, a
 * WebRTC leak) it is. The weights and the threshold are the product sketch's; the table
 * test in vpn-score.test.ts holds every row.
 *
 * | signal                                                   | weight | indicator              |
 * |----------------------------------------------------------|--------|------------------------|
 * | the browser's timezone differs from the address's        | 0.3    | Timezone mismatch      |
 * | a hosting network: network_type 'datacenter' (curated    | 0.4    | Datacenter IP detected |
 * |   ASN lists or hosting words) or a datacenter keyword    |        |                        |
 * | a known VPN brand in the organisation name               | 0.6    | Known VPN provider     |
 * | WebRTC shows an address of another network (1)           | 0.5    | WebRTC IP leak detected|
 *
 * A brand is weighed once: its name is the brand row's evidence and is not also read as a
 * hosting network (network-type.ts does not type networks by brand), so 'NordVPN S.A.'
 * alone scores 0.6; with a hosting ASN or a hosting word as well it scores 1.0.
 *
 * (1) src/lib/webrtc-leak.ts: the visitor's own address of the other IP version, on the
 * same network, is not a leak and does not count.
 */
import type { IpInfo, VpnResult } from './record.ts';
import { timezonesMatch } from './timezone.ts';

export const VPN_THRESHOLD = 0.4;

/** The rows of the table above, in order. */
export const VPN_SIGNALS = [
  { key: 'timezoneMismatch', weight: 0.3, indicator: 'Timezone mismatch' },
  { key: 'datacenter', weight: 0.4, indicator: 'Datacenter IP detected' },
  { key: 'vpnBrand', weight: 0.6, indicator: 'Known VPN provider' },
  { key: 'webrtcLeak', weight: 0.5, indicator: 'WebRTC IP leak detected' },
] as const;

export type VpnSignals = Record<(typeof VPN_SIGNALS)[number]['key'], boolean>;

/** Organisation-name words that mean hosting, matched case-insensitively. */
export const DATACENTER_KEYWORDS = ['hosting', 'datacenter', 'server', 'cloud', 'digital ocean', 'aws', 'google cloud', 'azure'] as const;
/** VPN brands, matched case-insensitively in the organisation name. */
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

/** What a lookup knows that bears on the judgement. */
export interface VpnEvidence {
  /** The address's network_type (never typed from a VPN brand: see the module header). */
  networkType: IpInfo['network_type'];
  /** The organisation name holds one of DATACENTER_KEYWORDS. */
  datacenterWord: boolean;
  /** The organisation name holds one of VPN_BRANDS. */
  vpnBrand: boolean;
  /** The address's IANA timezone; '' or 'Unknown' when the address has none. */
  addressTimezone: string;
  /** The browser's IANA timezone, when it sent one. */
  browserTimezone: string | undefined;
  /** WebRTC showed a public address of another network than the one the page came through. */
  webrtcLeak: boolean;
}

/** Which signals of the table fire for this evidence. */
export function vpnSignals(e: VpnEvidence): VpnSignals {
  const zoneKnown = e.addressTimezone !== '' && e.addressTimezone !== 'Unknown';
  return {
    timezoneMismatch: !!e.browserTimezone && zoneKnown && timezonesMatch(e.addressTimezone, e.browserTimezone) === false,
    datacenter: e.networkType === 'datacenter' || e.datacenterWord,
    vpnBrand: e.vpnBrand,
    webrtcLeak: e.webrtcLeak,
  };
}

/** The verdict for the evidence (shared and frozen: do not mutate it). */
export const judgeVpn = (e: VpnEvidence): VpnResult => scoreVpn(vpnSignals(e));
