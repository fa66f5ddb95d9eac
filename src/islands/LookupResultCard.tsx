/** The result card of the single-address lookup: place, network, ASN, type, VPN verdict, accuracy. */
import { confidenceBadge, formatAccuracyRadius, networkTypeLabel } from '../lib/badges.ts';
import { asnOf, networkOf } from '../lib/ip-info-format.ts';
import { formatCoordinates, placeLine } from '../lib/place-line.ts';
import type { LookupResponse } from '../lib/record.ts';
import { fillTemplate } from '../lib/fill-template.ts';
import type { ToolsCopy } from './copy.ts';

interface Props {
  result: LookupResponse;
  query: string;
  copy: ToolsCopy<'lookup'>;
}

export default function LookupResultCard({ result, query, copy }: Props) {
  const info = result.data;
  const { fields, unknown } = copy;
  const score = info.vpn.confidence.toFixed(1);
  const rows: Array<[string, string]> = [
    [fields.place, placeLine(info) || unknown],
    [fields.coordinates, formatCoordinates(info.latitude, info.longitude)],
    [fields.timezone, info.timezone],
    [fields.network, networkOf(info, unknown)],
    [fields.asn, asnOf(info, unknown)],
    [fields.networkType, networkTypeLabel(info.network_type)],
    [fields.accuracy, fillTemplate(copy.accuracyValue, {
      tier: info.accuracy_tier,
      radius: formatAccuracyRadius(info.accuracy_radius),
      confidence: confidenceBadge(info.confidence_score).percent,
    })],
  ];
  if (info.reserved) rows.unshift([fields.reserved, info.reserved]);

  return (
    <article className="card lookup-result" aria-labelledby="lookup-result-heading">
      <h3 id="lookup-result-heading">{fillTemplate(copy.resultHeading, { ip: info.ip || query })}</h3>
      <dl>
        {rows.map(([label, value]) => (
          <div key={label}><dt>{label}</dt><dd>{value}</dd></div>
        ))}
        <div>
          <dt>{fields.vpn}</dt>
          <dd>
            <span className={info.vpn.detected ? 'verdict bad' : 'verdict ok'}>
              {fillTemplate(info.vpn.detected ? copy.vpnDetected : copy.vpnNotDetected, { score })}
            </span>
            {info.vpn.indicators.length
              ? <ul>{info.vpn.indicators.map((text) => <li key={text}>{text}</li>)}</ul>
              : <p>{copy.noIndicators}</p>}
          </dd>
        </div>
      </dl>
    </article>
  );
}
