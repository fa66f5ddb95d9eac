/**
 * Lookups per unit of the period as an SVG bar chart. For assistive technology the
 * picture has a title and a description (total, span, busiest unit); every value is also
 * in a table behind a disclosure, reachable from the keyboard. Bars carry a <title> for
 * the mouse.
 */
import type { Dashboard } from '../../lib/analytics.ts';
import { formatBucket, formatCount } from '../../lib/analytics-format.ts';
import { fillTemplate } from '../../lib/fill-template.ts';
import type { AnalyticsText } from './text.ts';

const W = 600;
const H = 180;
const AXIS = 22;

export function ActivityChart({ data, text }: { data: Dashboard; text: AnalyticsText }) {
  const points = data.activity;
  const label = (iso: string) => formatBucket(iso, data.unit);
  const max = Math.max(1, ...points.map((p) => p.lookups));
  const peak = points.reduce((best, p) => (p.lookups > best.lookups ? p : best), points[0]!);
  const total = points.reduce((sum, p) => sum + p.lookups, 0);
  const title = data.unit === 'day' ? text.activityDays : text.activityHours;
  const slot = W / points.length;
  const ticks = [0, Math.floor(points.length / 2), points.length - 1];
  return (
    <figure className="card activity">
      <h4 id="analytics-activity">{text.activityTitle}</h4>
      <svg viewBox={`0 0 ${W} ${H + AXIS}`} role="img" aria-labelledby="activity-title activity-desc" className="activity-chart">
        <title id="activity-title">{title}</title>
        <desc id="activity-desc">{fillTemplate(text.activitySummary, {
          total: formatCount(total), from: label(points[0]!.start), to: label(points.at(-1)!.start),
          peak: label(peak.start), peakCount: formatCount(peak.lookups),
        })}</desc>
        <line x1="0" y1={H} x2={W} y2={H} className="axis" />
        {points.map((p, i) => {
          const h = (p.lookups / max) * (H - 16);
          return (
            <rect key={p.start} x={i * slot + slot * 0.15} y={H - h} width={slot * 0.7} height={h} rx="2">
              <title>{`${label(p.start)}: ${formatCount(p.lookups)}`}</title>
            </rect>
          );
        })}
        {ticks.map((i) => (
          <text key={i} x={i * slot + slot / 2} y={H + 16} textAnchor="middle" className="tick">{label(points[i]!.start)}</text>
        ))}
        <text x="4" y="12" className="tick">{formatCount(max)}</text>
      </svg>
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
