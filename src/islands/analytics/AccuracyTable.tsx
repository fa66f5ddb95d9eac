/**
 * Measured location accuracy: corrections, the networks they come from, and the median and
 * 90th-percentile distance over those networks, overall and per network type, with the method.
 */
import type { Dashboard } from '../../lib/analytics.ts';
import { formatCount, formatKm } from '../../lib/analytics-format.ts';
import { fillTemplate } from '../../lib/fill-template.ts';
import type { AnalyticsText } from './text.ts';

type Accuracy = Dashboard['accuracy'];

/** `level`: heading level of the title (4 inside the analytics tab, 3 under a page section). */
export function AccuracyTable({ accuracy, text, level = 4 }: { accuracy: Accuracy; text: AnalyticsText; level?: 3 | 4 }) {
  const Heading = `h${level}` as const;
  const km = (value: number | null) => (value === null ? '' : fillTemplate(text.km, { km: formatKm(value) }));
  const rows: [string, Omit<Accuracy, 'byNetworkType'>][] = [
    [text.accuracyAll, accuracy],
    ...accuracy.byNetworkType.map((g) => [g.networkType, g] as [string, Omit<Accuracy, 'byNetworkType'>]),
  ];
  return (
    <div className="card accuracy">
      <Heading>{text.accuracyTitle}</Heading>
      <p className="analytics-intro">{text.accuracyIntro}</p>
      {accuracy.corrections === 0 ? <p>{text.accuracyNone}</p> : (
        <>
          <table>
            <thead>
              <tr><th scope="col"><span className="visually-hidden">{text.columns.network}</span></th>
                <th scope="col">{text.corrections}</th><th scope="col">{text.accuracyNetworks}</th>
                <th scope="col">{text.median}</th><th scope="col">{text.p90}</th></tr>
            </thead>
            <tbody>
              {rows.map(([name, g]) => (
                <tr key={name}><th scope="row">{name}</th><td>{formatCount(g.corrections)}</td><td>{formatCount(g.networks)}</td>
                  <td>{km(g.medianKm)}</td><td>{km(g.p90Km)}</td></tr>
              ))}
            </tbody>
          </table>
          <p className="analytics-intro accuracy-method">{text.accuracyMethod}</p>
        </>
      )}
    </div>
  );
}
