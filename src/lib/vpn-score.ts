/**
 * VPN/proxy judgement, the whole rule in one place: which signals fire (`vpnSignals`, from
 * what the lookup knows) and what they weigh (`scoreVpn`). Each signal that fires adds its
 * weight, and a VPN is detected when the sum exceeds 0.4. So a datacenter address alone
 * (0.4) is reported but not judged a VPN; with a second signal (a timezone mismatch, a
 * WebRTC leak) it is. The first four weights and the threshold decide what suffices alone:
 * a known VPN provider (0.6) or a WebRTC leak (0.5) does; a datacenter address or a timezone
 * mismatch does not, since honest visitors have either (a cloud desktop, a laptop abroad),
 * but with a second signal it does. The list rows weigh what a list says: a Tor exit is certain (1.0), a Private Relay egress
 * or a listed open proxy hides the visitor as a VPN does (0.5, 0.6). The table test in
 * vpn-score.test.ts holds every row.
 *
 * | signal                                                    | weight | indicator              |
 * |-----------------------------------------------------------|--------|------------------------|
 * | the browser's timezone differs from the address's         | 0.3    | Timezone mismatch      |
 * | privacy.hosting: a hosting network by ASN, name or list   | 0.4    | Datacenter IP detected |
 * |   (network_type 'datacenter' or a datacenter keyword)     |        |                        |
 * | privacy.vpn: a VPN brand in the name, or the VPN list     | 0.6    | Known VPN provider     |
 * | WebRTC shows an address of another network (1)            | 0.5    | WebRTC IP leak detected|
 * | privacy.tor: the Tor exit list                            | 1.0    | Tor exit               |
 * | privacy.relay: Apple's Private Relay egress ranges        | 0.5    | iCloud Private Relay   |
 * | privacy.proxy: the open-proxy list                        | 0.6    | Open proxy             |
 *
 * The privacy flags (src/lib/privacy.ts) are the evidence of the list rows, and their
 * reasons are the reasons of those rows. A brand is weighed once: its name is the VPN
 * row's evidence and is not also read as a hosting network (network-type.ts does not type
 * networks by brand), so 'NordVPN S.A.' alone scores 0.6; with a hosting ASN or a hosting
 * word as well it scores 1.0.
 *
 * (1) src/lib/webrtc-leak.ts: the visitor's own address of the other IP version, on the
 * same network, is not a leak and does not count.
 */
import type { Privacy, VpnResult } from './record.ts';
import { timezonesMatch } from './timezone.ts';

export const VPN_THRESHOLD = 0.4;

/** The rows of the table above, in order. */
export const VPN_SIGNALS = [
  { key: 'timezoneMismatch', weight: 0.3, indicator: 'Timezone mismatch' },
  { key: 'datacenter', weight: 0.4, indicator: 'Datacenter IP detected' },
  { key: 'knownVpn', weight: 0.6, indicator: 'Known VPN provider' },
  { key: 'webrtcLeak', weight: 0.5, indicator: 'WebRTC IP leak detected' },
  { key: 'torExit', weight: 1, indicator: 'Tor exit' },
  { key: 'privateRelay', weight: 0.5, indicator: 'iCloud Private Relay' },
  { key: 'openProxy', weight: 0.6, indicator: 'Open proxy' },
] as const;

export type VpnSignalKey = (typeof VPN_SIGNALS)[number]['key'];
export type VpnSignals = Record<VpnSignalKey, boolean>;
/** The verdict without its reasons: what the weights alone decide. */
export type VpnScore = Omit<VpnResult, 'reasons'>;

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

// Every combination of signals has one score; built once and shared (frozen), so
// scoring allocates nothing.
const SCORES: readonly VpnScore[] = Array.from({ length: 1 << VPN_SIGNALS.length }, (_, mask) => {
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
export function scoreVpn(signals: VpnSignals): VpnScore {
  let mask = 0;
  for (let i = 0; i < VPN_SIGNALS.length; i++) if (signals[VPN_SIGNALS[i]!.key]) mask |= 1 << i;
  return SCORES[mask]!;
}

/** What a lookup knows that bears on the judgement. */
export interface VpnEvidence {
  /** The address's privacy flags and their reasons (src/lib/privacy.ts). */
  privacy: Privacy;
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
  const { privacy } = e;
  return {
    timezoneMismatch: !!e.browserTimezone && zoneKnown && timezonesMatch(e.addressTimezone, e.browserTimezone) === false,
    datacenter: privacy.hosting === true,
    knownVpn: privacy.vpn === true,
    webrtcLeak: e.webrtcLeak,
    torExit: privacy.tor === true,
    privateRelay: privacy.relay === true,
    openProxy: privacy.proxy === true,
  };
}

/** Each row's reason: what was compared, or which list or name matched. */
function reasonOf(key: VpnSignalKey, e: VpnEvidence): string {
  switch (key) {
    case 'timezoneMismatch': return `Your browser says ${e.browserTimezone}, this address is in ${e.addressTimezone}.`;
    case 'datacenter': return e.privacy.reasons.hosting;
    case 'knownVpn': return e.privacy.reasons.vpn;
    case 'webrtcLeak': return 'WebRTC in your browser showed a public address of another network than this one.';
    case 'torExit': return e.privacy.reasons.tor;
    case 'privateRelay': return e.privacy.reasons.relay;
    case 'openProxy': return e.privacy.reasons.proxy;
  }
}

const CLEAN: VpnResult = Object.freeze({ ...scoreVpn(Object.fromEntries(VPN_SIGNALS.map((s) => [s.key, false])) as VpnSignals), reasons: Object.freeze([]) as unknown as string[] });

/** The verdict for the evidence, with a reason per indicator (the clean verdict is shared: do not mutate it). */
export function judgeVpn(e: VpnEvidence): VpnResult {
  const signals = vpnSignals(e);
  const score = scoreVpn(signals);
  if (score.indicators.length === 0) return CLEAN;
  return { ...score, reasons: VPN_SIGNALS.filter((s) => signals[s.key]).map((s) => reasonOf(s.key, e)) };
}
