/** Top countries as a bar list: each bar as long as its count against the first's, with count and share in words. */
import type { Dashboard } from '../../lib/analytics.ts';
import { formatCount, formatPercent } from '../../lib/analytics-format.ts';
import { fillTemplate } from '../../lib/fill-template.ts';
import type { AnalyticsText } from './text.ts';

export function CountryBars({ countries, text }: { countries: Dashboard['countries']; text: AnalyticsText }) {
  const top = countries[0]?.lookups ?? 1;
  return (
    <div className="card">
      <h4 id="analytics-countries">{text.countriesTitle}</h4>
      <ol className="bar-list" aria-labelledby="analytics-countries">
        {countries.map((c) => (
          <li key={c.code}>
            <span className="bar-name">{c.name}</span>
            <span className="bar-value">{fillTemplate(text.countryValue, { count: formatCount(c.lookups), share: formatPercent(c.share) })}</span>
            {/* An SVG bar: sized by attributes, so the page's CSP needs no inline style. */}
            <svg className="bar" aria-hidden="true" width="100%" height="8"><rect width={`${(c.lookups / top) * 100}%`} height="8" rx="4" /></svg>
          </li>
        ))}
      </ol>
    </div>
  );
}
