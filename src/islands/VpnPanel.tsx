/**
 * The VPN recommendation panel: urgency (its label, fixed by the spec, and why in plain
 * words) and headline from the visitor's record, the
 * offers of the category that fits them, the first labelled RECOMMENDED. Affiliate
 * links are sponsored; an offer without one links the provider's own site. No prices or
 * ratings (they go stale and had no source); a dated claim names its source.
 */
import { formatDate, isoDate } from '../lib/content/display.ts';
import { fillTemplate } from '../lib/fill-template.ts';
import { offerCategory, offersFor, panelUrgency } from '../lib/vpn-panel.ts';
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

export default function VpnPanel({ initial, offers = OFFERS, text = ISLAND_TEXT.vpnPanel, level = 3 }: Props) {
  const { data } = useLookup(initial);
  const Heading = `h${level}` as const;
  const Sub = `h${level + 1}` as 'h3' | 'h4';
  if (!data) return <div className="vpn-panel skeleton block" aria-hidden="true" />;
  const { urgency, headline } = panelUrgency(data.data);
  const category = offerCategory(data.data);
  const shown = offersFor(offers, category);
  return (
    <section className={`vpn-panel urgency-${urgency}`} aria-labelledby="vpn-panel-title" data-testid="vpn-panel" data-category={category}>
      <p className={`badge tone-${URGENCY_TONE[urgency]}`}>{text.urgencyLabels[urgency]}</p>
      <Heading id="vpn-panel-title">{text.headlines[headline]}</Heading>
      <p className="urgency-reason">{text.urgencyReasons[headline]}</p>
      <p>{text.categoryIntros[category]}</p>
      <ul className="offers">
        {shown.map((o) => (
          <li key={o.id} className={`card offer${o.recommended ? ' recommended' : ''}`}>
            {o.recommended && <p className="badge tone-blue">{text.recommended}</p>}
            <Sub><span aria-hidden="true">{o.icon}</span> {o.name}</Sub>
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
    </section>
  );
}
