/**
 * The flood that poisoned the published accuracy, replayed end to end: a real server
 * (SQLite) behind a trusted loopback proxy, honest visitors correcting their place from
 * many networks (RIPE Atlas probes, tests/support/honest-visitors.ts), then 3,000
 * corrections from one client rotating IPv6 /64s, each claiming the other side of the
 * earth. The public figures (GET /api/analytics) must barely move. The rate limit is off:
 * this measures the accuracy rule, not the limit. The same floods at the store level, on
 * both databases: tests/analytics-store.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DashboardSchema, type Dashboard } from '../src/lib/analytics.ts';
import { startTestServer, type TestServer } from './support/http-harness.ts';
import { antipode, honestVisitors, relativeChange } from './support/honest-visitors.ts';

/** What the site's own page sends with a correction (src/stores/correction.ts). */
const SAME_ORIGIN = { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' };
/** The flood's client: Google's 2001:4860::/32, which the databases place in Montreal. */
const FLOOD_PLACE = { latitude: 45.5019, longitude: -73.5674 };

let server: TestServer | undefined;
afterEach(async () => { await server?.close(); server = undefined; });

async function post(s: TestServer, from: string, place: { latitude: number; longitude: number }): Promise<number> {
  const res = await fetch(`${s.url}/api/corrections`, { method: 'POST', headers: { ...SAME_ORIGIN, 'x-forwarded-for': from }, body: JSON.stringify(place) });
  await res.arrayBuffer();
  return res.status;
}

/** Posts every correction, 16 at a time; each must be recorded (202). */
async function postAll(s: TestServer, corrections: [string, { latitude: number; longitude: number }][]): Promise<void> {
  const statuses: number[] = [];
  for (let i = 0; i < corrections.length; i += 16) {
    statuses.push(...await Promise.all(corrections.slice(i, i + 16).map(([from, place]) => post(s, from, place))));
  }
  expect(statuses.filter((status) => status !== 202)).toEqual([]);
}

/** The accuracy everyone sees, once the queue has written everything. */
async function published(s: TestServer): Promise<Dashboard['accuracy']> {
  expect(await s.routes.analytics.flush()).toBe(true);
  const res = await fetch(`${s.url}/api/analytics?period=24h`, { headers: { 'x-forwarded-for': '8.8.8.8' } });
  return DashboardSchema.parse(await res.json()).accuracy;
}

/** 3,000 corrections from rotating /64s spread over `networks` /48s of 2001:4860::/32, each at the antipode. */
function flood(networks: number): [string, { latitude: number; longitude: number }][] {
  const far = antipode(FLOOD_PLACE.latitude, FLOOD_PLACE.longitude);
  return Array.from({ length: 3000 }, (_, i) => [`2001:4860:${(0x4860 + (i % networks)).toString(16)}:${i.toString(16)}::1`, far]);
}

/** Starts a server and records `count` honest visitors' corrections; returns the figures then. */
async function baseline(count: number): Promise<{ s: TestServer; before: Dashboard['accuracy'] }> {
  const s = server = await startTestServer({ TRUST_PROXY: 'loopback', RATE_LIMIT: '0' });
  const honest = honestVisitors(s.routes.engine, count);
  await postAll(s, honest.map((v) => [v.ip, { latitude: v.latitude, longitude: v.longitude }]));
  const before = await published(s);
  expect(before).toMatchObject({ corrections: count, networks: count });
  return { s, before };
}

describe('a flood of corrections through the API', () => {
  it('from one client rotating /64s inside one /48 counts once: the median of 60 honest networks moves by less than 10%', async () => {
    const { s, before } = await baseline(60);
    await postAll(s, flood(1));
    const after = await published(s);
    expect(after).toMatchObject({ corrections: 61, networks: 61 });
    expect(relativeChange(before.medianKm!, after.medianKm!)).toBeLessThan(0.1);
  }, 60_000);

  it('from rotating /64s spread over 30 /48s, a minority of 1,030 networks, moves the median by less than 10%', async () => {
    const { s, before } = await baseline(1000);
    await postAll(s, flood(30));
    const after = await published(s);
    expect(after).toMatchObject({ corrections: 1030, networks: 1030 });
    expect(relativeChange(before.medianKm!, after.medianKm!)).toBeLessThan(0.1);
  }, 60_000);

  it('keeps a later correction from the same network that day in place of the earlier one', async () => {
    const s = server = await startTestServer({ TRUST_PROXY: 'loopback', RATE_LIMIT: '0' });
    // Two addresses of one /24: Mountain View (8.8.8.8's place) corrected to Munich, then to itself.
    expect(await post(s, '8.8.8.8', { latitude: 48.13743, longitude: 11.57549 })).toBe(202);
    expect(await post(s, '8.8.8.9', { latitude: 37.422, longitude: -122.085 })).toBe(202);
    expect(await published(s)).toMatchObject({ corrections: 1, networks: 1, medianKm: 0 });
  });
});
