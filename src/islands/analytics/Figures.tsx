/** The three headline figures of a period, each with its change against the previous period. */
import type { Dashboard, Figure } from '../../lib/analytics.ts';
import { formatCount, formatCountChange, formatPercent, formatPoints } from '../../lib/analytics-format.ts';
import { fillTemplate } from '../../lib/fill-template.ts';
import type { AnalyticsText } from './text.ts';

function changeText(figure: Figure, kind: 'count' | 'rate', text: AnalyticsText): string {
  if (figure.change === null) return text.noChange;
  const change = kind === 'count' ? formatCountChange(figure.change) : fillTemplate(text.points, { points: formatPoints(figure.change) });
  return fillTemplate(text.change, { change });
}

export function Figures({ data, text }: { data: Dashboard; text: AnalyticsText }) {
  const rows: [string, string, Figure, 'count' | 'rate', string][] = [
    ['lookups', text.lookups, data.lookups, 'count', formatCount(data.lookups.value ?? 0)],
    ['networks', text.networks, data.networks, 'count', formatCount(data.networks.value ?? 0)],
    ['vpn-rate', text.vpnRate, data.vpnRate, 'rate', data.vpnRate.value === null ? '' : formatPercent(data.vpnRate.value)],
  ];
  return (
    <dl className="analytics-figures">
      {rows.map(([id, label, figure, kind, value]) => (
        <div key={id} className="card" data-figure={id}>
          <dt>{label}</dt>
          <dd className="figure-value">{value}</dd>
          <dd className="figure-change">{changeText(figure, kind, text)}</dd>
        </div>
      ))}
    </dl>
  );
}
