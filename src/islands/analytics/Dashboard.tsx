/** The loaded dashboard of the analytics tab (a chunk of its own: it loads when the tab does). */
import type { Dashboard as DashboardData } from '../../lib/analytics.ts';
import { AccuracyTable } from './AccuracyTable.tsx';
import { ActivityChart } from './ActivityChart.tsx';
import { CountryBars } from './CountryBars.tsx';
import { Figures } from './Figures.tsx';
import { RecentLookups } from './RecentLookups.tsx';
import type { AnalyticsText } from './text.ts';

export default function Dashboard({ data, text }: { data: DashboardData; text: AnalyticsText }) {
  return (
    <>
      <Figures data={data} text={text} />
      <div className="analytics-grid">
        <CountryBars countries={data.countries} text={text} />
        <ActivityChart data={data} text={text} />
      </div>
      <AccuracyTable accuracy={data.accuracy} text={text} />
      {data.recent && <RecentLookups recent={data.recent} period={data.period} text={text} />}
    </>
  );
}
