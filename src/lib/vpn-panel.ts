/**
 * VPN recommendation panel rules (each row tested in vpn-panel.test.ts): how
 * urgent the panel is (a style, never words shown), which headline it uses, which offer
 * category it shows, which offer is labelled RECOMMENDED and where its button goes. Headline texts live in content; this module
 * only picks the key.
 */
import type { IpInfo } from './record.ts';

export type Urgency = 'low' | 'medium' | 'high';
/** Which headline the panel shows; content maps each key to its text. */
export type HeadlineKey = 'vpnDetected' | 'highRisk' | 'moderateRisk' | 'protect';
export type OfferCategory = 'security' | 'streaming' | 'privacy';

type PanelInput = Pick<IpInfo, 'vpn_detected' | 'risk_level' | 'country_code'>;

/** First match wins: VPN detected, then high risk, then medium risk, then the default. */
export function panelUrgency(record: PanelInput): { urgency: Urgency; headline: HeadlineKey } {
  if (record.vpn_detected) return { urgency: 'low', headline: 'vpnDetected' };
  if (record.risk_level === 'high') return { urgency: 'high', headline: 'highRisk' };
  if (record.risk_level === 'medium') return { urgency: 'medium', headline: 'moderateRisk' };
  return { urgency: 'low', headline: 'protect' };
}

const SECURITY_COUNTRIES = new Set(['CN', 'RU', 'IR', 'KP', 'SA', 'AE', 'SG']);
// The sketch's streaming list repeats four security countries; only TR and EG reach it.
const STREAMING_COUNTRIES = new Set(['CN', 'IR', 'KP', 'RU', 'TR', 'EG']);

/** VPN detected gives privacy; else censoring countries security; else TR, EG streaming; else privacy. */
export function offerCategory(record: PanelInput): OfferCategory {
  if (record.vpn_detected) return 'privacy';
  const country = record.country_code.toUpperCase();
  if (SECURITY_COUNTRIES.has(country)) return 'security';
  if (STREAMING_COUNTRIES.has(country)) return 'streaming';
  return 'privacy';
}

/**
 * Where an offer's button goes: the affiliate link when one is configured, marked
 * sponsored as search engines ask; otherwise the provider's own site, a plain link.
 */
export function offerLink(o: { officialUrl: string; affiliateUrl: string }): { href: string; rel: string; sponsored: boolean } {
  return o.affiliateUrl
    ? { href: o.affiliateUrl, rel: 'sponsored noopener', sponsored: true }
    : { href: o.officialUrl, rel: 'noopener', sponsored: false };
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
