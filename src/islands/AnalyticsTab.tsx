/**
 * The analytics tab of `/`: a period selector and the dashboard of GET /api/analytics.
 * Nothing is fetched with the page: the first request goes out when the tab is shown
 * (its panel comes into view), the next ones when the period changes. Every number on
 * screen is one the server's SQL computed; the recent lookups and the CSV export appear
 * only when the server sent them (the operator).
 */
import { lazy, Suspense, useEffect, useRef } from 'react';
import { PERIODS, isPeriod } from '../lib/analytics.ts';
import { $analytics, hasData, loadAnalytics } from '../stores/analytics.ts';
import type { AnalyticsText } from './analytics/text.ts';
import { useFirstVisible, useHydratedStore } from './use-lookup.ts';
import { ISLAND_TEXT, KEPT_LOOKUP } from './island-text.ts';
import { fillTemplate } from '../lib/fill-template.ts';
import './analytics/analytics.css';

// The dashboard's components load with the first answer, not with the page.
const Dashboard = lazy(() => import('./analytics/Dashboard.tsx'));

export default function AnalyticsTab({ text = ISLAND_TEXT.analytics }: { text?: AnalyticsText }) {
  const state = useHydratedStore($analytics);
  const root = useRef<HTMLElement>(null);
  // The panel is hidden until its tab is chosen: load the first time it comes into view.
  const shown = useFirstVisible(root);
  useEffect(() => {
    if (shown && state.status === 'idle') void loadAnalytics(state.period);
  }, [shown, state]);

  const data = state.status === 'loaded' && hasData(state.data) ? state.data : null;
  const message = state.status === 'idle' ? text.waiting : state.status === 'loading' ? text.loading : data ? null : text.empty;
  return (
    <section ref={root} className="analytics" aria-labelledby="analytics-heading" aria-busy={state.status === 'loading'}>
      <div className="analytics-head">
        <div>
          <h3 id="analytics-heading">{text.heading}</h3>
          <p className="analytics-intro">{fillTemplate(text.intro, { kept: KEPT_LOOKUP })}</p>
        </div>
        <label className="period">
          {text.periodLabel}{' '}
          <select value={state.period} onChange={(e) => { if (isPeriod(e.target.value)) void loadAnalytics(e.target.value); }}>
            {PERIODS.map((p) => <option key={p} value={p}>{text.periods[p]}</option>)}
          </select>
        </label>
      </div>
      <p className="analytics-status" role="status">{message}</p>
      {data && <Suspense fallback={null}><Dashboard data={data} text={text} /></Suspense>}
    </section>
  );
}
