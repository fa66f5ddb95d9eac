/**
 * How a batch of lookups becomes rows and rollup changes, the same for both databases,
 * and which stored levels (daily and hourly rollups, raw rows) make up a period window.
 *
 * Rollups make every period query read a few thousand rows at most, even over a month
 * of lookups (bench/analytics.mjs measures it). Counts roll up by addition; "unique
 * networks" does not, so each row also keeps the time of the previous lookup from the
 * same network (`prev_at_ms`). A network is active in a window [s, e) exactly when one
 * of its lookups in the window has no earlier one at or after s, so the number of
 * distinct networks is the number of rows in the window with `prev_at_ms < s` (or none):
 * a plain count, which rolls up by (time bucket, bucket of the previous lookup).
 * Windows start on a whole hour (24h) or UTC day (7d, 30d), so the bucket of the previous
 * lookup decides `prev < s` exactly. Rows may arrive late or out of order (a queue that
 * waited out an outage, two workers): the plan then also moves the next row's
 * `prev_at_ms` and its rollup bucket, so the figures stay exact.
 * Corrections are kept one per voting unit and UTC day (firstPerNetworkDay).
 */
import { DAY_MS, HOUR_MS } from '../../lib/analytics.ts';
import type { CorrectionRow, LookupRow } from './types.ts';

/** A previous lookup older than this many hours (days) is "none" for the hourly (daily) bucket. */
const PREV_HOURS_KEPT = 48;
const PREV_DAYS_KEPT = 40;
/** Bucket of "no previous lookup" (or one too old to matter for any window). */
export const NO_PREVIOUS = -1;

export const hourOf = (ms: number): number => Math.floor(ms / HOUR_MS);
export const dayOf = (ms: number): number => Math.floor(ms / DAY_MS);

/**
 * The previous lookup's hour, as the 24h window compares it: exact within 48 hours (a row
 * in a 24-hour window is at most 23 hours after its start), NO_PREVIOUS beyond.
 */
export function prevHourBucket(at: number, prevAt: number | null): number {
  if (prevAt === null) return NO_PREVIOUS;
  const h = hourOf(prevAt);
  return h < hourOf(at) - PREV_HOURS_KEPT ? NO_PREVIOUS : h;
}

/** The previous lookup's UTC day: exact within 40 days (windows span at most 30), NO_PREVIOUS beyond. */
export function prevDayBucket(at: number, prevAt: number | null): number {
  if (prevAt === null) return NO_PREVIOUS;
  const d = dayOf(prevAt);
  return d < dayOf(at) - PREV_DAYS_KEPT ? NO_PREVIOUS : d;
}

/** Stored neighbours of a network around the first time it appears in a batch. */
export interface Neighbors {
  /** The latest stored lookup at or before that time (epoch ms), or null. */
  before: number | null;
  /** Stored lookups after that time, in (at, id) order. */
  after: { id: number; at: number; prevAt: number | null }[];
}

/** Additive changes to one rollup row. */
export interface CountDelta { hour: number; countryCode: string; countryName: string; lookups: number; vpn: number }
export interface NetworkHourDelta { hour: number; prevHour: number; prevDay: number; n: number }
export interface NetworkDayDelta { day: number; prevDay: number; n: number }

/** What one batch changes. */
export interface BatchPlan {
  /** The batch's rows in their order, each with its previous lookup's time. */
  inserts: { row: LookupRow; prevAt: number | null }[];
  /** Stored rows whose previous lookup is now one of the batch's. */
  updates: { id: number; prevAt: number }[];
  lookupHours: CountDelta[];
  /** The same counts by UTC day (`hour` holds the day index). */
  lookupDays: CountDelta[];
  networkHours: NetworkHourDelta[];
  networkDays: NetworkDayDelta[];
}

/** Per network: the earliest time it has in the batch (what the store fetches neighbours around). */
export function firstTimes(rows: readonly LookupRow[]): Map<number, number> {
  const first = new Map<number, number>();
  for (const row of rows) {
    const seen = first.get(row.network);
    if (seen === undefined || row.at < seen) first.set(row.network, row.at);
  }
  return first;
}

function addTo<T>(map: Map<string, T>, key: string, make: () => T, apply: (value: T) => void): void {
  let value = map.get(key);
  if (!value) map.set(key, value = make());
  apply(value);
}

/**
 * Plans a batch: chains each network's lookups (stored and new) in (time, id) order, new
 * rows after stored ones at the same time since they get larger ids, and turns the chain
 * into inserts, updates and rollup deltas. `neighbors` must hold every network of `rows`.
 */
export function planBatch(rows: readonly LookupRow[], neighbors: ReadonlyMap<number, Neighbors>): BatchPlan {
  const prevOf = new Map<LookupRow, number | null>();
  const updates: BatchPlan['updates'] = [];
  const hours = new Map<string, CountDelta>();
  const days = new Map<string, CountDelta>();
  const netHours = new Map<string, NetworkHourDelta>();
  const netDays = new Map<string, NetworkDayDelta>();

  const countNetwork = (at: number, prevAt: number | null, n: number) => {
    const hour = hourOf(at);
    const prevHour = prevHourBucket(at, prevAt);
    const day = dayOf(at);
    const prevDay = prevDayBucket(at, prevAt);
    addTo(netHours, `${hour}|${prevHour}|${prevDay}`, () => ({ hour, prevHour, prevDay, n: 0 }), (d) => { d.n += n; });
    addTo(netDays, `${day}|${prevDay}`, () => ({ day, prevDay, n: 0 }), (d) => { d.n += n; });
  };

  const byNetwork = new Map<number, LookupRow[]>();
  for (const row of rows) {
    const list = byNetwork.get(row.network);
    if (list) list.push(row);
    else byNetwork.set(row.network, [row]);
  }

  for (const [network, fresh] of byNetwork) {
    const around = neighbors.get(network);
    if (!around) throw new Error(`planBatch: no neighbours for network ${network}`);
    // Stable sort: rows of one network at the same time keep the batch's order, as their ids will.
    const mine = [...fresh].sort((a, b) => a.at - b.at);
    let prev = around.before;
    let i = 0;
    for (const stored of around.after) {
      const placed = i;
      while (i < mine.length && mine[i]!.at < stored.at) {
        prevOf.set(mine[i]!, prev);
        prev = mine[i]!.at;
        i++;
      }
      // A late row slipped in just before this stored one: it is now its previous lookup.
      // (Otherwise the stored row keeps its own, which may be a row the retention job deleted.)
      if (i > placed && stored.prevAt !== prev) {
        updates.push({ id: stored.id, prevAt: prev! });
        countNetwork(stored.at, stored.prevAt, -1);
        countNetwork(stored.at, prev, 1);
      }
      prev = stored.at;
    }
    for (; i < mine.length; i++) {
      prevOf.set(mine[i]!, prev);
      prev = mine[i]!.at;
    }
  }

  const inserts = rows.map((row) => {
    const prevAt = prevOf.get(row)!;
    countNetwork(row.at, prevAt, 1);
    const vpn = row.vpnDetected ? 1 : 0;
    const count = (bucket: number) => () => ({ hour: bucket, countryCode: row.countryCode, countryName: row.countryName, lookups: 0, vpn: 0 });
    const add = (d: CountDelta) => { d.lookups += 1; d.vpn += vpn; };
    addTo(hours, `${hourOf(row.at)}|${row.countryCode}`, count(hourOf(row.at)), add);
    addTo(days, `${dayOf(row.at)}|${row.countryCode}`, count(dayOf(row.at)), add);
    return { row, prevAt };
  });
  const nonZero = <T extends { n: number }>(map: Map<string, T>) => [...map.values()].filter((d) => d.n !== 0);
  return {
    inserts,
    updates,
    lookupHours: [...hours.values()],
    lookupDays: [...days.values()],
    networkHours: nonZero(netHours),
    networkDays: nonZero(netDays),
  };
}

/**
 * A batch's corrections as both stores write them: one per unit and UTC day, the earliest
 * (of equal times, the earlier in the batch): a later correction from a unit that day is a
 * duplicate, and is answered as one (storage/analytics.ts). Needed by PostgreSQL, whose one
 * INSERT ... ON CONFLICT may not touch a row twice; the stores' upserts then keep whichever
 * of stored and new is earlier, so rows arriving out of order (a queue that waited out an
 * outage, two workers) end the same.
 */
export function firstPerNetworkDay(rows: readonly CorrectionRow[]): CorrectionRow[] {
  const kept = new Map<string, CorrectionRow>();
  for (const row of rows) {
    const key = `${dayOf(row.at)}|${row.ipPrefix}`;
    const seen = kept.get(key);
    if (!seen || row.at < seen.at) kept.set(key, row);
  }
  return [...kept.values()];
}

/** The stored levels that make up a window [start, end): whole days, whole hours, then raw rows. */
export interface Segments {
  /** Day indices [from, to). */
  days: [number, number];
  /** Hour indices [from, to). */
  hours: [number, number];
  /** Epoch ms [from, to). */
  raw: [number, number];
  /** The window's start, epoch ms (raw rows compare their previous lookup with it). */
  start: number;
  /** Which previous-lookup bucket the hourly rollup compares, and with what. */
  prevColumn: 'prev_day' | 'prev_hour';
  prevBound: number;
}

/**
 * Splits a window whose start is a whole unit: whole days up to the day of `end` (for
 * day windows), then whole hours up to the hour of `end`, then raw rows up to `end`.
 */
export function segments(start: number, end: number, unit: 'hour' | 'day'): Segments {
  const endHour = hourOf(end);
  if (unit === 'day') {
    const endDay = dayOf(end);
    return {
      days: [dayOf(start), endDay],
      hours: [endDay * 24, endHour],
      raw: [endHour * HOUR_MS, end],
      start,
      prevColumn: 'prev_day',
      prevBound: dayOf(start),
    };
  }
  return { days: [0, 0], hours: [hourOf(start), endHour], raw: [endHour * HOUR_MS, end], start, prevColumn: 'prev_hour', prevBound: hourOf(start) };
}
