/**
 * The VPN recommendation panel. When a list or the verdict shows what the visitor is
 * behind (Tor, Private Relay, a VPN, an open proxy, a hosting network), it says that and
 * what it means for them, and shows offers only where a VPN is sound advice
 * (src/lib/vpn-panel.ts, OFFERS_SHOWN); otherwise the urgency (its label, fixed by the
 * spec, and why in plain words) and the offers of the category that fits them, the first
 * labelled RECOMMENDED. Before the record is known (the server HTML of /ip-4, a page
 * without JavaScript) it gives the general case, offers and links included. Affiliate
 * links are sponsored; an offer without one links the provider's own site. No prices or
 * ratings (they go stale and had no source); a dated claim names its source.
 */
import { formatDate, isoDate } from '../lib/content/display.ts';
import { fillTemplate } from '../lib/fill-template.ts';
import { OFFERS_SHOWN, offerCategory, offersFor, panelKind, panelUrgency, type OfferCategory } from '../lib/vpn-panel.ts';
import type { InitialRecord } from './page-record.ts';
import { useLookup, type LookupText } from './use-lookup.ts';
import { ISLAND_TEXT, OFFERS, type Offer } from './island-text.ts';
import './lookup.css';

interface Props {
  initial?: InitialRecord;
  offers?: readonly Offer[];
  text?: LookupText['vpnPanel'];
  /** Heading level of the panel title (2 on /ip-4, 3 inside a tab). */
  level?: 2 | 3;
}

const URGENCY_TONE = { low: 'green', medium: 'amber', high: 'red' } as const;

/** The offers' icons: outlines drawn in the text colour, so they follow the theme (lookup.css, .offer-icon). */
const ICONS: Record<Offer['icon'], string> = {
  shield: 'M12 3l7 3v5c0 4.5-3 8.3-7 10-4-1.7-7-5.5-7-10V6z',
  lock: 'M6 11h12v10H6z M8.5 11V7.5a3.5 3.5 0 0 1 7 0V11',
  play: 'M3 5h18v12H3z M8 21h8 M10 8.5v5l4.5-2.5z',
};

function OfferList({ offers, category, text, level }: { offers: readonly Offer[]; category: OfferCategory; text: LookupText['vpnPanel']; level: 3 | 4 }) {
  const Sub = `h${level}` as const;
  const shown = offersFor(offers, category);
  return (
    <>
      <ul className="offers">
        {shown.map((o) => (
          <li key={o.id} className={`card offer${o.recommended ? ' recommended' : ''}`}>
            {o.recommended && <p className="badge tone-blue">{text.recommended}</p>}
            <Sub><svg className="offer-icon" viewBox="0 0 24 24" aria-hidden="true"><path d={ICONS[o.icon]} /></svg> {o.name}</Sub>
            <p>{o.description}</p>
            <ul className="features">{o.features.map((f) => <li key={f}>{f}</li>)}</ul>
            {o.source && (
              <p className="offer-source">
                {text.source} <a href={o.source.url} rel="noopener" target="_blank">{o.source.title}</a>,{' '}
                <time dateTime={isoDate(new Date(o.source.date))}>{formatDate(new Date(o.source.date))}</time>
              </p>
            )}
            <a className="button" href={o.affiliateUrl || o.website} rel={o.affiliateUrl ? 'sponsored noopener' : 'noopener'} target="_blank">
              {fillTemplate(text.visit, { name: o.name })}
            </a>
          </li>
        ))}
      </ul>
      <p className="disclosure">{shown.some((o) => o.affiliateUrl) ? text.disclosure : text.noAffiliates}</p>
    </>
  );
}

export default function VpnPanel({ initial, offers = OFFERS, text = ISLAND_TEXT.vpnPanel, level = 3 }: Props) {
  const { data } = useLookup(initial);
  const Heading = `h${level}` as const;
  const sub = (level + 1) as 3 | 4;
  const r = data?.data;
  const kind = r ? panelKind(r) : null;
  const category = r ? offerCategory(r) : 'privacy';
  const detected = kind && kind !== 'none' ? text.kinds[kind] : null;
  const { urgency, headline } = r ? panelUrgency(r) : { urgency: null, headline: 'protect' as const };
  return (
    <section className="vpn-panel" aria-labelledby="vpn-panel-title" data-testid="vpn-panel" data-kind={kind ?? 'general'} data-category={category}>
      {detected ? (
        <>
          <p className="badge tone-blue">{detected.badge}</p>
          <Heading id="vpn-panel-title">{detected.headline}</Heading>
          <p>{detected.meaning}</p>
          <p className="panel-advice">{detected.advice}</p>
        </>
      ) : (
        <>
          {/* Before the record, an invisible pill holds the urgency's place, so the panel does not move when it comes. */}
          {urgency ? <p className={`badge tone-${URGENCY_TONE[urgency]}`}>{text.urgencyLabels[urgency]}</p> : <p className="badge badge-slot" aria-hidden="true">{'\u00a0'}</p>}
          <Heading id="vpn-panel-title">{text.headlines[headline]}</Heading>
          <p className="urgency-reason">{urgency ? text.urgencyReasons[headline] : text.general}</p>
          <p>{text.categoryIntros[category]}</p>
        </>
      )}
      {OFFERS_SHOWN[kind ?? 'none'] && <OfferList offers={offers} category={category} text={text} level={sub} />}
    </section>
  );
}
