/**
 * The dashboard's SQL, one text for both databases: PostgreSQL runs it as written
 * (`$1` parameters), SQLite after `forSqlite` turns `$1` into `?1`. Every figure the tab
 * shows is one of these aggregates over the whole window (rollups plus the raw rows of
 * the window's last partial hour; see plan.ts), never a sample.
 */
import { DAY_MS, HOUR_MS, type PeriodWindow } from '../../lib/analytics.ts';
import { dayOf, segments, type Segments } from './plan.ts';
import type { AccuracyFigures, CorrectionRow, PeriodFigures, StoredLookup, WindowTotals } from './types.ts';

/** PostgreSQL's `$1` placeholders as SQLite's numbered `?1`. */
export const forSqlite = (sql: string): string => sql.replace(/\$(\d+)/g, '?$1');

/** Parameters shared by the window queries: $1-$2 days, $3-$4 hours, $5-$6 raw ms, $7 start ms, $8 bucket bound. */
const windowParams = (s: Segments): number[] => [...s.days, ...s.hours, ...s.raw, s.start, s.prevBound];

/** Lookups, VPN lookups, their rate and distinct networks of one window. */
const TOTALS = (prevColumn: Segments['prevColumn']) => `
SELECT COALESCE(SUM(n), 0) AS lookups, COALESCE(SUM(v), 0) AS vpn,
  CAST(SUM(v) AS DOUBLE PRECISION) / NULLIF(SUM(n), 0) AS vpn_rate, COALESCE(SUM(d), 0) AS networks
FROM (
  SELECT lookups AS n, vpn AS v, 0 AS d FROM analytics_lookup_days WHERE day >= $1 AND day < $2
  UNION ALL SELECT lookups, vpn, 0 FROM analytics_lookup_hours WHERE hour >= $3 AND hour < $4
  UNION ALL SELECT 1, CASE WHEN vpn_detected THEN 1 ELSE 0 END, CASE WHEN prev_at_ms IS NULL OR prev_at_ms < $7 THEN 1 ELSE 0 END
    FROM analytics_lookups WHERE at_ms >= $5 AND at_ms < $6
  UNION ALL SELECT 0, 0, n FROM analytics_network_days WHERE day >= $1 AND day < $2 AND prev_day < $8
  UNION ALL SELECT 0, 0, n FROM analytics_network_hours WHERE hour >= $3 AND hour < $4 AND ${prevColumn} < $8
) t`;

/** The 10 countries with most lookups, ties by code, each with its share of the window. */
const COUNTRIES = `
SELECT country_code AS code, MAX(country_name) AS name, SUM(n) AS lookups,
  CAST(SUM(n) AS DOUBLE PRECISION) / CAST(SUM(SUM(n)) OVER () AS DOUBLE PRECISION) AS share
FROM (
  SELECT country_code, country_name, lookups AS n FROM analytics_lookup_days WHERE day >= $1 AND day < $2
  UNION ALL SELECT country_code, country_name, lookups FROM analytics_lookup_hours WHERE hour >= $3 AND hour < $4
  UNION ALL SELECT country_code, country_name, 1 FROM analytics_lookups WHERE at_ms >= $5 AND at_ms < $6
) t
GROUP BY country_code HAVING SUM(n) > 0
ORDER BY lookups DESC, code ASC
LIMIT 10`;

/** Lookups per unit: $7 the unit in ms, $8 hours per unit (CASTs: SQLite binds numbers as REAL). */
const ACTIVITY = `
SELECT bucket, SUM(n) AS lookups FROM (
  SELECT CAST(day AS BIGINT) * 86400000 AS bucket, lookups AS n FROM analytics_lookup_days WHERE day >= $1 AND day < $2
  UNION ALL SELECT CAST(CAST(hour AS BIGINT) / $8 AS BIGINT) * $7, lookups FROM analytics_lookup_hours WHERE hour >= $3 AND hour < $4
  UNION ALL SELECT CAST(at_ms / $7 AS BIGINT) * $7, 1 FROM analytics_lookups WHERE at_ms >= $5 AND at_ms < $6
) t
GROUP BY bucket HAVING SUM(n) > 0
ORDER BY bucket`;

/**
 * How long before a correction a lookup of its unit must have been recorded for it to
 * count (and how long after, for clocks of two machines that differ a little). A recorded
 * lookup is the page's or the API's own lookup from a browser (storage/event.ts: mayRecord),
 * so a correction posted without ever loading the page from that network counts for nothing.
 */
export const LOOKUP_PROOF_MS = 60 * 60_000;
export const LOOKUP_PROOF_SLACK_MS = 60_000;

/**
 * Corrections of the window, per voting unit (IPv4 /24, IPv6 /32; storage/event.ts), overall
 * (network_type NULL) and per network type: each unit's own median distance over the window,
 * its ASN and how many corrections it rests on. accuracyOf then weighs the units. Only rows
 * from a unit with a recorded lookup within LOOKUP_PROOF_MS before them count; rows stored
 * before units and ASNs were (network_min NULL) never do. $3, $4: LOOKUP_PROOF_MS, _SLACK_MS.
 */
const ACCURACY = `
WITH c AS (
  SELECT network_type, ip_prefix, COALESCE(asn, '') AS asn, distance_km,
    ROW_NUMBER() OVER (PARTITION BY ip_prefix ORDER BY distance_km) AS i, COUNT(*) OVER (PARTITION BY ip_prefix) AS n,
    ROW_NUMBER() OVER (PARTITION BY network_type, ip_prefix ORDER BY distance_km) AS gi,
    COUNT(*) OVER (PARTITION BY network_type, ip_prefix) AS gn
  FROM analytics_corrections k WHERE at_ms >= $1 AND at_ms < $2 AND network_min IS NOT NULL
    AND EXISTS (SELECT 1 FROM analytics_lookups l WHERE l.network >= k.network_min AND l.network <= k.network_max
      AND l.at_ms >= k.at_ms - $3 AND l.at_ms <= k.at_ms + $4)
)
SELECT NULL AS network_type, ip_prefix, MIN(asn) AS asn, MAX(n) AS corrections,
  MIN(CASE WHEN i >= (n + 1) / 2 THEN distance_km END) AS km
FROM c GROUP BY ip_prefix
UNION ALL
SELECT network_type, ip_prefix, MIN(asn), MAX(gn), MIN(CASE WHEN gi >= (gn + 1) / 2 THEN distance_km END)
FROM c GROUP BY network_type, ip_prefix`;

/** One voting unit's own figure, as ACCURACY returns it. */
export interface UnitFigure { asn: string; corrections: number; km: number }

/** Float sums of 1/k may fall short of a whole by this much. */
const EPSILON = 1e-9;

/**
 * Median and 90th percentile of a group's units, each ASN's units sharing one vote: a unit
 * of an ASN with k units in the group weighs 1/k, so no ASN carries more of a figure than
 * any other, however many networks it brings. The value at quantile q is the smallest unit
 * figure whose cumulative weight, in ascending order, reaches q times the total (the number
 * of ASNs); with one unit per ASN this is the nearest rank, ceil(q * n).
 */
export function accuracyOf(units: readonly UnitFigure[]): AccuracyFigures {
  const perAsn = new Map<string, number>();
  for (const u of units) perAsn.set(u.asn, (perAsn.get(u.asn) ?? 0) + 1);
  const sorted = [...units].sort((a, b) => a.km - b.km);
  const at = (q: number): number | null => {
    const target = q * perAsn.size - EPSILON;
    let cumulative = 0;
    for (const u of sorted) {
      cumulative += 1 / perAsn.get(u.asn)!;
      if (cumulative >= target) return u.km;
    }
    return sorted.at(-1)?.km ?? null;
  };
  return {
    corrections: units.reduce((sum, u) => sum + u.corrections, 0),
    networks: units.length,
    asns: perAsn.size,
    medianKm: at(0.5),
    p90Km: at(0.9),
  };
}

/** The store's side of AnalyticsStore.checkCorrection (both databases, SQLite through forSqlite). */
export const CHECK_CORRECTION = `
SELECT EXISTS (SELECT 1 FROM analytics_corrections WHERE day = $1 AND ip_prefix = $2) AS duplicate,
  EXISTS (SELECT 1 FROM analytics_lookups WHERE network >= $3 AND network <= $4 AND at_ms >= $5 AND at_ms <= $6) AS looked_up`;

/** CHECK_CORRECTION's parameters for `row`. */
export const checkParams = (row: CorrectionRow): (string | number)[] =>
  [dayOf(row.at), row.ipPrefix, row.networkMin, row.networkMax, row.at - LOOKUP_PROOF_MS, row.at + LOOKUP_PROOF_SLACK_MS];

const LATEST = `
SELECT at_ms, ip_prefix, city, region, country_name, country_code, vpn_detected, risk_level, network_type
FROM analytics_lookups WHERE at_ms >= $1 AND at_ms < $2
ORDER BY at_ms DESC, id DESC LIMIT $3`;

/** Runs one query with parameters and returns its rows (each database's own driver). */
export type Run = (sql: string, params: readonly number[]) => Promise<Record<string, unknown>[]> | Record<string, unknown>[];

const num = (value: unknown): number => Number(value);
const numOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

function totalsOf(row: Record<string, unknown> | undefined): WindowTotals {
  return { lookups: num(row?.lookups ?? 0), vpn: num(row?.vpn ?? 0), vpnRate: numOrNull(row?.vpn_rate), networks: num(row?.networks ?? 0) };
}

const unitOf = (row: Record<string, unknown>): UnitFigure => ({ asn: String(row.asn), corrections: num(row.corrections), km: num(row.km) });

/**
 * The dashboard's aggregates of a period window through `run`. The queries are issued
 * together: PostgreSQL pipelines them on one connection (one round trip, not five).
 */
export async function queryFigures(run: Run, window: PeriodWindow): Promise<PeriodFigures> {
  const current = segments(window.start, window.end, window.unit);
  const previous = segments(window.previousStart, window.previousEnd, window.unit);
  const hoursPerUnit = window.unit === 'day' ? 24 : 1;
  const [now, before, countries, activity, accuracy] = await Promise.all([
    run(TOTALS(current.prevColumn), windowParams(current)),
    run(TOTALS(previous.prevColumn), windowParams(previous)),
    run(COUNTRIES, windowParams(current).slice(0, 6)),
    run(ACTIVITY, [...windowParams(current).slice(0, 6), window.unitMs, hoursPerUnit]),
    run(ACCURACY, [window.start, window.end, LOOKUP_PROOF_MS, LOOKUP_PROOF_SLACK_MS]),
  ]);
  const byType = new Map<string, UnitFigure[]>();
  for (const r of accuracy) {
    if (r.network_type === null) continue;
    const type = String(r.network_type);
    const list = byType.get(type);
    if (list) list.push(unitOf(r));
    else byType.set(type, [unitOf(r)]);
  }
  return {
    current: totalsOf(now[0]),
    previous: totalsOf(before[0]),
    countries: countries.map((r) => ({ code: String(r.code), name: String(r.name), lookups: num(r.lookups), share: num(r.share) })),
    activity: activity.map((r) => ({ start: num(r.bucket), lookups: num(r.lookups) })),
    accuracy: {
      ...accuracyOf(accuracy.filter((r) => r.network_type === null).map(unitOf)),
      byNetworkType: [...byType].map(([networkType, units]) => ({ networkType, ...accuracyOf(units) }))
        .sort((a, b) => b.networks - a.networks || b.corrections - a.corrections || a.networkType.localeCompare(b.networkType)),
    },
  };
}

/** The newest lookups of the current window. */
export async function queryLatest(run: Run, window: PeriodWindow, limit: number): Promise<StoredLookup[]> {
  const rows = await run(LATEST, [window.start, window.end, limit]);
  return rows.map((r) => ({
    at: num(r.at_ms),
    ipPrefix: String(r.ip_prefix),
    city: String(r.city),
    region: String(r.region),
    countryName: String(r.country_name),
    countryCode: String(r.country_code),
    vpnDetected: Boolean(r.vpn_detected),
    riskLevel: String(r.risk_level),
    networkType: String(r.network_type),
  }));
}

/**
 * Statements of the retention job, with their parameters: everything recorded before
 * `before`. Batch ids only guard retries, which happen within minutes: they go after a day.
 */
export function purgeStatements(before: number, now = Date.now()): [string, number[]][] {
  const hour = Math.floor(before / HOUR_MS);
  const day = Math.floor(before / DAY_MS);
  return [
    ['DELETE FROM analytics_lookups WHERE at_ms < $1', [before]],
    ['DELETE FROM analytics_corrections WHERE at_ms < $1', [before]],
    ['DELETE FROM analytics_batches WHERE at_ms < $1', [Math.max(before, now - DAY_MS)]],
    // Rollup rows go once their whole hour or day is past the cutoff.
    ['DELETE FROM analytics_lookup_hours WHERE hour < $1', [hour]],
    ['DELETE FROM analytics_network_hours WHERE hour < $1', [hour]],
    ['DELETE FROM analytics_lookup_days WHERE day < $1', [day]],
    ['DELETE FROM analytics_network_days WHERE day < $1', [day]],
  ];
}
