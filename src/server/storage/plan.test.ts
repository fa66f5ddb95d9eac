import { describe, expect, it, vi } from 'vitest';
import { HOUR_MS, DAY_MS } from '../../lib/analytics.ts';
import { firstPerNetworkDay, NO_PREVIOUS, planBatch, prevDayBucket, prevHourBucket, segments, type Neighbors } from './plan.ts';
import type { CorrectionRow, LookupRow } from './types.ts';

const H = 500_000; // an hour index (2027)
const at = (hour: number, minute = 0) => hour * HOUR_MS + minute * 60_000;

describe('previous-lookup buckets', () => {
  it.each([
    ['none', null, NO_PREVIOUS],
    ['same hour', at(H), H],
    ['48 hours before: still exact', at(H - 48), H - 48],
    ['49 hours before: too old to matter', at(H - 49), NO_PREVIOUS],
  ])('hourly bucket: %s', (_, prev, bucket) => {
    expect(prevHourBucket(at(H, 30), prev)).toBe(bucket);
  });
  it.each([
    ['none', null, NO_PREVIOUS],
    ['40 days before: still exact', at(H, 30) - 40 * DAY_MS, Math.floor(at(H, 30) / DAY_MS) - 40],
    ['41 days before: too old to matter', at(H, 30) - 41 * DAY_MS, NO_PREVIOUS],
  ])('daily bucket: %s', (_, prev, bucket) => {
    expect(prevDayBucket(at(H, 30), prev)).toBe(bucket);
  });
});

describe('"no previous lookup"', () => {
  // A network is new in a window [s, e) when its row's previous-lookup bucket is below the
  // window's bound, so "none" must sort below every real bucket, hour and day 0 included.
  // Imported afresh here: the bucket is a module constant, fixed when the module loads.
  it('counts a network with no earlier lookup as new even in a window starting at hour 1 or day 1', async () => {
    vi.resetModules();
    const plan = await import('./plan.ts');
    const hourly = plan.planBatch([row(at(1, 30), 7)], new Map([[7, { before: null, after: [] }]])).networkHours;
    expect(hourly).toHaveLength(1);
    expect(hourly[0]!.prevHour).toBeLessThan(plan.segments(at(1), at(1, 31), 'hour').prevBound);
    const daily = plan.planBatch([row(DAY_MS + at(1), 7)], new Map([[7, { before: null, after: [] }]])).networkDays;
    expect(daily).toHaveLength(1);
    expect(daily[0]!.prevDay).toBeLessThan(plan.segments(DAY_MS, DAY_MS + at(2), 'day').prevBound);
  });
});

describe('segments', () => {
  it('splits a day window into whole days, the hours of the last day, and its last partial hour', () => {
    const start = 20_000 * DAY_MS;
    const end = start + 6 * DAY_MS + 10 * HOUR_MS + 123;
    const s = segments(start, end, 'day');
    expect(s.days).toEqual([20_000, 20_006]);
    expect(s.hours).toEqual([20_006 * 24, 20_006 * 24 + 10]);
    expect(s.raw).toEqual([start + 6 * DAY_MS + 10 * HOUR_MS, end]);
    expect([s.prevColumn, s.prevBound]).toEqual(['prev_day', 20_000]);
  });
  it('splits an hour window into whole hours and the last partial hour', () => {
    const s = segments(at(H - 23), at(H, 30) + 1, 'hour');
    expect(s.days).toEqual([0, 0]);
    expect(s.hours).toEqual([H - 23, H]);
    expect(s.raw).toEqual([at(H), at(H, 30) + 1]);
    expect([s.prevColumn, s.prevBound]).toEqual(['prev_hour', H - 23]);
  });
});

const row = (when: number, network: number, countryCode = 'US'): LookupRow => ({
  at: when, network, ipPrefix: 'x', ipVersion: 'ipv4', countryCode, countryName: countryCode, region: 'R', city: 'C', asn: 'AS1',
  networkType: 'other', vpnDetected: false, riskLevel: 'low', locationSource: 'ip', accuracyTier: 'medium',
});

describe('planBatch', () => {
  it('chains a network\'s new rows after its latest stored one, in time order', () => {
    const rows = [row(at(H, 20), 7), row(at(H, 10), 7), row(at(H, 15), 8)];
    const plan = planBatch(rows, new Map<number, Neighbors>([[7, { before: at(H - 1), after: [] }], [8, { before: null, after: [] }]]));
    expect(plan.inserts.map((i) => i.prevAt)).toEqual([at(H, 10), at(H - 1), null]);
    expect(plan.updates).toEqual([]);
    expect(plan.lookupHours).toEqual([{ hour: H, countryCode: 'US', countryName: 'US', lookups: 3, vpn: 0 }]);
  });

  it('moves the previous lookup of a stored row when a late row lands before it', () => {
    const stored = { id: 41, at: at(H, 50), prevAt: at(H - 30) };
    const plan = planBatch([row(at(H, 5), 7)], new Map([[7, { before: at(H - 30), after: [stored] }]]));
    expect(plan.inserts[0]!.prevAt).toBe(at(H - 30));
    expect(plan.updates).toEqual([{ id: 41, prevAt: at(H, 5) }]);
    // The late row takes the stored row's "previous lookup 30 hours ago" bucket, and the
    // stored row moves to "previous lookup this hour": one more in that bucket, net.
    expect(plan.networkHours).toEqual([{ hour: H, prevHour: H, prevDay: Math.floor(at(H) / DAY_MS), n: 1 }]);
  });

  it('leaves a stored row alone when no new row lands before it, even if its previous one was purged', () => {
    const stored = { id: 9, at: at(H, 50), prevAt: at(H - 2000) };
    const plan = planBatch([row(at(H, 55), 7)], new Map([[7, { before: null, after: [stored] }]]));
    expect(plan.updates).toEqual([]);
    expect(plan.inserts[0]!.prevAt).toBe(at(H, 50));
  });

  it('puts a new row after a stored row of the same instant, as its larger id will', () => {
    const stored = { id: 12, at: at(H, 30), prevAt: at(H, 10) };
    const plan = planBatch([row(at(H, 30), 7)], new Map([[7, { before: at(H, 10), after: [stored] }]]));
    expect(plan.inserts[0]!.prevAt).toBe(at(H, 30));
    expect(plan.updates).toEqual([]);
  });

  it('updates no stored row whose previous lookup is already at the time of the late row before it', () => {
    // A stored lookup at 10 (the one `before` names) and one at 40 pointing at it; the
    // new row at 10 lands between them, at the very time the row at 40 already names.
    const stored = { id: 3, at: at(H, 40), prevAt: at(H, 10) };
    const plan = planBatch([row(at(H, 10), 7)], new Map([[7, { before: at(H, 10), after: [stored] }]]));
    expect(plan.inserts[0]!.prevAt).toBe(at(H, 10));
    expect(plan.updates).toEqual([]);
    expect(plan.networkHours).toEqual([{ hour: H, prevHour: H, prevDay: Math.floor(at(H) / DAY_MS), n: 1 }]);
  });

  it('refuses a batch with a network the store fetched no neighbours for', () => {
    expect(() => planBatch([row(at(H), 7), row(at(H), 8)], new Map([[7, { before: null, after: [] }]])))
      .toThrow('planBatch: no neighbours for network 8');
  });
});

describe('firstPerNetworkDay', () => {
  const DAY = 20_000 * DAY_MS; // midnight UTC
  const c = (name: string, when: number, ipPrefix = '203.0.113.0/24'): CorrectionRow =>
    ({ at: when, ipPrefix, distance_km: 1, country_code: 'US', network_type: name, nearer_source: 'tie', asn: 'AS64500', networkMin: 1, networkMax: 1 });
  it.each<[string, CorrectionRow[], string[]]>([
    ['nothing', [], []],
    ['one correction', [c('a', DAY)], ['a']],
    ['a later one of the network that day is a duplicate: the first stays', [c('a', DAY + 1), c('b', DAY + 2)], ['a']],
    ['an earlier one after it in the batch replaces it (rows may arrive out of order)', [c('a', DAY + 2), c('b', DAY + 1)], ['b']],
    ['of two at the same instant, the earlier in the batch', [c('a', DAY + 5), c('b', DAY + 5)], ['a']],
    ['the first and the last instant of a day are one day', [c('a', DAY), c('b', DAY + DAY_MS - 1)], ['a']],
    ['the last instant of a day and the first of the next are two', [c('a', DAY - 1), c('b', DAY)], ['a', 'b']],
    ['two networks the same day keep one each', [c('a', DAY, '203.0.113.0/24'), c('b', DAY, '2001:db8::/32')], ['a', 'b']],
  ])('%s', (_, rows, kept) => {
    expect(firstPerNetworkDay(rows).map((r) => r.network_type)).toEqual(kept);
  });
});
