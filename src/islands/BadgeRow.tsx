/**
 * The hero's verdict and accuracy: the VPN verdict, one plain sentence about where the
 * address is (src/lib/accuracy-sentence.ts), the GPS badge, the network kind in words and
 * the measured round trip; the accuracy badges the spec names (tier, radius, consensus,
 * how often the radius held in the measurement: src/lib/measured-share.ts, network type,
 * IP version) sit one click away in a disclosure, so they no longer compete with the
 * sentence. After the visitor chose their city the sentence says
 * so, sized by that city; what the IP address alone says moves into the disclosure.
 */
import { accuracyTierTone, consensusTone, formatAccuracyRadius, networkTypeLabel, rttTone, verdictKey, type Tone } from '../lib/badges.ts';
import { accuracySentence, correctedSentence } from '../lib/accuracy-sentence.ts';
import { fillTemplate } from '../lib/fill-template.ts';
import { placeLine } from '../lib/place-line.ts';
import { measuredPercent } from '../lib/measured-share.ts';
import type { InitialRecord } from './page-record.ts';
import { useLookup, type LookupText } from './use-lookup.ts';
import { ISLAND_TEXT, MEASURED_CELLS } from './island-text.ts';
import './lookup.css';

interface Props {
  initial?: InitialRecord;
  text?: LookupText['badges'];
  /** 'simple' (/ip-2): verdict, sentence and GPS; tier and radius in the details. */
  variant?: 'full' | 'simple';
}

/** Widths (rem) of the loading pills: the verdict and the network kind. */
const SKELETON_WIDTHS = [9, 10] as const;

function Badge({ tone, children, id }: { tone: Tone; children: string; id: string }) {
  return <li className={`badge tone-${tone}`} data-badge={id}>{children}</li>;
}

export default function BadgeRow({ initial, text = ISLAND_TEXT.badges, variant = 'full' }: Props) {
  const { data, correction, fromIp } = useLookup(initial);
  // The loaded layout's boxes, so nothing below moves when the record arrives.
  if (!data) {
    return (
      <div className="verdict-row" aria-hidden="true">
        <p className="accuracy-sentence"><span className="skeleton line" /></p>
        <ul className="badges">{SKELETON_WIDTHS.slice(0, variant === 'full' ? undefined : 1).map((w, i) => <li key={i} className={`badge skeleton w-${w}`}>{'\u00a0'}</li>)}</ul>
        <p className="accuracy-details-skeleton">{'\u00a0'}</p>
      </div>
    );
  }
  const r = data.data;
  const full = variant === 'full';
  // How often the radius held for addresses like this one, as measured; none where nothing measured it.
  const measured = measuredPercent(r, MEASURED_CELLS);
  const verdict = verdictKey(r);
  // The accuracy fields are the IP's whether or not the place was corrected; its place is in `fromIp`.
  const ip = fromIp?.data ?? r;
  const sentence = correction ? correctedSentence(correction, text.sentence) : accuracySentence(r, text.sentence);
  const ipPlace = correction && placeLine(ip);
  const kind = r.network_type in text.networkKinds ? text.networkKinds[r.network_type as keyof typeof text.networkKinds] : null;
  return (
    <div className="verdict-row">
      {sentence && <p className="accuracy-sentence" data-testid="accuracy">{sentence}</p>}
      <ul className="badges" aria-label={text.listLabel}>
        <Badge id="vpn" tone={verdict === 'noVpn' ? 'green' : 'red'}>{text[verdict]}</Badge>
        {r.location_source === 'hybrid' && <Badge id="gps" tone="green">{text.gpsEnhanced}</Badge>}
        {full && kind && <Badge id="kind" tone="neutral">{kind}</Badge>}
        {/* Last: it appears once a request was timed, and must not push the others around. */}
        {full && r.rtt_ms !== null && <Badge id="rtt" tone={rttTone(r.rtt_ms)}>{fillTemplate(text.rtt, { ms: r.rtt_ms })}</Badge>}
      </ul>
      <details className="accuracy-details">
        <summary>{correction ? text.sentence.ipDetails : text.sentence.details}</summary>
        {correction && <p className="ip-place" data-testid="ip-place">{ipPlace && `${fillTemplate(text.sentence.fromIp, { place: ipPlace })} `}{accuracySentence(ip, text.sentence)}</p>}
        <ul className="badges">
          <Badge id="tier" tone={accuracyTierTone(r.accuracy_tier)}>{fillTemplate(text.tier, { tier: r.accuracy_tier })}</Badge>
          <Badge id="radius" tone="neutral">{fillTemplate(text.radius, { radius: formatAccuracyRadius(r.accuracy_radius) })}</Badge>
          {full && r.distance_consensus !== null && (
            <Badge id="consensus" tone={consensusTone(r.distance_consensus)}>{fillTemplate(text.consensus, { km: Math.round(r.distance_consensus) })}</Badge>
          )}
          {full && measured !== null && <Badge id="confidence" tone="neutral">{fillTemplate(text.confidence, { percent: measured })}</Badge>}
          {full && <Badge id="network" tone="neutral">{fillTemplate(text.network, { type: networkTypeLabel(r.network_type) })}</Badge>}
          {full && <Badge id="version" tone="neutral">{fillTemplate(text.version, { version: r.ip_version })}</Badge>}
        </ul>
      </details>
    </div>
  );
}
