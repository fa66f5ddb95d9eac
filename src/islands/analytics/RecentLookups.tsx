/** The 10 most recent lookups (masked networks) and the CSV export: only rendered when the server sent them. */
import type { Dashboard, Period } from '../../lib/analytics.ts';
import type { AnalyticsText } from './text.ts';

const TIME = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function RecentLookups({ recent, period, text }: { recent: NonNullable<Dashboard['recent']>; period: Period; text: AnalyticsText }) {
  const place = (r: (typeof recent)[number]) => [r.city, r.country].filter((part) => part && part !== 'Unknown').join(', ') || r.country;
  return (
    <div className="card recent">
      <div className="recent-head">
        <h4 id="analytics-recent">{text.recentTitle}</h4>
        <a className="button" href={`/api/analytics.csv?period=${period}`} download={`ip-analytics-${period}.csv`}>{text.export}</a>
      </div>
      <p className="analytics-intro">{text.recentNote}</p>
      {/* Focusable so keyboard users can scroll it on a narrow screen. */}
      <div className="table-scroll" role="region" aria-labelledby="analytics-recent" tabIndex={0}>
        <table aria-labelledby="analytics-recent">
          <thead>
            <tr>{[text.columns.network, text.columns.place, text.columns.verdict, text.columns.time].map((c) => <th key={c} scope="col">{c}</th>)}</tr>
          </thead>
          <tbody>
            {recent.map((r, i) => (
              <tr key={i}>
                <td className="network">{r.network}</td>
                <td>{place(r)}</td>
                <td>{r.vpnDetected ? text.vpnDetected : text.noVpn}</td>
                <td><time dateTime={r.at}>{TIME.format(new Date(r.at))}</time></td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
