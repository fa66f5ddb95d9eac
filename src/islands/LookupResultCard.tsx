/** The result card of the single-address lookup: place, network, ASN, type, VPN verdict with its reasons and privacy flags, accuracy. */
import { formatAccuracyRadius, networkTypeLabel } from '../lib/badges.ts';
import { measuredPercent } from '../lib/measured-share.ts';
import { MEASURED_CELLS } from './island-text.ts';
import type { ReactNode } from 'react';
import { networkOf } from '../lib/ip-info-format.ts';
import AsnLink from './AsnLink.tsx';
import { formatCoordinates, placeLine } from '../lib/place-line.ts';
import type { LookupResponse } from '../lib/record.ts';
import { fillTemplate } from '../lib/fill-template.ts';
import type { ToolsCopy } from './copy.ts';
import PrivacyFlags from './PrivacyFlags.tsx';
import type { LookupText } from './use-lookup.ts';

interface Props {
  result: LookupResponse;
  query: string;
  copy: ToolsCopy<'lookup'>;
  /** Names and answers of the privacy flags (content/site/lookup-text.json). */
  privacyText: LookupText['privacy'];
}

export default function LookupResultCard({ result, query, copy, privacyText }: Props) {
  const info = result.data;
  const { fields, unknown } = copy;
  const score = info.vpn.confidence.toFixed(1);
  const measured = measuredPercent(info, MEASURED_CELLS);
  const rows: Array<[string, ReactNode]> = [
    [fields.place, placeLine(info) || unknown],
    [fields.coordinates, formatCoordinates(info.latitude, info.longitude)],
    [fields.timezone, info.timezone],
    [fields.network, networkOf(info, unknown)],
    [fields.asn, <AsnLink info={info} unknown={unknown} />],
    [fields.networkType, networkTypeLabel(info.network_type)],
    [fields.accuracy, fillTemplate(copy.accuracyValue, {
      tier: info.accuracy_tier,
      radius: formatAccuracyRadius(info.accuracy_radius),
      measured: measured === null ? '' : fillTemplate(copy.accuracyMeasured, { percent: measured }),
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
              ? <ul>{info.vpn.indicators.map((name, i) => <li key={name}><strong>{name}</strong>: {info.vpn.reasons[i]}</li>)}</ul>
              : <p>{copy.noIndicators}</p>}
            <PrivacyFlags privacy={info.privacy} text={privacyText} />
          </dd>
        </div>
      </dl>
    </article>
  );
}
