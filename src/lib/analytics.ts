/**
 * The analytics dashboard's shared rules: which periods exist and which instants each
 * covers, how a stored network prefix is shown, how a change against the previous
 * period is worded as a number, and the shape of `GET /api/analytics` (validated by the
 * tab, built by src/server/handlers/analytics-api.ts). Pure: used by the server and the browser.
 */
import * as z from 'zod/mini';

export const PERIODS = ['24h', '7d', '30d'] as const;
export type Period = (typeof PERIODS)[number];
export const DEFAULT_PERIOD: Period = '7d';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** How a period is counted: 24 hours for 24h, UTC calendar days for 7d and 30d. */
export const PERIOD_UNITS: Readonly<Record<Period, { unit: 'hour' | 'day'; count: number }>> = {
  '24h': { unit: 'hour', count: 24 },
  '7d': { unit: 'day', count: 7 },
  '30d': { unit: 'day', count: 30 },
};

/** The instants a period covers, as half-open ranges [start, end) of epoch milliseconds. */
export interface PeriodWindow {
  period: Period;
  unit: 'hour' | 'day';
  unitMs: number;
  /** Start of the first unit: `count - 1` whole units before the current one. */
  start: number;
  /** Just after `now`: the current unit counts as far as it has gone. */
  end: number;
  /** The same stretch one period earlier, cut at the same point of its last unit. */
  previousStart: number;
  previousEnd: number;
  /** Start of each unit of the period, oldest first (the activity chart's bars). */
  buckets: number[];
}

/** Whether a query parameter names a period. */
export const isPeriod = (value: string): value is Period => (PERIODS as readonly string[]).includes(value);

/**
 * The window of `period` at `now`: the current UTC hour (24h) or UTC day (7d, 30d) and
 * the `count - 1` before it; the previous window is as long, so a change compares like
 * with like even in the middle of a day.
 */
export function periodWindow(period: Period, now: number): PeriodWindow {
  const { unit, count } = PERIOD_UNITS[period];
  const unitMs = unit === 'hour' ? HOUR_MS : DAY_MS;
  const start = Math.floor(now / unitMs) * unitMs - (count - 1) * unitMs;
  const end = now + 1;
  const length = count * unitMs;
  const buckets = Array.from({ length: count }, (_, i) => start + i * unitMs);
  return { period, unit, unitMs, start, end, previousStart: start - length, previousEnd: end - length, buckets };
}

/**
 * A stored network prefix as the recent list and the CSV show it: IPv4 /24 as
 * `203.0.113.x`, IPv6 /48 as `2001:db8:85a3::/48`. Anything else is returned as it is.
 */
export function maskedNetwork(prefix: string): string {
  const v4 = /^(\d{1,3}\.\d{1,3}\.\d{1,3})\.0\/24$/.exec(prefix);
  return v4 ? `${v4[1]}.x` : prefix;
}

/** Relative change of a count (0.25 = +25%); null when the previous period has none. */
export function countChange(current: number, previous: number): number | null {
  return previous > 0 ? (current - previous) / previous : null;
}

/** Change of a rate in points (0.02 = +2 points); null when either period has no lookups. */
export function rateChange(current: number | null, previous: number | null): number | null {
  return current === null || previous === null ? null : current - previous;
}

/** One headline figure and how it moved against the previous period. */
export const FigureSchema = z.object({
  /** null for a rate over no lookups. */
  value: z.nullable(z.number()),
  previous: z.nullable(z.number()),
  /** Counts: relative (0.25 = +25%). Rates: points (0.02 = +2 points). null: nothing to compare with. */
  change: z.nullable(z.number()),
});
export type Figure = z.infer<typeof FigureSchema>;

/**
 * Accuracy from corrections, over networks, not rows: each network's own median distance
 * first, then the median and 90th percentile of those, each ASN's networks sharing one vote
 * (src/server/storage/queries.ts). Published only from ACCURACY_MINIMUM on.
 */
const AccuracyGroupSchema = z.object({
  corrections: z.number(),
  /** Networks (IPv4 /24, IPv6 /32) the figures rest on. */
  networks: z.number(),
  /** Distinct ASNs among those networks. */
  asns: z.number(),
  /** Whether the group reaches ACCURACY_MINIMUM; when not, both figures are null. */
  published: z.boolean(),
  /** Middle per-network distance (the lower middle one for an even count), km. */
  medianKm: z.nullable(z.number()),
  /** 90th percentile of the per-network distances by nearest rank, km. */
  p90Km: z.nullable(z.number()),
});

/**
 * The fewest distinct networks and distinct ASNs a group of corrections must come from for
 * its median and 90th percentile to be published: below it a few networks, or one provider's,
 * could write the figure themselves. The counts of corrections, networks and ASNs are shown
 * whatever they are.
 */
export const ACCURACY_MINIMUM = { networks: 20, asns: 10 } as const;

/** One of the 10 most recent lookups, as only operators see it. */
export const RecentLookupSchema = z.object({
  network: z.string(),
  city: z.string(),
  region: z.string(),
  country: z.string(),
  countryCode: z.string(),
  vpnDetected: z.boolean(),
  riskLevel: z.string(),
  networkType: z.string(),
  at: z.string(),
});
export type RecentLookup = z.infer<typeof RecentLookupSchema>;

/** The answer of GET /api/analytics. */
export const DashboardSchema = z.object({
  period: z.enum(PERIODS),
  unit: z.enum(['hour', 'day']),
  from: z.string(),
  to: z.string(),
  previousFrom: z.string(),
  previousTo: z.string(),
  lookups: FigureSchema,
  networks: FigureSchema,
  vpnRate: FigureSchema,
  /** Up to 10, most lookups first, ties by country code. */
  countries: z.array(z.object({ code: z.string(), name: z.string(), lookups: z.number(), share: z.number() })),
  /** One entry per unit of the period, oldest first. */
  activity: z.array(z.object({ start: z.string(), lookups: z.number() })),
  // z.extend, not a spread of `.shape`: a bundler keeps a spread (it may run getters), and zod with it.
  accuracy: z.extend(AccuracyGroupSchema, {
    /** The ACCURACY_MINIMUM this server publishes from. */
    minimum: z.object({ networks: z.number(), asns: z.number() }),
    /** Unpublished: why, in words ("Not enough corrections yet: ..."); null when published. */
    note: z.nullable(z.string()),
    byNetworkType: z.array(z.extend(AccuracyGroupSchema, { networkType: z.string() })),
  }),
  /** The 10 most recent lookups; null when this caller may not see them. */
  recent: z.nullable(z.array(RecentLookupSchema)),
});
export type Dashboard = z.infer<typeof DashboardSchema>;
