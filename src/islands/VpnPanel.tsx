/**
 * The VPN recommendation panel: headline from the visitor's record (its urgency only
 * styles the panel, no urgency wording is shown), the offers of the category that fits
 * them, the first labelled RECOMMENDED. Each offer's 'Visit {name}' button goes to the
 * provider's own site, or to its affiliate link (rel="sponsored") when one is configured;
 * the affiliate disclosure shows only when such a link is on screen.
 */
import type { CollectionEntry } from 'astro:content';
import { fillTemplate } from '../lib/fill-template.ts';
import type { LookupResponse } from '../lib/record.ts';
import { offerCategory, offerLink, offersFor, panelUrgency } from '../lib/vpn-panel.ts';
import { useLookup, type LookupText } from './use-lookup.ts';
import './lookup.css';

type Offer = CollectionEntry<'offers'>['data'];

interface Props {
  initial?: LookupResponse | null;
  offers: Offer[];
  text: LookupText['vpnPanel'];
  /** Heading level of the panel title (2 on /ip-4, 3 inside a tab). */
  level?: 2 | 3;
}

export default function VpnPanel({ initial, offers, text, level = 3 }: Props) {
  const { data } = useLookup(initial);
  const Heading = `h${level}` as const;
  const Sub = `h${level + 1}` as 'h3' | 'h4';
  if (!data) return <div className="vpn-panel skeleton block" aria-hidden="true" />;
  const { urgency, headline } = panelUrgency(data.data);
  const category = offerCategory(data.data);
  const shown = offersFor(offers, category).map((o) => ({ ...o, link: offerLink(o) }));
  return (
    <section className={`vpn-panel urgency-${urgency}`} aria-labelledby="vpn-panel-title" data-testid="vpn-panel" data-category={category}>
      <Heading id="vpn-panel-title">{text.headlines[headline]}</Heading>
      <p>{text.categoryIntros[category]}</p>
      <ul className="offers">
        {shown.map((o) => (
          <li key={o.id} className={`card offer${o.recommended ? ' recommended' : ''}`}>
            {o.recommended && <p className="badge tone-blue">{text.recommended}</p>}
            <Sub><span aria-hidden="true">{o.icon}</span> {o.name}</Sub>
            <p>{o.description}</p>
            <ul className="features">{o.features.map((f) => <li key={f}>{f}</li>)}</ul>
            <p className="offer-facts">
              <strong>{fillTemplate(text.price, { price: o.pricePerMonth.toFixed(2) })}</strong>
              <span>{fillTemplate(text.rating, { rating: o.rating.toFixed(1) })}</span>
            </p>
            <a className="button" href={o.link.href} rel={o.link.rel} target="_blank">{fillTemplate(text.visit, { name: o.name })}</a>
          </li>
        ))}
      </ul>
      {shown.some((o) => o.link.sponsored) && <p className="disclosure">{text.disclosure}</p>}
    </section>
  );
}
