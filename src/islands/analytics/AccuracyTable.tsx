/**
 * Measured location accuracy: the median and 90th-percentile distance over the networks
 * the corrections come from, overall and per network type (named in words, not by the
 * stored key), each row saying how many corrections and networks it rests on; then the
 * method. Three columns, so it fits a phone without scrolling.
 */
import type { Dashboard } from '../../lib/analytics.ts';
import { formatCount, formatKm } from '../../lib/analytics-format.ts';
import { fillTemplate } from '../../lib/fill-template.ts';
import type { AnalyticsText } from './text.ts';

type Accuracy = Dashboard['accuracy'];
type Group = Omit<Accuracy['byNetworkType'][number], 'networkType'>;

/** `level`: heading level of the title (4 inside the analytics tab, 3 under a page section). */
export function AccuracyTable({ accuracy, text, level = 4 }: { accuracy: Accuracy; text: AnalyticsText; level?: 3 | 4 }) {
  const Heading = `h${level}` as const;
  const km = (value: number | null) => (value === null ? '' : fillTemplate(text.km, { km: formatKm(value) }));
  const types: Record<string, string> = text.networkTypes;
  const rows: [string, Group][] = [
    [text.accuracyAll, accuracy],
    ...accuracy.byNetworkType.map((g): [string, Group] => [types[g.networkType] ?? g.networkType, g]),
  ];
  return (
    <div className="card accuracy">
      <Heading>{text.accuracyTitle}</Heading>
      <p className="analytics-intro">{text.accuracyIntro}</p>
      {accuracy.corrections === 0 ? <p>{text.accuracyNone}</p> : !accuracy.published ? (
        <p className="accuracy-too-few">{fillTemplate(text.accuracyTooFew, {
          minNetworks: formatCount(accuracy.minimum.networks), minAsns: formatCount(accuracy.minimum.asns),
          networks: formatCount(accuracy.networks), asns: formatCount(accuracy.asns),
        })}</p>
      ) : (
        <>
          <table>
            <thead>
              <tr><th scope="col">{text.columns.network}</th><th scope="col">{text.median}</th><th scope="col">{text.p90}</th></tr>
            </thead>
            <tbody>
              {rows.map(([name, g]) => (
                <tr key={name}>
                  <th scope="row">{name}{' '}<span className="group-counts">
                    {fillTemplate(text.accuracyCounts, { corrections: formatCount(g.corrections), networks: formatCount(g.networks) })}
                  </span></th>
                  <td>{km(g.medianKm)}</td><td>{km(g.p90Km)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="analytics-intro accuracy-method">{text.accuracyMethod}</p>
        </>
      )}
    </div>
  );
}
