/**
 * Contract of the analytics store: the same cases against SQLite and PostgreSQL
 * (TEST_DATABASE_URL; each test in its own schema). Period boundaries, deltas, unique
 * networks, top-country order and ties, masking, CSV quoting, accuracy percentiles over
 * networks with one vote per ASN, one correction per unit and day (the first), corrections
 * counted only after a lookup from their unit, floods of corrections, an upgrade of a
 * database holding corrections without networks, retention, retried batches, and random
 * rows written out of order checked against a brute-force count of the same rows.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import postgres from 'postgres';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS, PERIODS, periodWindow, type Period } from '../src/lib/analytics.ts';
import { parseIp } from '../src/lib/ip-address.ts';
import { analyticsCsv } from '../src/server/handlers/analytics-api.ts';
import { createAnalytics, type Analytics } from '../src/server/storage/analytics.ts';
import { correctionRow, networkOf } from '../src/server/storage/event.ts';
import { LOOKUP_PROOF_MS, LOOKUP_PROOF_SLACK_MS } from '../src/server/storage/queries.ts';
import { engineFrom } from '../src/server/lookup/engine.ts';
import { openSources } from '../src/server/data/sources.ts';
import { openPostgresStore } from '../src/server/storage/postgres-store.ts';
import { MIGRATIONS } from '../src/server/storage/sqlite-db.ts';
import { ANALYTICS_FILE } from '../src/server/data/layout.ts';
import { openSqliteStore } from '../src/server/storage/sqlite-store.ts';
import type { AnalyticsStore, CorrectionRow, LookupRow } from '../src/server/storage/types.ts';
import { seededRandom } from '../bench/seeded-random.mjs';
import { honestVisitors, relativeChange, type HonestVisitor } from './support/honest-visitors.ts';
import { schemaUrl, testDatabase, uniqueSchema } from './support/postgres.ts';

const NOW = Date.parse('2026-03-15T10:30:00.000Z');
const database = testDatabase();

/** A correction as the first schema stored it: no network, no day. */
type LegacyCorrection = Omit<CorrectionRow, 'ipPrefix' | 'asn' | 'networkMin' | 'networkMax'>;
type Opened = { store: AnalyticsStore; cleanup: () => Promise<void> };
interface Backend {
  name: string;
  open: () => Promise<Opened>;
  /** Opens a database created by the first schema version and holding `rows`: the store upgrades it. */
  openUpgraded: (rows: LegacyCorrection[]) => Promise<Opened>;
}
const BACKENDS: Backend[] = [
  {
    name: 'sqlite',
    open: async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'analytics-contract-'));
      return { store: await openSqliteStore(dir), cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
    },
    openUpgraded: async (rows) => {
      const dir = mkdtempSync(path.join(tmpdir(), 'analytics-upgrade-'));
      const db = new DatabaseSync(path.join(dir, ANALYTICS_FILE));
      db.exec(MIGRATIONS[0]!);
      db.exec('PRAGMA user_version = 1');
      const insert = db.prepare('INSERT INTO analytics_corrections (at_ms, distance_km, country_code, network_type, nearer_source) VALUES (?, ?, ?, ?, ?)');
      for (const r of rows) insert.run(r.at, r.distance_km, r.country_code, r.network_type, r.nearer_source);
      db.close();
      return { store: await openSqliteStore(dir), cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
    },
  },
  {
    name: 'postgres',
    open: async () => {
      const { url, drop } = schemaUrl(database.get(), uniqueSchema('contract'));
      return { store: await openPostgresStore(url), cleanup: drop };
    },
    openUpgraded: async (rows) => {
      const schema = uniqueSchema('upgrade');
      const { url, drop } = schemaUrl(database.get(), schema);
      const sql = postgres(url, { max: 1, onnotice: () => undefined });
      try {
        // As postgres-store.ts's migrate() left a database before the second file existed.
        const [first] = readdirSync('supabase/migrations').filter((f) => f.endsWith('.sql')).sort();
        await sql`CREATE SCHEMA ${sql(schema)}`;
        await sql.unsafe(readFileSync(path.join('supabase/migrations', first!), 'utf8'));
        await sql`CREATE TABLE analytics_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`;
        await sql`INSERT INTO analytics_migrations (version) VALUES (${first!.replace(/\.sql$/, '')})`;
        for (const r of rows) {
          await sql`INSERT INTO analytics_corrections (at_ms, distance_km, country_code, network_type, nearer_source)
            VALUES (${r.at}, ${r.distance_km}, ${r.country_code}, ${r.network_type}, ${r.nearer_source})`;
        }
      } finally {
        await sql.end();
      }
      return { store: await openPostgresStore(url), cleanup: drop };
    },
  },
];

let uuid = 0;
const batchId = () => `batch-${process.pid}-${++uuid}`;

function lookup(at: number, over: Partial<LookupRow> & { ip?: string } = {}): LookupRow {
  const { prefix, key } = networkOf(parseIp(over.ip ?? '198.51.100.7')!);
  return {
    at, network: key, ipPrefix: prefix, ipVersion: prefix.includes(':') ? 'ipv6' : 'ipv4',
    countryCode: 'US', countryName: 'United States', region: 'Virginia', city: 'Ashburn', asn: 'AS64500',
    networkType: 'datacenter', vpnDetected: false, riskLevel: 'low', locationSource: 'ip', accuracyTier: 'medium',
    ...over,
  };
}

let networks = 0;
/** A network of its own: a new IPv4 /24 each call. */
const ownNetwork = () => { networks++; return `10.${(networks >> 8) & 255}.${networks & 255}.0/24`; };
/** A correction, from a unit of its own unless `from` names an address or prefix inside one; all of one ASN unless told. */
const correction = (at: number, km: number, networkType = 'mobile', from = ownNetwork(), asn = 'AS64500'): CorrectionRow =>
  correctionRow(parseIp(from.split('/')[0]!)!, { distance_km: km, country_code: 'US', network_type: networkType, nearer_source: 'tie' }, at, asn);
/** The lookups that make `rows` count: one from each row's unit, at the row's time. */
const proofs = (rows: readonly CorrectionRow[]): LookupRow[] => rows.map((c) => lookup(c.at, { network: c.networkMin, ipPrefix: c.ipPrefix }));

/** Realistic honest corrections (tests/support/honest-visitors.ts), loaded once for the flood cases. */
let honest: HonestVisitor[] = [];
beforeAll(async () => {
  honest = honestVisitors(engineFrom((await openSources()).sources), 1000);
}, 60_000);
const honestRow = (v: HonestVisitor, at: number): CorrectionRow =>
  correctionRow(parseIp(v.ip)!, { distance_km: v.distanceKm, country_code: v.countryCode, network_type: v.networkType, nearer_source: 'tie' }, at, v.asn);
/** The flood: 3,000 corrections in one day from `networks` IPv6 /48s of one /32, each about 20,000 km off, written as the queue writes (1,000 a batch). */
function flood(networks: number): CorrectionRow[] {
  return Array.from({ length: 3000 }, (_, i) => correction(NOW - 1000 - i * 1000, 20_000 - (i % 7), 'business', `2001:db8:${(i % networks).toString(16)}::1`, 'AS64511'));
}
/**
 * The attack of many networks: 60 IPv4 /24s of a hosting provider's two ASNs and 50 IPv6
 * /48s of a third ASN's /32, one correction each, each about 20,000 km off.
 */
function manyNetworks(): CorrectionRow[] {
  return [
    ...Array.from({ length: 60 }, (_, i) => correction(NOW - 1000 - i * 1000, 20_000 - (i % 7), 'datacenter', `100.${64 + (i % 2)}.${i}.1`, i % 2 ? 'AS64512' : 'AS64513')),
    ...Array.from({ length: 50 }, (_, i) => correction(NOW - 1000 - i * 1000, 19_990, 'datacenter', `2001:db8:${i.toString(16)}::1`, 'AS64514')),
  ];
}

describe.each(BACKENDS)('$name store', (backend) => {
  const { name, open } = backend;
  let store: AnalyticsStore;
  let cleanup: () => Promise<void>;
  const enabled = name === 'sqlite' || !database.skip;

  beforeEach(async () => {
    if (!enabled) return;
    ({ store, cleanup } = await open());
  });
  afterEach(async () => {
    if (!enabled) return;
    await store.close();
    await cleanup();
  });
  /** Writes rows; corrections come with a lookup of their unit (proofs) unless `proven` is false. */
  const write = (lookups: LookupRow[], corrections: CorrectionRow[] = [], proven = true) =>
    store.write({ id: batchId(), lookups: proven ? [...lookups, ...proofs(corrections)] : lookups, corrections });
  const figures = (period: Period, now = NOW) => store.figures(periodWindow(period, now));

  // Each case's row is written 2^i times, so the totals say exactly which cases counted.
  const BOUNDARIES: [Period, [string, number, 'current' | 'previous' | 'neither'][]][] = [
    ['24h', [
      ['the first instant of the window (11:00 yesterday)', Date.parse('2026-03-14T11:00:00.000Z'), 'current'],
      ['just before it: after the previous window, which stops at 10:30', Date.parse('2026-03-14T10:59:59.999Z'), 'neither'],
      ['now', NOW, 'current'],
      ['just after now', NOW + 1, 'neither'],
      ['the first instant of the previous window', Date.parse('2026-03-13T11:00:00.000Z'), 'previous'],
      ['just before it', Date.parse('2026-03-13T10:59:59.999Z'), 'neither'],
      ['24 hours before now: the last instant of the previous window', NOW - 24 * HOUR_MS, 'previous'],
      ['just after it', NOW - 24 * HOUR_MS + 1, 'neither'],
    ]],
    ['7d', [
      ['the first instant of the window (midnight 6 days ago)', Date.parse('2026-03-09T00:00:00.000Z'), 'current'],
      ['just before it', Date.parse('2026-03-08T23:59:59.999Z'), 'neither'],
      ['7 days before now: the last instant of the previous window', NOW - 7 * DAY_MS, 'previous'],
      ['just after it', NOW - 7 * DAY_MS + 1, 'neither'],
      ['the first instant of the previous window', Date.parse('2026-03-02T00:00:00.000Z'), 'previous'],
      ['just before it', Date.parse('2026-03-01T23:59:59.999Z'), 'neither'],
      ['now', NOW, 'current'],
    ]],
    ['30d', [
      ['the first instant of the window', Date.parse('2026-02-14T00:00:00.000Z'), 'current'],
      ['just before it: after the previous window, which stops at 10:30', Date.parse('2026-02-13T23:59:59.999Z'), 'neither'],
      ['30 days before now: the last instant of the previous window', NOW - 30 * DAY_MS, 'previous'],
      ['just after it', NOW - 30 * DAY_MS + 1, 'neither'],
      ['the first instant of the previous window', Date.parse('2026-01-15T00:00:00.000Z'), 'previous'],
      ['just before it', Date.parse('2026-01-14T23:59:59.999Z'), 'neither'],
    ]],
  ];
  it.skipIf(!enabled).each(BOUNDARIES)('counts each row of the %s table in the right window', async (period, cases) => {
    const rows: LookupRow[] = [];
    cases.forEach(([, at], i) => { for (let k = 0; k < 2 ** i; k++) rows.push(lookup(at, { ip: `192.0.${i}.1` })); });
    await write(rows);
    const f = await figures(period);
    const expected = (where: string) => cases.reduce((sum, [, , w], i) => sum + (w === where ? 2 ** i : 0), 0);
    expect(f.current.lookups).toBe(expected('current'));
    expect(f.previous.lookups).toBe(expected('previous'));
    expect(f.current.networks).toBe(cases.filter(([, , w]) => w === 'current').length);
    expect(f.previous.networks).toBe(cases.filter(([, , w]) => w === 'previous').length);
  });

  it.skipIf(!enabled)('counts a network once per window, in both windows when it was seen in both', async () => {
    const day = (n: number) => NOW - n * DAY_MS;
    await write([
      lookup(day(0), { ip: '203.0.113.5' }), lookup(day(1), { ip: '203.0.113.200' }), lookup(day(9), { ip: '203.0.113.9' }),
      lookup(day(2), { ip: '2001:db8:85a3::1' }), lookup(day(2), { ip: '2001:db8:85a3:ffff::2' }),
      lookup(day(10), { ip: '2001:db8:85a4::1' }),
    ]);
    const f = await figures('7d');
    expect(f.current).toMatchObject({ lookups: 4, networks: 2 });
    expect(f.previous).toMatchObject({ lookups: 2, networks: 2 });
  });

  it.skipIf(!enabled)('gives VPN rates and the previous window\'s figures; an empty previous window has none', async () => {
    await write([
      lookup(NOW - HOUR_MS, { vpnDetected: true }), lookup(NOW - 2 * HOUR_MS), lookup(NOW - 3 * HOUR_MS), lookup(NOW - 4 * HOUR_MS),
      lookup(NOW - 25 * HOUR_MS, { vpnDetected: true }), lookup(NOW - 26 * HOUR_MS),
    ]);
    const f = await figures('24h');
    expect(f.current).toEqual({ lookups: 4, vpn: 1, vpnRate: 0.25, networks: 1 });
    expect(f.previous).toEqual({ lookups: 2, vpn: 1, vpnRate: 0.5, networks: 1 });
    const later = await figures('24h', NOW + 30 * DAY_MS);
    expect(later.current).toEqual({ lookups: 0, vpn: 0, vpnRate: null, networks: 0 });
  });

  it.skipIf(!enabled)('lists the top 10 countries by lookups, ties by country code, with their shares', async () => {
    const rows: LookupRow[] = [];
    const counts: [string, number][] = [['FR', 2], ['DE', 5], ['BR', 2], ['JP', 1], ['AR', 2], ['CA', 1], ['IT', 1], ['NL', 1], ['SE', 1], ['ES', 1], ['PL', 1], ['AU', 2]];
    for (const [code, n] of counts) for (let i = 0; i < n; i++) rows.push(lookup(NOW - (i + 1) * 60_000, { countryCode: code, countryName: `Name ${code}` }));
    await write(rows);
    const { countries } = await figures('24h');
    expect(countries.map((c) => `${c.code}:${c.lookups}`)).toEqual(['DE:5', 'AR:2', 'AU:2', 'BR:2', 'FR:2', 'CA:1', 'ES:1', 'IT:1', 'JP:1', 'NL:1']);
    expect(countries[0]).toEqual({ code: 'DE', name: 'Name DE', lookups: 5, share: 5 / 20 });
  });

  it.skipIf(!enabled)('counts lookups per hour for 24h and per UTC day for 7d', async () => {
    await write([lookup(NOW - 10 * 60_000), lookup(NOW - 20 * 60_000), lookup(NOW - 2 * HOUR_MS), lookup(NOW - 3 * DAY_MS)]);
    const hourly = await figures('24h');
    expect(hourly.activity).toEqual([
      { start: Date.parse('2026-03-15T08:00:00.000Z'), lookups: 1 },
      { start: Date.parse('2026-03-15T10:00:00.000Z'), lookups: 2 },
    ]);
    const daily = await figures('7d');
    expect(daily.activity).toEqual([
      { start: Date.parse('2026-03-12T00:00:00.000Z'), lookups: 1 },
      { start: Date.parse('2026-03-15T00:00:00.000Z'), lookups: 3 },
    ]);
  });

  it.skipIf(!enabled)('measures accuracy from corrections: median and p90 by nearest rank, overall and per network type', async () => {
    const kms = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 100];
    await write([], [
      ...kms.map((km) => correction(NOW - 60_000, km, 'mobile')),
      correction(NOW - 60_000, 40, 'business'), correction(NOW - 60_000, 20, 'business'),
      correction(NOW - 8 * DAY_MS, 5000, 'mobile'), // before the 7d window
    ]);
    const { accuracy } = await figures('7d');
    // 13 networks of one correction each: median rank 7, p90 rank 12 (ceil(11.7)).
    expect(accuracy).toMatchObject({ corrections: 13, networks: 13, medianKm: 7, p90Km: 40 });
    expect(accuracy.byNetworkType).toEqual([
      { networkType: 'mobile', corrections: 11, networks: 11, asns: 1, medianKm: 6, p90Km: 10 },
      { networkType: 'business', corrections: 2, networks: 2, asns: 1, medianKm: 20, p90Km: 40 },
    ]);
    const empty = await figures('24h', NOW + 10 * DAY_MS);
    expect(empty.accuracy).toEqual({ corrections: 0, networks: 0, asns: 0, medianKm: null, p90Km: null, byNetworkType: [] });
  });

  it.skipIf(!enabled)("takes each network's own median first, then the median and p90 of those, with the networks they rest on", async () => {
    const A = '203.0.113.0/24';
    await write([], [
      // One mobile network, a correction a day for five days: its own median is 300.
      ...[100, 200, 300, 400, 500].map((km, day) => correction(NOW - day * DAY_MS, km, 'mobile', A)),
      correction(NOW - 1000, 10, 'business'), correction(NOW - 1000, 20, 'business'),
    ]);
    const { accuracy } = await figures('7d');
    // Networks' medians 10, 20, 300: median rank 2, p90 rank 3. Over the rows it would be 200.
    expect(accuracy).toMatchObject({ corrections: 7, networks: 3, medianKm: 20, p90Km: 300 });
    // Most networks first, though mobile has more corrections.
    expect(accuracy.byNetworkType).toEqual([
      { networkType: 'business', corrections: 2, networks: 2, asns: 1, medianKm: 10, p90Km: 20 },
      { networkType: 'mobile', corrections: 5, networks: 1, asns: 1, medianKm: 300, p90Km: 300 },
    ]);
  });

  it.skipIf(!enabled)('keeps one correction per unit and UTC day: the first, in whatever order they arrive', async () => {
    const A = '2001:db8:85a3::1';
    const midnight = Date.parse('2026-03-15T00:00:00.000Z');
    const kept = async () => (await figures('7d')).accuracy;
    await write([], [correction(midnight + 8 * HOUR_MS, 100, 'mobile', A), correction(midnight + 9 * HOUR_MS, 200, 'mobile', A)]);
    expect(await kept()).toMatchObject({ corrections: 1, networks: 1, medianKm: 100 });
    // A later one in a later batch is a duplicate; so is another /48 of the same /32.
    await write([], [correction(midnight + 10 * HOUR_MS, 300, 'mobile', A), correction(midnight + 11 * HOUR_MS, 400, 'mobile', '2001:db8:ffff::1')]);
    expect(await kept()).toMatchObject({ corrections: 1, medianKm: 100 });
    // An earlier one arriving late (a queue that waited out an outage) takes the place: it was the first.
    await write([], [correction(midnight + 7 * HOUR_MS, 50, 'mobile', A)]);
    expect(await kept()).toMatchObject({ corrections: 1, medianKm: 50 });
    // At the same instant, the one written first stays, across batches and within one.
    await write([], [correction(midnight + 7 * HOUR_MS, 60, 'mobile', A)]);
    expect(await kept()).toMatchObject({ corrections: 1, medianKm: 50 });
    await write([], [correction(midnight + 6 * HOUR_MS, 1, 'mobile', A), correction(midnight + 6 * HOUR_MS, 2, 'mobile', A)]);
    expect(await kept()).toMatchObject({ corrections: 1, medianKm: 1 });
    // The last instant of the day before is another day: a second row of the same unit.
    await write([], [correction(midnight - 1, 400, 'mobile', A)]);
    expect(await kept()).toMatchObject({ corrections: 2, networks: 1, medianKm: 1, p90Km: 1 });
    // Another /32 the same day is a unit of its own.
    await write([], [correction(midnight + HOUR_MS, 30, 'mobile', '2001:db9::1')]);
    expect(await kept()).toMatchObject({ corrections: 3, networks: 2, medianKm: 1, p90Km: 30 });
  });

  // A correction at NOW from 203.0.113.0/24, with a lookup from its unit at NOW + offset.
  const PROOFS: [string, string, number, boolean][] = [
    ['at the same instant', '203.0.113.9', 0, true],
    ['exactly LOOKUP_PROOF_MS before', '203.0.113.9', -LOOKUP_PROOF_MS, true],
    ['1 ms earlier than that', '203.0.113.9', -LOOKUP_PROOF_MS - 1, false],
    ['LOOKUP_PROOF_SLACK_MS after (another machine\'s clock)', '203.0.113.9', LOOKUP_PROOF_SLACK_MS, true],
    ['1 ms later than that', '203.0.113.9', LOOKUP_PROOF_SLACK_MS + 1, false],
    ['from the next /24', '203.0.114.9', 0, false],
    ['from the /24 before', '203.0.112.9', 0, false],
  ];
  it.skipIf(!enabled).each(PROOFS)('a correction after a lookup from its unit %s (from %s, %i ms) counts: %s', async (_, from, offset, counts) => {
    const row = correction(NOW, 10, 'mobile', '203.0.113.1');
    await write([lookup(NOW + offset, { ip: from })], [row], false);
    expect((await figures('24h')).accuracy).toMatchObject({ corrections: counts ? 1 : 0, networks: counts ? 1 : 0 });
    expect(await store.checkCorrection(row)).toEqual({ duplicate: true, lookedUp: counts });
  });

  it.skipIf(!enabled)('counts an IPv6 correction after a lookup from any /48 of its /32, and not from the next /32', async () => {
    await write([lookup(NOW - 1000, { ip: '2001:db8:ffff:1::1' }), lookup(NOW - 1000, { ip: '2001:db9::1' })],
      [correction(NOW, 10, 'mobile', '2001:db8::1'), correction(NOW, 20, 'mobile', '2001:dba::1')], false);
    expect((await figures('24h')).accuracy).toMatchObject({ corrections: 1, networks: 1, medianKm: 10 });
  });

  it.skipIf(!enabled)('tells whether a unit already corrected that UTC day and made a lookup shortly before', async () => {
    const row = correction(NOW, 10, 'mobile', '2001:db8::1');
    expect(await store.checkCorrection(row)).toEqual({ duplicate: false, lookedUp: false });
    await write([lookup(NOW - 5000, { ip: '2001:db8:1::1' })], []);
    expect(await store.checkCorrection(row)).toEqual({ duplicate: false, lookedUp: true });
    await write([], [row], false);
    expect(await store.checkCorrection({ ...row, at: NOW + 1 })).toEqual({ duplicate: true, lookedUp: true });
    // The next UTC day is a day of its own.
    expect(await store.checkCorrection({ ...row, at: Date.parse('2026-03-16T00:00:00.000Z') })).toEqual({ duplicate: false, lookedUp: false });
  });

  it.skipIf(!enabled)("gives each ASN one vote: its networks share it, whatever their number", async () => {
    // Four ASNs of one network each at 1..4 km, and one ASN of 50 networks at 1,000 km.
    await write([], [
      ...[1, 2, 3, 4].map((km, i) => correction(NOW - 1000, km, 'mobile', ownNetwork(), `AS6450${i}`)),
      ...Array.from({ length: 50 }, () => correction(NOW - 1000, 1000, 'mobile', ownNetwork(), 'AS64510')),
    ]);
    const { accuracy } = await figures('24h');
    // Weights 1, 1, 1, 1, then 50 x 1/50 = 1: five votes, median at 2.5 of them (the 3rd), p90 at 4.5 (the big ASN).
    expect(accuracy).toMatchObject({ corrections: 54, networks: 54, asns: 5, medianKm: 3, p90Km: 1000 });
  });

  it.skipIf(!enabled)('upgrades a database of corrections stored without networks: they no longer count, as nothing shows a lookup came first', async () => {
    await store.close();
    await cleanup();
    const legacy = [5000, 6000, 7000].map((km) => ({ at: NOW - 2 * HOUR_MS, distance_km: km, country_code: 'US', network_type: 'mobile', nearer_source: 'tie' }));
    ({ store, cleanup } = await backend.openUpgraded(legacy));
    // The same day as the old rows: no conflict with their empty network.
    await write([], [correction(NOW - HOUR_MS, 10), correction(NOW - HOUR_MS, 20)]);
    const { accuracy } = await figures('24h');
    expect(accuracy).toMatchObject({ corrections: 2, networks: 2, medianKm: 10, p90Km: 20 });
    expect(accuracy.byNetworkType).toEqual([{ networkType: 'mobile', corrections: 2, networks: 2, asns: 1, medianKm: 10, p90Km: 20 }]);
    await store.purge(NOW - HOUR_MS - 1);
    expect((await figures('24h')).accuracy).toMatchObject({ corrections: 2, networks: 2 });
  });

  describe('a flood of corrections: 3,000 in a day, each claiming the other side of the earth', () => {
    const honestRows = (count: number) => honest.slice(0, count).map((v, i) => honestRow(v, NOW - HOUR_MS - i * 1000));
    const writeAll = async (rows: CorrectionRow[]) => { for (let i = 0; i < rows.length; i += 1000) await write([], rows.slice(i, i + 1000)); };

    it.skipIf(!enabled)('from 30 IPv6 /48s of one /32 counts as one network: the median of 60 honest networks moves by less than 10%', async () => {
      await writeAll(honestRows(60));
      const before = (await figures('24h')).accuracy;
      await writeAll(flood(30));
      const after = (await figures('24h')).accuracy;
      expect(after).toMatchObject({ corrections: 61, networks: 61 });
      expect(relativeChange(before.medianKm!, after.medianKm!)).toBeLessThan(0.1);
    });

    it.skipIf(!enabled)('from 60 /24s and 50 /48s of three ASNs, against 40 honest networks, moves the median by less than 10%', async () => {
      await writeAll(honestRows(40));
      const before = (await figures('24h')).accuracy;
      await writeAll(manyNetworks());
      const after = (await figures('24h')).accuracy;
      // 60 /24s and one /32 more networks, but three more votes against the honest ones' ASNs.
      expect(after).toMatchObject({ corrections: 101, networks: 101, asns: before.asns + 3 });
      expect(relativeChange(before.medianKm!, after.medianKm!)).toBeLessThan(0.1);
    });

    it.skipIf(!enabled)('from those networks without a lookup from them first, moves nothing at all', async () => {
      await writeAll(honestRows(40));
      const before = (await figures('24h')).accuracy;
      const fake = manyNetworks();
      for (let i = 0; i < fake.length; i += 1000) await write([], fake.slice(i, i + 1000), false);
      expect((await figures('24h')).accuracy).toEqual(before);
    });
  });

  it.skipIf(!enabled)('writes a retried batch once', async () => {
    const batch = { id: batchId(), lookups: [lookup(NOW - 1000)], corrections: [correction(NOW - 1000, 3, 'mobile', '198.51.100.7')] };
    await store.write(batch);
    await store.write(batch);
    const f = await figures('24h');
    expect(f.current.lookups).toBe(1);
    expect(f.accuracy.corrections).toBe(1);
  });

  it.skipIf(!enabled)('keeps tabs, backslashes and line breaks in text as they were', async () => {
    const city = 'Tab\there, back\\slash\nnew line\r';
    await write([lookup(NOW - 1000, { city, region: '\\N' })]);
    const [stored] = await store.latest(periodWindow('24h', NOW), 1);
    expect([stored!.city, stored!.region]).toEqual([city, '\\N']);
  });

  it.skipIf(!enabled)('returns the newest lookups and a CSV whose commas, quotes and formulas stay data', async () => {
    await write([
      lookup(NOW - 3000, { city: 'Washington, D.C.', ip: '203.0.113.77' }),
      lookup(NOW - 2000, { city: 'The "Big" Apple', ip: '2001:db8:85a3:1::9', vpnDetected: true }),
      lookup(NOW - 1000, { city: '=HYPERLINK("http://x")', countryName: 'Côte d\'Ivoire' }),
    ]);
    const latest = await store.latest(periodWindow('24h', NOW), 2);
    expect(latest.map((r) => r.city)).toEqual(['=HYPERLINK("http://x")', 'The "Big" Apple']);
    const csv = analyticsCsv(await store.latest(periodWindow('24h', NOW), 10));
    expect(csv).toBe([
      'ip,city,country,vpn_detected,timestamp',
      `198.51.100.x,"'=HYPERLINK(""http://x"")",Côte d'Ivoire,false,2026-03-15T10:29:59.000Z`,
      `2001:db8:85a3::/48,"The ""Big"" Apple",United States,true,2026-03-15T10:29:58.000Z`,
      '203.0.113.x,"Washington, D.C.",United States,false,2026-03-15T10:29:57.000Z',
      '',
    ].join('\r\n'));
  });

  it.skipIf(!enabled)('deletes everything older than the retention cutoff', async () => {
    await write([lookup(NOW - 91 * DAY_MS), lookup(NOW - 89 * DAY_MS), lookup(NOW - 1000)], [correction(NOW - 91 * DAY_MS, 3)]);
    // The old lookup and the old correction's own.
    expect(await store.purge(NOW - 90 * DAY_MS)).toBe(2);
    expect((await store.latest({ ...periodWindow('24h', NOW), start: 0 }, 10)).length).toBe(2);
    expect((await store.figures({ ...periodWindow('30d', NOW), start: 0 })).accuracy.corrections).toBe(0);
  });

  it.skipIf(!enabled)('agrees with a brute-force count of random rows written out of order', async () => {
    const random = seededRandom(12);
    const rows: LookupRow[] = [];
    const codes = ['US', 'DE', 'FR', 'BR', 'IN', 'JP', 'GB', 'CA', 'AU', 'NL', 'SE', 'PL'];
    for (let i = 0; i < 1500; i++) {
      const at = NOW - Math.floor(random() * 65 * DAY_MS);
      const code = codes[Math.floor(random() * random() * codes.length)]!;
      rows.push(lookup(at, { ip: `100.${Math.floor(random() * 4)}.${Math.floor(random() * 20)}.1`, countryCode: code, countryName: code, vpnDetected: random() < 0.2 }));
    }
    // Shuffled, in batches of 100: late rows land before stored ones.
    for (let i = 0; i < rows.length; i += 100) await write(rows.slice(i, i + 100));
    for (const period of PERIODS) {
      const w = periodWindow(period, NOW);
      const within = (a: number, b: number) => rows.filter((r) => r.at >= a && r.at < b);
      const cur = within(w.start, w.end);
      const prev = within(w.previousStart, w.previousEnd);
      const f = await figures(period);
      expect(f.current.lookups, period).toBe(cur.length);
      expect(f.current.vpn, period).toBe(cur.filter((r) => r.vpnDetected).length);
      expect(f.current.networks, period).toBe(new Set(cur.map((r) => r.network)).size);
      expect(f.previous.lookups, period).toBe(prev.length);
      expect(f.previous.networks, period).toBe(new Set(prev.map((r) => r.network)).size);
      const byCountry = new Map<string, number>();
      for (const r of cur) byCountry.set(r.countryCode, (byCountry.get(r.countryCode) ?? 0) + 1);
      const top = [...byCountry].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 10);
      expect(f.countries.map((c) => [c.code, c.lookups]), period).toEqual(top);
      expect(f.activity.reduce((s, a) => s + a.lookups, 0), period).toBe(cur.length);
    }
  });
});

describe('dashboard answer', () => {
  let analytics: Analytics;
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'analytics-dashboard-'));
    analytics = createAnalytics({ enabled: true, dataDir: dir, databaseUrl: undefined, retentionDays: 90, queueLimit: 10_000 });
  });
  afterEach(async () => {
    await analytics.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('masks recent networks, fills every unit of the period, and words changes against the previous period', async () => {
    const store = await openSqliteStore(dir);
    await store.write({ id: batchId(), corrections: [], lookups: [
      lookup(NOW - 1000, { ip: '203.0.113.77', vpnDetected: true }), lookup(NOW - 2000, { ip: '2001:db8:85a3:7::1' }),
      lookup(NOW - 8 * DAY_MS, { ip: '203.0.113.1' }),
    ] });
    await store.close();
    const d = await analytics.dashboard('7d', { recent: true }, NOW);
    expect(d.recent!.map((r) => r.network)).toEqual(['203.0.113.x', '2001:db8:85a3::/48']);
    expect(d.lookups).toEqual({ value: 2, previous: 1, change: 1 });
    expect(d.networks).toEqual({ value: 2, previous: 1, change: 1 });
    expect(d.vpnRate).toEqual({ value: 0.5, previous: 0, change: 0.5 });
    expect(d.activity.map((a) => a.lookups)).toEqual([0, 0, 0, 0, 0, 0, 2]);
    expect(d.activity[0]!.start).toBe('2026-03-09T00:00:00.000Z');
    const publicView = await analytics.dashboard('24h', { recent: false }, NOW + 2 * DAY_MS);
    expect(publicView.recent).toBeNull();
    expect(publicView.lookups).toEqual({ value: 0, previous: 0, change: null });
    expect(publicView.vpnRate).toEqual({ value: null, previous: null, change: null });
  });
});
