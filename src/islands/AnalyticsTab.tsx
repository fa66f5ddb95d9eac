/**
 * The analytics tab of `/`: a period selector and the dashboard of GET /api/analytics.
 * Nothing is fetched with the page: the first request goes out when the tab is shown
 * (its panel comes into view), the next ones when the period changes. Every number on
 * screen is one the server's SQL computed; the recent lookups and the CSV export appear
 * only when the server sent them (the operator).
 */
import { useEffect, useRef, useState } from 'react';
import { PERIODS, isPeriod } from '../lib/analytics.ts';
import { $analytics, hasData, loadAnalytics } from '../stores/analytics.ts';
import { AccuracyTable } from './analytics/AccuracyTable.tsx';
import { ActivityChart } from './analytics/ActivityChart.tsx';
import { CountryBars } from './analytics/CountryBars.tsx';
import { Figures } from './analytics/Figures.tsx';
import { RecentLookups } from './analytics/RecentLookups.tsx';
import type { AnalyticsText } from './analytics/text.ts';
import { useHydratedStore } from './use-lookup.ts';
import './analytics/analytics.css';

export default function AnalyticsTab({ text }: { text: AnalyticsText }) {
  const state = useHydratedStore($analytics);
  const root = useRef<HTMLElement>(null);
  const [shown, setShown] = useState(false);

  // The panel is hidden until its tab is chosen: load the first time it comes into view.
  useEffect(() => {
    const el = root.current;
    if (!el || shown) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) { setShown(true); observer.disconnect(); }
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [shown]);
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
          <p className="analytics-intro">{text.intro}</p>
        </div>
        <label className="period">
          {text.periodLabel}{' '}
          <select value={state.period} onChange={(e) => { if (isPeriod(e.target.value)) void loadAnalytics(e.target.value); }}>
            {PERIODS.map((p) => <option key={p} value={p}>{text.periods[p]}</option>)}
          </select>
        </label>
      </div>
      <p className="analytics-status" role="status">{message}</p>
      {data && (
        <>
          <Figures data={data} text={text} />
          <div className="analytics-grid">
            <CountryBars countries={data.countries} text={text} />
            <ActivityChart data={data} text={text} />
          </div>
          <AccuracyTable accuracy={data.accuracy} text={text} />
          {data.recent && <RecentLookups recent={data.recent} period={data.period} text={text} />}
        </>
      )}
    </section>
  );
}
