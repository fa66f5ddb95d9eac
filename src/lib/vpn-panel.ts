/**
 * VPN recommendation panel rules (each row tested in vpn-panel.test.ts): what the panel
 * says was detected, whether a VPN is sound advice then, how urgent the panel is for an
 * address where nothing was detected, which offer category it shows, and which offer is
 * labelled RECOMMENDED. Texts live in content; this module only picks the keys.
 */
import type { IpInfo } from './record.ts';

export type Urgency = 'low' | 'medium' | 'high';
/** Which headline the panel shows when nothing was detected; content maps each key to its text. */
export type HeadlineKey = 'highRisk' | 'moderateRisk' | 'protect';
export type OfferCategory = 'security' | 'streaming' | 'privacy';

/**
 * What the panel says the visitor is behind, the most specific evidence first: a list
 * that names the service (Tor, Private Relay, a VPN, an open proxy), then a hosting
 * network, then a verdict from other signs alone ('suspected'); 'none' when nothing was
 * detected.
 */
export type PanelKind = 'tor' | 'relay' | 'vpn' | 'proxy' | 'hosting' | 'suspected' | 'none';

/**
 * Where a VPN is sound advice, and so where the panel shows offers: for an ordinary
 * address, a Private Relay user (it covers Safari only, not the other apps) and an open
 * proxy (it encrypts nothing). Not for Tor, which already hides the address better for
 * browsing, nor for someone already on a VPN or on a hosting network, nor on signs alone.
 */
export const OFFERS_SHOWN: Readonly<Record<PanelKind, boolean>> = {
  tor: false, relay: true, vpn: false, proxy: true, hosting: false, suspected: false, none: true,
};

type KindInput = Pick<IpInfo, 'vpn_detected' | 'privacy'>;
type PanelInput = Pick<IpInfo, 'vpn_detected' | 'risk_level' | 'country_code'>;

/** First match wins: Tor, Private Relay, VPN, open proxy, hosting, then the verdict alone. */
export function panelKind({ privacy, vpn_detected }: KindInput): PanelKind {
  if (privacy.tor) return 'tor';
  if (privacy.relay) return 'relay';
  if (privacy.vpn) return 'vpn';
  if (privacy.proxy) return 'proxy';
  if (privacy.hosting) return 'hosting';
  return vpn_detected ? 'suspected' : 'none';
}

/** For an address where nothing was detected, first match wins: high risk, then medium risk, then the default. */
export function panelUrgency(record: Pick<PanelInput, 'risk_level'>): { urgency: Urgency; headline: HeadlineKey } {
  if (record.risk_level === 'high') return { urgency: 'high', headline: 'highRisk' };
  if (record.risk_level === 'medium') return { urgency: 'medium', headline: 'moderateRisk' };
  return { urgency: 'low', headline: 'protect' };
}

const SECURITY_COUNTRIES = new Set(['CN', 'RU', 'IR', 'KP', 'SA', 'AE', 'SG']);
// Where streaming services are blocked or cut down. CN, IR, KP and RU are security countries
// first (checked before), so only TR and EG reach this list (vpn-panel.test.ts holds the order).
const STREAMING_COUNTRIES = new Set(['CN', 'IR', 'KP', 'RU', 'TR', 'EG']);

/** VPN detected gives privacy; else censoring countries security; else TR, EG streaming; else privacy. */
export function offerCategory(record: PanelInput): OfferCategory {
  if (record.vpn_detected) return 'privacy';
  const country = record.country_code.toUpperCase();
  if (SECURITY_COUNTRIES.has(country)) return 'security';
  if (STREAMING_COUNTRIES.has(country)) return 'streaming';
  return 'privacy';
}

/** The offers of one category in editorial order, the first flagged as recommended. */
export function offersFor<T extends { category: OfferCategory; order: number }>(
  offers: readonly T[],
  category: OfferCategory,
): Array<T & { recommended: boolean }> {
  return offers
    .filter((o) => o.category === category)
    .sort((a, b) => a.order - b.order)
    .map((o, i) => ({ ...o, recommended: i === 0 }));
}
