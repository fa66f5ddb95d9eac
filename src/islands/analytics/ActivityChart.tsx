/**
 * Lookups per unit of the period as an SVG bar chart, drawn in percentages of its width so
 * its text keeps its size on a phone and on a wide screen. Every label stays inside the
 * picture: the first and last tick are anchored at its edges. Each unit has a faint track
 * its bar grows in, so a lone bar reads against the empty days or hours around it; with a
 * week's few bars each carries its value (0 included), with more a line marks the busiest. The summary
 * (total, span, busiest unit) is written under the chart and describes it to assistive
 * technology; every value is also in a table behind a disclosure, reachable from the
 * keyboard. Bars carry a <title> for the mouse.
 */
import type { Dashboard } from '../../lib/analytics.ts';
import { formatBucket, formatCount } from '../../lib/analytics-format.ts';
import { fillTemplate } from '../../lib/fill-template.ts';
import type { AnalyticsText } from './text.ts';

/** Plot height, the room above it for the value labels, and below it for the ticks (px). */
const PLOT = 150;
const TOP = 20;
const AXIS = 24;
/** Up to this many bars, each is labelled with its value. */
const LABELLED_BARS = 7;

const pct = (x: number) => `${Math.round(x * 100) / 100}%`;

export function ActivityChart({ data, text }: { data: Dashboard; text: AnalyticsText }) {
  const points = data.activity;
  const label = (iso: string) => formatBucket(iso, data.unit);
  const max = Math.max(1, ...points.map((p) => p.lookups));
  const peak = points.reduce((best, p) => (p.lookups > best.lookups ? p : best), points[0]!);
  const total = points.reduce((sum, p) => sum + p.lookups, 0);
  const title = data.unit === 'day' ? text.activityDays : text.activityHours;
  const slot = 100 / points.length;
  const base = TOP + PLOT;
  const labelled = points.length <= LABELLED_BARS;
  const middle = Math.floor(points.length / 2);
  const ticks = [[0, '0%', 'start'], [middle, pct((middle + 0.5) * slot), 'middle'], [points.length - 1, '100%', 'end']] as const;
  return (
    <figure className="card activity">
      <h4 id="analytics-activity">{text.activityTitle}</h4>
      <svg width="100%" height={base + AXIS} role="img" aria-labelledby="activity-title" aria-describedby="activity-desc" className="activity-chart">
        <title id="activity-title">{title}</title>
        {!labelled && (
          <>
            <line x1="0" y1={TOP} x2="100%" y2={TOP} className="grid" />
            <text x="0" y={TOP - 6} className="tick">{formatCount(max)}</text>
          </>
        )}
        <line x1="0" y1={base} x2="100%" y2={base} className="axis" />
        {points.map((p, i) => {
          const h = (p.lookups / max) * PLOT;
          return (
            <g key={p.start}>
              <rect x={pct(i * slot + slot * 0.15)} y={TOP} width={pct(slot * 0.7)} height={PLOT} className="track" />
              <rect x={pct(i * slot + slot * 0.15)} y={base - h} width={pct(slot * 0.7)} height={h} rx="2">
                <title>{`${label(p.start)}: ${formatCount(p.lookups)}`}</title>
              </rect>
              {labelled && <text x={pct((i + 0.5) * slot)} y={base - h - 6} textAnchor="middle" className="value">{formatCount(p.lookups)}</text>}
            </g>
          );
        })}
        {ticks.map(([i, x, anchor]) => (
          <text key={anchor} x={x} y={base + 17} textAnchor={anchor} className="tick">{label(points[i]!.start)}</text>
        ))}
      </svg>
      <p id="activity-desc" className="activity-summary">{fillTemplate(text.activitySummary, {
        total: formatCount(total), from: label(points[0]!.start), to: label(points.at(-1)!.start),
        peak: label(peak.start), peakCount: formatCount(peak.lookups),
      })}</p>
      <details>
        <summary>{text.activityValues}</summary>
        <table>
          <caption className="visually-hidden">{title}</caption>
          <thead><tr><th scope="col">{title}</th><th scope="col">{text.activityUnit}</th></tr></thead>
          <tbody>
            {points.map((p) => <tr key={p.start}><th scope="row">{label(p.start)}</th><td>{formatCount(p.lookups)}</td></tr>)}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
