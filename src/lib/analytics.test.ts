import { describe, expect, it, vi } from 'vitest';
import { countChange, DashboardSchema, maskedNetwork, periodWindow, rateChange, type Period } from './analytics.ts';

const t = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

describe('periodWindow', () => {
  it.each<[Period, string, string, string, string, number]>([
    // period, now, start, previous start, previous end (last included instant), units
    ['24h', '2026-03-15T10:30:00.000Z', '2026-03-14T11:00:00.000Z', '2026-03-13T11:00:00.000Z', '2026-03-14T10:30:00.000Z', 24],
    ['24h', '2026-03-15T10:00:00.000Z', '2026-03-14T11:00:00.000Z', '2026-03-13T11:00:00.000Z', '2026-03-14T10:00:00.000Z', 24],
    ['24h', '2026-03-15T10:59:59.999Z', '2026-03-14T11:00:00.000Z', '2026-03-13T11:00:00.000Z', '2026-03-14T10:59:59.999Z', 24],
    ['7d', '2026-03-15T10:30:00.000Z', '2026-03-09T00:00:00.000Z', '2026-03-02T00:00:00.000Z', '2026-03-08T10:30:00.000Z', 7],
    ['7d', '2026-03-15T00:00:00.000Z', '2026-03-09T00:00:00.000Z', '2026-03-02T00:00:00.000Z', '2026-03-08T00:00:00.000Z', 7],
    ['30d', '2026-03-15T23:59:59.999Z', '2026-02-14T00:00:00.000Z', '2026-01-15T00:00:00.000Z', '2026-02-13T23:59:59.999Z', 30],
  ])('%s at %s starts %s; the previous window runs from %s to %s', (period, now, start, previousStart, previousLast, units) => {
    const w = periodWindow(period, t(now));
    expect(iso(w.start)).toBe(start);
    expect(w.end).toBe(t(now) + 1);
    expect(iso(w.previousStart)).toBe(previousStart);
    expect(iso(w.previousEnd - 1)).toBe(previousLast);
    expect(w.buckets).toHaveLength(units);
    expect(iso(w.buckets[0]!)).toBe(start);
    // The last unit is the one `now` is in.
    expect(w.buckets.at(-1)! <= t(now) && t(now) < w.buckets.at(-1)! + w.unitMs).toBe(true);
  });
});

describe('maskedNetwork', () => {
  it.each([
    ['203.0.113.0/24', '203.0.113.x'],
    ['8.8.8.0/24', '8.8.8.x'],
    ['2001:db8:85a3::/48', '2001:db8:85a3::/48'],
    ['2001:4860:4860::/48', '2001:4860:4860::/48'],
  ])('shows %s as %s', (prefix, shown) => {
    expect(maskedNetwork(prefix)).toBe(shown);
  });
});

describe('changes against the previous period', () => {
  it.each([
    [3, 2, 0.5],
    [2, 2, 0],
    [1, 2, -0.5],
    [5, 0, null],
    [0, 1, -1],
  ])('a count from %d after %d changes by %s', (current, previous, change) => {
    expect(countChange(current, previous)).toBe(change);
  });
  it.each([
    [0.25, 0.2, 0.05],
    [0.2, 0.25, -0.05],
    [0.2, null, null],
    [null, 0.2, null],
  ])('a rate from %s after %s changes by %s points', (current, previous, change) => {
    const got = rateChange(current, previous);
    if (change === null) expect(got).toBeNull();
    else expect(got).toBeCloseTo(change, 12);
  });
});

describe('DashboardSchema: the /api/analytics answer as the browser reads it', () => {
  const figure = { value: 1, previous: 1, change: 0 };
  const answer = {
    period: '30d', unit: 'day', from: '2026-02-14', to: '2026-03-15', previousFrom: '2026-01-15', previousTo: '2026-02-13',
    lookups: figure, networks: figure, vpnRate: figure, countries: [], activity: [],
    accuracy: {
      corrections: 12, networks: 27, asns: 11, published: true, medianKm: 4.5, p90Km: 40,
      minimum: { networks: 20, asns: 10 }, note: null,
      byNetworkType: [{ networkType: 'mobile', corrections: 5, networks: 3, asns: 2, published: false, medianKm: null, p90Km: null }],
    },
    recent: null,
  };

  it('keeps the correction and network counts and distances, overall and per network type', () => {
    expect(DashboardSchema.parse(answer).accuracy).toEqual(answer.accuracy);
  });

  it('rejects an answer without the overall correction figures', () => {
    expect(DashboardSchema.safeParse({ ...answer, accuracy: { ...answer.accuracy, corrections: undefined } }).success).toBe(false);
  });

  // The schema is built once, when the module loads: imported afresh so that this test runs
  // the building of it.
  it.each([
    ['the overall correction count', { corrections: 'twelve' }],
    ['the overall network count', { networks: undefined }],
    ['the overall median', { medianKm: undefined }],
    ['the overall ASN count', { asns: '11' }],
    ['whether the figures are published', { published: undefined }],
    ['the minimum they are published from', { minimum: { networks: 20 } }],
    ['the note of unpublished figures', { note: undefined }],
    ['the correction count of a network type', { byNetworkType: [{ networkType: 'mobile', networks: 3, asns: 2, published: false, medianKm: null, p90Km: null }] }],
    ['the network count of a network type', { byNetworkType: [{ networkType: 'mobile', corrections: 5, asns: 2, published: false, medianKm: null, p90Km: null }] }],
    ['whether a network type is published', { byNetworkType: [{ networkType: 'mobile', corrections: 5, networks: 3, asns: 2, medianKm: null, p90Km: null }] }],
  ])('rejects an answer lacking or mistyping %s', async (_n, change) => {
    vi.resetModules();
    const fresh = await import('./analytics.ts');
    expect(fresh.DashboardSchema.safeParse(answer).success).toBe(true);
    expect(fresh.DashboardSchema.safeParse({ ...answer, accuracy: { ...answer.accuracy, ...change } }).success).toBe(false);
  });
});
