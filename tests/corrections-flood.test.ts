/**
 * Floods of corrections against the published accuracy, replayed end to end: a real server
 * (SQLite) behind a trusted loopback proxy, honest visitors who load the page and then
 * correct their place from many networks (RIPE Atlas probes, tests/support/honest-visitors.ts),
 * then an attacker who does the same from many networks of a few providers, each claiming
 * the other side of the earth. The public figures (GET /api/analytics) must barely move. The
 * rate limit is off: this measures the accuracy rule, not the limit. The same floods at the
 * store level, on both databases: tests/analytics-store.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ACCURACY_MINIMUM, DashboardSchema, type Dashboard } from '../src/lib/analytics.ts';
import { startTestServer, type TestServer } from './support/http-harness.ts';
import { antipode, honestVisitors, relativeChange } from './support/honest-visitors.ts';

/** What the site's own page sends with a correction (src/stores/correction.ts). */
const SAME_ORIGIN = { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' };
/** What a browser sends with the page's own lookup (recorded: storage/event.ts, mayRecord). */
const BROWSER = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36', 'sec-fetch-mode': 'cors' };
/** The flood's claim: the other side of the earth from Montreal, where the databases place 2001:4860::/32. */
const FAR = antipode(45.5019, -73.5674);

type Place = { latitude: number; longitude: number };
let server: TestServer | undefined;
afterEach(async () => { await server?.close(); server = undefined; });

async function visit(s: TestServer, from: string): Promise<void> {
  const res = await fetch(`${s.url}/api/lookup`, { headers: { ...BROWSER, 'x-forwarded-for': from } });
  expect(res.status).toBe(200);
  await res.arrayBuffer();
}

async function post(s: TestServer, from: string, place: Place): Promise<{ status: number; recorded: boolean }> {
  const res = await fetch(`${s.url}/api/corrections`, { method: 'POST', headers: { ...SAME_ORIGIN, 'x-forwarded-for': from }, body: JSON.stringify(place) });
  const body = await res.json() as { recorded: boolean };
  return { status: res.status, recorded: body.recorded };
}

/** Each client loads the page once, then posts its corrections, 16 at a time; returns how many were recorded. */
async function postAll(s: TestServer, corrections: [string, Place][]): Promise<number> {
  const visitors = [...new Set(corrections.map(([from]) => from))];
  for (let i = 0; i < visitors.length; i += 16) await Promise.all(visitors.slice(i, i + 16).map((from) => visit(s, from)));
  let recorded = 0;
  for (let i = 0; i < corrections.length; i += 16) {
    for (const r of await Promise.all(corrections.slice(i, i + 16).map(([from, place]) => post(s, from, place)))) {
      expect([200, 202]).toContain(r.status);
      if (r.recorded) recorded++;
    }
  }
  return recorded;
}

/** The accuracy everyone sees, once the queue has written everything. */
async function published(s: TestServer): Promise<Dashboard['accuracy']> {
  expect(await s.routes.analytics.flush()).toBe(true);
  const res = await fetch(`${s.url}/api/analytics?period=24h`, { headers: { 'x-forwarded-for': '8.8.8.8' } });
  return DashboardSchema.parse(await res.json()).accuracy;
}

/** Starts a server and records `count` honest visitors' corrections; returns the figures then. */
async function baseline(count: number): Promise<{ s: TestServer; before: Dashboard['accuracy'] }> {
  const s = server = await startTestServer({ TRUST_PROXY: 'loopback', RATE_LIMIT: '0' });
  const honest = honestVisitors(s.routes.engine, count);
  expect(await postAll(s, honest.map((v) => [v.ip, { latitude: v.latitude, longitude: v.longitude }]))).toBe(count);
  const before = await published(s);
  expect(before).toMatchObject({ corrections: count, networks: count, published: true });
  return { s, before };
}

/** 60 IPv4 /24s of two cloud providers' ranges (Google Cloud's 34.64.0.0/10, AWS's 52.0.0.0/10) and 50 /48s of Google's 2001:4860::/32. */
const MANY_NETWORKS: string[] = [
  ...Array.from({ length: 30 }, (_, i) => `34.64.${i}.1`),
  ...Array.from({ length: 30 }, (_, i) => `52.1.${i}.1`),
  ...Array.from({ length: 50 }, (_, i) => `2001:4860:${(0x100 + i).toString(16)}::1`),
];

describe('a flood of corrections through the API', () => {
  it('from 3,000 rotating /64s and /48s of one IPv6 /32 counts once: the median of 60 honest networks moves by less than 10%', async () => {
    const { s, before } = await baseline(60);
    const flood = Array.from({ length: 3000 }, (_, i): [string, Place] => [`2001:4860:${(0x4860 + (i % 30)).toString(16)}:${i.toString(16)}::1`, FAR]);
    expect(await postAll(s, flood)).toBe(1);
    const after = await published(s);
    expect(after).toMatchObject({ corrections: 61, networks: 61 });
    expect(relativeChange(before.medianKm!, after.medianKm!)).toBeLessThan(0.1);
  }, 60_000);

  it('from 60 /24s and 50 /48s of three providers, each looked up first, moves the median of 40 honest networks by less than 10%', async () => {
    const { s, before } = await baseline(40);
    expect(await postAll(s, MANY_NETWORKS.map((from) => [from, FAR]))).toBe(61);
    const after = await published(s);
    // 61 more networks (the /48s are one /32), but only as many more votes as providers.
    expect(after).toMatchObject({ corrections: 101, networks: 101, published: true });
    expect(after.asns - before.asns).toBeLessThanOrEqual(3);
    expect(relativeChange(before.medianKm!, after.medianKm!)).toBeLessThan(0.1);
  }, 60_000);

  it('keeps the first correction from a network that day, and answers the next as a duplicate', async () => {
    const s = server = await startTestServer({ TRUST_PROXY: 'loopback', RATE_LIMIT: '0' });
    await visit(s, '8.8.8.8');
    // Two addresses of one /24: Mountain View (8.8.8.8's place) corrected to itself, then to Munich.
    expect(await post(s, '8.8.8.8', { latitude: 37.422, longitude: -122.085 })).toEqual({ status: 202, recorded: true });
    expect(await post(s, '8.8.8.9', { latitude: 48.13743, longitude: 11.57549 })).toEqual({ status: 200, recorded: false });
    expect(await published(s)).toMatchObject({ corrections: 1, networks: 1 });
  });

  it('publishes no figure below the minimum of networks and providers, says why in words, and publishes from it on', async () => {
    const s = server = await startTestServer({ TRUST_PROXY: 'loopback', RATE_LIMIT: '0' });
    const honest = honestVisitors(s.routes.engine, ACCURACY_MINIMUM.networks);
    const correction = (v: (typeof honest)[number]): [string, Place] => [v.ip, { latitude: v.latitude, longitude: v.longitude }];
    expect(await postAll(s, honest.slice(0, -1).map(correction))).toBe(ACCURACY_MINIMUM.networks - 1);
    const few = await published(s);
    expect(few).toMatchObject({ networks: ACCURACY_MINIMUM.networks - 1, published: false, medianKm: null, p90Km: null, minimum: ACCURACY_MINIMUM });
    expect(few.asns).toBeGreaterThanOrEqual(ACCURACY_MINIMUM.asns);
    expect(few.note).toMatch(/^Not enough corrections yet: .* at least 20 networks of at least 10 different providers \(ASNs\); this period has 19 networks of \d+\.$/);
    expect(few.byNetworkType.every((g) => !g.published && g.medianKm === null)).toBe(true);
    expect(await postAll(s, honest.slice(-1).map(correction))).toBe(1);
    const enough = await published(s);
    expect(enough).toMatchObject({ networks: ACCURACY_MINIMUM.networks, published: true, note: null });
    expect(enough.medianKm).not.toBeNull();
  }, 60_000);
});
