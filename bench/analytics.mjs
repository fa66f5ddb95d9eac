// `npm run bench:analytics`: for each store (SQLite in a temporary DATA_DIR; PostgreSQL at
// BENCH_DATABASE_URL or TEST_DATABASE_URL, in a schema of its own, dropped first), writes
// 1,000,000 lookups spread over the last 30 days through the real write-behind queue
// (bounded at 10,000 rows: the producer waits when it is full, as requests would see
// drops), then times the dashboard query of each period: the figures and the 10 recent
// lookups, exactly what GET /api/analytics asks the store. Prints medians and p95, and
// writes bench/results/analytics.json.
// Targets: ingestion >= 10,000 rows/s; dashboard p50 < 50 ms for every period.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os, { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { seededRandom } from './seeded-random.mjs';

const { PERIODS, periodWindow, DAY_MS } = await import('../src/lib/analytics.ts');
const { RecordingQueue } = await import('../src/server/storage/queue.ts');
const { openSqliteStore } = await import('../src/server/storage/sqlite-store.ts');
const { openPostgresStore } = await import('../src/server/storage/postgres-store.ts');

const ROWS = Number(process.env.BENCH_ROWS || 1_000_000);
const QUERY_RUNS = Number(process.env.BENCH_QUERY_RUNS || 30);
const LIMIT = 10_000;
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];

// Traffic with a realistic shape: a few countries and networks dominate (Zipf-like), 12% VPN.
const COUNTRIES = ['US', 'IN', 'GB', 'DE', 'BR', 'FR', 'CA', 'JP', 'ID', 'MX', 'ES', 'IT', 'NL', 'AU', 'PL', 'TR', 'VN', 'PH', 'RU', 'SE',
  'KR', 'AR', 'CO', 'ZA', 'NG', 'EG', 'PK', 'BD', 'TH', 'UA', 'RO', 'CZ', 'BE', 'CH', 'AT', 'PT', 'GR', 'IL', 'SA', 'AE', 'SG', 'MY',
  'CL', 'PE', 'NZ', 'IE', 'DK', 'NO', 'FI', 'HU', 'KE', 'MA', 'DZ', 'TW', 'HK', 'Unknown'];
const names = new Intl.DisplayNames(['en'], { type: 'region' });
const CITIES = ['Springfield', 'Riverside', 'Fairview', 'Madison', 'Georgetown', 'Salem', 'Franklin', 'Clinton'];
const TYPES = ['residential', 'mobile', 'business', 'datacenter', 'other'];
const NETWORKS = 300_000;

function rows(count, now) {
  const random = seededRandom(0x5eed);
  const start = now - 30 * DAY_MS;
  const out = new Array(count);
  for (let i = 0; i < count; i++) {
    const n = Math.floor(NETWORKS * random() ** 3);
    const v6 = n % 5 === 0;
    const code = COUNTRIES[Math.floor(COUNTRIES.length * random() ** 2)];
    out[i] = {
      at: start + Math.floor((i * 30 * DAY_MS) / count),
      network: v6 ? 2 ** 48 + 0x2a0000000000 + n : 0x510000 + n,
      ipPrefix: v6 ? `2a00:${(n >> 16).toString(16)}:${(n & 0xffff).toString(16)}::/48` : `${81 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}.0/24`,
      ipVersion: v6 ? 'ipv6' : 'ipv4',
      countryCode: code,
      countryName: code === 'Unknown' ? 'Unknown' : names.of(code),
      region: 'Region',
      city: CITIES[n % CITIES.length],
      asn: `AS${64500 + (n % 500)}`,
      networkType: TYPES[n % TYPES.length],
      vpnDetected: random() < 0.12,
      riskLevel: 'low',
      locationSource: 'ip',
      accuracyTier: 'medium',
    };
  }
  return out;
}

async function ingest(store, data) {
  const queue = new RecordingQueue(store, { limit: LIMIT });
  const started = performance.now();
  let waits = 0;
  for (let i = 0; i < data.length;) {
    // A full queue would drop rows; the producer waits instead, so every row is written.
    if (queue.queued >= LIMIT) { waits++; await new Promise((r) => setTimeout(r, 1)); continue; }
    queue.pushLookup(data[i++]);
    if ((i & 1023) === 0) await new Promise((r) => setImmediate(r));
  }
  const flushed = await queue.flush(Date.now() + 1_800_000);
  const seconds = (performance.now() - started) / 1000;
  const state = queue.state();
  if (!flushed || state.dropped > 0 || state.written !== data.length) throw new Error(`ingestion lost rows: ${JSON.stringify(state)}`);
  return { rowsPerSecond: Math.round(data.length / seconds), seconds: +seconds.toFixed(1), waits, loadAverage: +loadavg()[0].toFixed(1) };
}

async function timeQueries(store, now) {
  const result = {};
  for (const period of PERIODS) {
    const window = periodWindow(period, now);
    const times = [];
    for (let i = 0; i < QUERY_RUNS + 3; i++) {
      const t0 = performance.now();
      await Promise.all([store.figures(window), store.latest(window, 10)]);
      if (i >= 3) times.push(performance.now() - t0);
    }
    const check = await store.figures(window);
    result[period] = { p50: +median(times).toFixed(1), p95: +p95(times).toFixed(1), lookups: check.current.lookups, networks: check.current.networks };
  }
  return result;
}

const now = Date.now();
console.log(`generating ${ROWS.toLocaleString('en-US')} rows over 30 days...`);
const data = rows(ROWS, now);
const results = [];

async function bench(name, open, cleanup) {
  const store = await open();
  try {
    console.log(`${name}: writing through the queue...`);
    const ingestion = await ingest(store, data);
    console.log(`${name}: ${ingestion.rowsPerSecond.toLocaleString('en-US')} rows/s; timing the dashboard...`);
    const queries = await timeQueries(store, now);
    results.push({ store: name, ...ingestion, queries });
  } finally {
    await store.close();
    await cleanup();
  }
}

const dir = mkdtempSync(path.join(tmpdir(), 'bench-analytics-'));
await bench('sqlite', () => openSqliteStore(dir), async () => rmSync(dir, { recursive: true, force: true }));

const pgUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
if (pgUrl) {
  const url = new URL(pgUrl);
  url.searchParams.set('search_path', 'bench_analytics');
  const drop = async () => {
    const sql = postgres(pgUrl, { max: 1, onnotice: () => undefined });
    await sql`DROP SCHEMA IF EXISTS bench_analytics CASCADE`;
    await sql.end();
  };
  await drop();
  await bench('postgres', () => openPostgresStore(url.toString()), drop);
} else {
  console.log('postgres: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL)');
}

console.log(`\n${ROWS.toLocaleString('en-US')} rows over 30 days, node ${process.version}; dashboard = figures + 10 recent lookups, ${QUERY_RUNS} runs per period`);
console.table(results.map((r) => ({
  store: r.store,
  'ingest rows/s': r.rowsPerSecond,
  ...Object.fromEntries(PERIODS.flatMap((p) => [[`${p} p50 ms`, r.queries[p].p50], [`${p} p95 ms`, r.queries[p].p95]])),
  'load avg': r.loadAverage,
})));
console.log(`machine: ${os.availableParallelism()} cores; "load avg" is the 1-minute load average when ingestion ended (above the core count, every figure is slowed by other work)`);
for (const r of results) console.log(`${r.store}: 30d window holds ${r.queries['30d'].lookups.toLocaleString('en-US')} lookups from ${r.queries['30d'].networks.toLocaleString('en-US')} networks`);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/analytics.json', JSON.stringify({ date: new Date().toISOString(), node: process.version, rows: ROWS, results }, null, 2));
