/**
 * `$analytics`: the dashboard of the analytics tab. Nothing loads with the page: the tab
 * asks for a period when it is first shown, and again when the period changes. Every
 * answer is validated against the API's schema; a failure leaves the tab's empty state.
 */
import { atom } from 'nanostores';
import { DEFAULT_PERIOD, type Dashboard, type Period } from '../lib/analytics.ts';
import { isDashboard } from '../lib/answer-guards.ts';
import { fetchJson, latestWins } from './api-fetch.ts';

export type AnalyticsState =
  | { status: 'idle'; period: Period }
  | { status: 'loading'; period: Period }
  | { status: 'loaded'; period: Period; data: Dashboard }
  | { status: 'failed'; period: Period };

export const $analytics = atom<AnalyticsState>({ status: 'idle', period: DEFAULT_PERIOD });

const requests = latestWins();

/** Loads the dashboard of `period`; an older answer arriving late is ignored. */
export async function loadAnalytics(period: Period): Promise<void> {
  const current = requests.next();
  $analytics.set({ status: 'loading', period });
  const answer = await fetchJson(`/api/analytics?period=${period}`, isDashboard, { cache: 'no-store' });
  if (!current()) return;
  $analytics.set(answer.ok ? { status: 'loaded', period, data: answer.data } : { status: 'failed', period });
}

/** Whether the period had anything to show (lookups or corrections). */
export const hasData = (d: Dashboard): boolean => (d.lookups.value ?? 0) > 0 || d.accuracy.corrections > 0;
