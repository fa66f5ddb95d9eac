/**
 * The badge row under the IP: VPN verdict, GPS, accuracy tier and radius, and on the
 * full variant consensus, confidence, measured round trip, network type and IP version.
 */
import { accuracyTierTone, confidenceBadge, consensusTone, formatAccuracyRadius, networkTypeLabel, rttTone, verdictKey, type Tone } from '../lib/badges.ts';
import { fillTemplate } from '../lib/fill-template.ts';
import type { LookupResponse } from '../lib/record.ts';
import { useLookup, type LookupText } from './use-lookup.ts';
import './lookup.css';

interface Props {
  initial?: LookupResponse | null;
  text: LookupText['badges'];
  /** 'simple' (/ip-2): VPN, accuracy and GPS badges only. */
  variant?: 'full' | 'simple';
}

/** Widths (rem) of the loading pills: VPN, tier, radius, then consensus, confidence, network, version. */
const SKELETON_WIDTHS = [9, 10, 10, 13, 9, 10, 4] as const;

function Badge({ tone, children, id }: { tone: Tone; children: string; id: string }) {
  return <li className={`badge tone-${tone}`} data-badge={id}>{children}</li>;
}

export default function BadgeRow({ initial, text, variant = 'full' }: Props) {
  const { data } = useLookup(initial);
  // As many pills as the loaded row will mostly have, so it wraps alike and nothing below moves.
  if (!data) {
    return (
      <ul className="badges" aria-hidden="true">
        {SKELETON_WIDTHS.slice(0, variant === 'full' ? undefined : 3).map((w, i) => <li key={i} className={`badge skeleton w-${w}`}>{'\u00a0'}</li>)}
      </ul>
    );
  }
  const r = data.data;
  const full = variant === 'full';
  const confidence = confidenceBadge(r.confidence_score);
  const verdict = verdictKey(r);
  return (
    <ul className="badges" aria-label={text.listLabel}>
      <Badge id="vpn" tone={verdict === 'noVpn' ? 'green' : 'red'}>{text[verdict]}</Badge>
      {r.location_source === 'hybrid' && <Badge id="gps" tone="green">{text.gpsEnhanced}</Badge>}
      <Badge id="tier" tone={accuracyTierTone(r.accuracy_tier)}>{fillTemplate(text.tier, { tier: r.accuracy_tier })}</Badge>
      <Badge id="radius" tone="neutral">{fillTemplate(text.radius, { radius: formatAccuracyRadius(r.accuracy_radius) })}</Badge>
      {full && r.distance_consensus !== null && (
        <Badge id="consensus" tone={consensusTone(r.distance_consensus)}>{fillTemplate(text.consensus, { km: Math.round(r.distance_consensus) })}</Badge>
      )}
      {full && <Badge id="confidence" tone={confidence.tone}>{fillTemplate(text.confidence, { percent: confidence.percent })}</Badge>}
      {full && <Badge id="network" tone="neutral">{fillTemplate(text.network, { type: networkTypeLabel(r.network_type) })}</Badge>}
      {full && <Badge id="version" tone="neutral">{fillTemplate(text.version, { version: r.ip_version })}</Badge>}
      {/* Last: it appears once a request was timed, and must not push the others around. */}
      {full && r.rtt_ms !== null && <Badge id="rtt" tone={rttTone(r.rtt_ms)}>{fillTemplate(text.rtt, { ms: r.rtt_ms })}</Badge>}
    </ul>
  );
}
