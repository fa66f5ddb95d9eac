/**
 * How the analytics tab words its numbers: counts, shares, changes against the previous
 * period, distances, and the UTC labels of the activity chart. Pure and locale-fixed
 * (en-US), so the server-rendered and the browser's text agree.
 */
const COUNT = new Intl.NumberFormat('en-US');
const PERCENT = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 });
const SIGNED_PERCENT = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1, signDisplay: 'exceptZero' });
const SIGNED_POINTS = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1, signDisplay: 'exceptZero' });
const KM = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
const DAY = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric' });
const HOUR = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

export const formatCount = (n: number): string => COUNT.format(n);
/** A share or rate 0..1 as a percentage with at most one decimal. */
export const formatPercent = (x: number): string => PERCENT.format(x);
/** A relative change (0.25) as '+25%'; no change is '0%'. */
export const formatCountChange = (change: number): string => SIGNED_PERCENT.format(change);
/** A change of a rate (0.023) in percentage points: '+2.3'. */
export const formatPoints = (change: number): string => SIGNED_POINTS.format(change * 100);
export const formatKm = (km: number): string => KM.format(km);
/** The label of an activity bar: 'Mar 9' for a day, '14:00' for an hour (UTC). */
export const formatBucket = (iso: string, unit: 'hour' | 'day'): string => (unit === 'day' ? DAY : HOUR).format(new Date(iso));
