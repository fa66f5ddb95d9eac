/** How content numbers and dates read on the page (en-US, fixed so builds are reproducible). */

const COUNT = new Intl.NumberFormat('en-US');
const COMPACT = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });
const DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });
const USD = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** 45200 → '45,200'. */
export const formatCount = (n: number): string => COUNT.format(n);
/** 2240000 → '2.2M'. */
export const formatCompact = (n: number): string => COMPACT.format(n);
/** A content date (parsed as UTC midnight) → 'January 15, 2025'. */
export const formatDate = (d: Date): string => DATE.format(d);
/** A content date → '2025-01-15', for `<time datetime>` and structured data. */
export const isoDate = (d: Date): string => d.toISOString().slice(0, 10);
/** 3.99 → '$3.99'. */
export const formatUsd = (n: number): string => USD.format(n);

const PERCENT = new Intl.NumberFormat('en-US', { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 });
/** A measured share, 0.718 → '71.8%'. */
export const formatShare = (share: number): string => PERCENT.format(share);
/** A measured distance: one decimal under 100 km ('10.5 km'), whole above ('1,229 km'). */
export const formatKm = (km: number): string => (km < 100 ? `${km.toFixed(1)} km` : `${COUNT.format(Math.round(km))} km`);
