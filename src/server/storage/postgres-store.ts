/**
 * The analytics store on PostgreSQL (DATABASE_URL: plain PostgreSQL, Supabase, Neon,
 * RDS) through postgres.js. Migrations are the files in `supabase/migrations/`, applied
 * at start when missing (recorded in analytics_migrations), so the Supabase CLI and the
 * server agree. A `search_path` parameter in the URL picks the schema, created if absent
 * (the tests give each file its own). Writers of all processes take one advisory lock
 * per batch: a batch reads the networks' latest rows before it writes (plan.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import postgres from 'postgres';
import type { PeriodWindow } from '../../lib/analytics.ts';
import { dayOf, firstPerNetworkDay, firstTimes, planBatch, type BatchPlan, type Neighbors } from './plan.ts';
import { CHECK_CORRECTION, checkParams, purgeStatements, queryFigures, queryLatest, type Run } from './queries.ts';
import type { AnalyticsStore, Batch } from './types.ts';

const MIGRATIONS_DIR = new URL('../../../supabase/migrations/', import.meta.url);

/** Per network of a batch: its latest row at or before its first time, and every row after (LATERAL: index probes, never a scan). */
const NEIGHBORS = `
SELECT b.network, p.before, a.id, a.at_ms, a.prev_at_ms
FROM unnest($1::bigint[], $2::bigint[]) AS b(network, from_ms)
LEFT JOIN LATERAL (SELECT l.at_ms AS before FROM analytics_lookups l WHERE l.network = b.network AND l.at_ms <= b.from_ms
  ORDER BY l.at_ms DESC, l.id DESC LIMIT 1) p ON true
LEFT JOIN LATERAL (SELECT l.id, l.at_ms, l.prev_at_ms FROM analytics_lookups l WHERE l.network = b.network AND l.at_ms > b.from_ms) a ON true
ORDER BY b.network, a.at_ms, a.id`;
const COPY_LOOKUPS = `COPY analytics_lookups (at_ms, prev_at_ms, network, ip_prefix, ip_version, country_code, country_name,
  region, city, asn, network_type, vpn_detected, risk_level, location_source, accuracy_tier) FROM STDIN`;
const UPDATE_PREV = `
UPDATE analytics_lookups l SET prev_at_ms = u.prev FROM unnest($1::bigint[], $2::bigint[]) AS u(id, prev) WHERE l.id = u.id`;
const UPSERT_COUNTS = (table: 'hours' | 'days', key: 'hour' | 'day') => `
INSERT INTO analytics_lookup_${table} AS t (${key}, country_code, country_name, lookups, vpn)
SELECT * FROM unnest($1::integer[], $2::text[], $3::text[], $4::integer[], $5::integer[])
ON CONFLICT (${key}, country_code) DO UPDATE SET lookups = t.lookups + excluded.lookups, vpn = t.vpn + excluded.vpn`;
const UPSERT_NETWORK_HOURS = `
INSERT INTO analytics_network_hours AS t (hour, prev_hour, prev_day, n)
SELECT * FROM unnest($1::integer[], $2::integer[], $3::integer[], $4::integer[])
ON CONFLICT (hour, prev_hour, prev_day) DO UPDATE SET n = t.n + excluded.n`;
const UPSERT_NETWORK_DAYS = `
INSERT INTO analytics_network_days AS t (day, prev_day, n)
SELECT * FROM unnest($1::integer[], $2::integer[], $3::integer[])
ON CONFLICT (day, prev_day) DO UPDATE SET n = t.n + excluded.n`;
/** Each unit's first correction of a UTC day, or an earlier one arriving late (plan.ts: firstPerNetworkDay). */
const UPSERT_CORRECTIONS = `
INSERT INTO analytics_corrections AS t (at_ms, day, ip_prefix, distance_km, country_code, network_type, nearer_source, asn, network_min, network_max)
SELECT * FROM unnest($1::bigint[], $2::integer[], $3::text[], $4::float8[], $5::text[], $6::text[], $7::text[], $8::text[], $9::bigint[], $10::bigint[])
ON CONFLICT (day, ip_prefix) DO UPDATE SET at_ms = excluded.at_ms, distance_km = excluded.distance_km,
  country_code = excluded.country_code, network_type = excluded.network_type, nearer_source = excluded.nearer_source,
  asn = excluded.asn, network_min = excluded.network_min, network_max = excluded.network_max
WHERE excluded.at_ms < t.at_ms`;

type Sql = postgres.Sql | postgres.TransactionSql;
type Params = postgres.ParameterOrJSON<never>[];

/** The schema a `search_path` URL parameter names first, if any. */
function schemaOf(url: string): string | undefined {
  const first = new URL(url).searchParams.get('search_path')?.split(',')[0]?.trim();
  return first && first !== '"$user"' ? first.replace(/^"(.*)"$/, '$1') : undefined;
}

async function migrate(sql: postgres.Sql): Promise<void> {
  const files = readdirSync(MIGRATIONS_DIR).filter((f) => f.endsWith('.sql')).sort();
  await sql.begin(async (tx) => {
    // Two workers starting together: one applies, the other then finds it applied.
    await tx`SELECT pg_advisory_xact_lock(hashtext('whatismyip analytics migrate ' || current_schema()))`;
    await tx`CREATE TABLE IF NOT EXISTS analytics_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`;
    const applied = new Set((await tx`SELECT version FROM analytics_migrations`).map((r) => String(r.version)));
    for (const file of files) {
      const version = file.replace(/\.sql$/, '');
      if (applied.has(version)) continue;
      await tx.unsafe(readFileSync(new URL(file, MIGRATIONS_DIR), 'utf8'));
      await tx`INSERT INTO analytics_migrations (version) VALUES (${version})`;
    }
  });
}

async function neighborsOf(tx: Sql, batch: Batch): Promise<Map<number, Neighbors>> {
  const first = firstTimes(batch.lookups);
  const around = new Map<number, Neighbors>();
  for (const r of await tx.unsafe(NEIGHBORS, [[...first.keys()], [...first.values()]] as unknown as Params)) {
    const network = Number(r.network);
    let entry = around.get(network);
    if (!entry) around.set(network, entry = { before: r.before === null ? null : Number(r.before), after: [] });
    if (r.id !== null) entry.after.push({ id: Number(r.id), at: Number(r.at_ms), prevAt: r.prev_at_ms === null ? null : Number(r.prev_at_ms) });
  }
  return around;
}

/** A text value in COPY's text format: backslash, tab and line ends escaped. */
const copyText = (value: string): string => value.replace(/[\\\t\n\r]/g, (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c]!);

/** Inserts the batch's rows with COPY: the cheapest way in, about a third faster than INSERT ... unnest here. */
async function copyLookups(tx: Sql, inserts: BatchPlan['inserts']): Promise<void> {
  let text = '';
  for (const { row: r, prevAt } of inserts) {
    text += [r.at, prevAt ?? '\\N', r.network, copyText(r.ipPrefix), r.ipVersion, copyText(r.countryCode), copyText(r.countryName),
      copyText(r.region), copyText(r.city), copyText(r.asn), copyText(r.networkType), r.vpnDetected ? 't' : 'f',
      copyText(r.riskLevel), copyText(r.locationSource), copyText(r.accuracyTier)].join('\t') + '\n';
  }
  const stream = await tx.unsafe(COPY_LOOKUPS).writable();
  await new Promise<void>((resolve, reject) => {
    stream.on('error', reject);
    stream.on('finish', resolve);
    stream.end(text);
  });
}

/** Column arrays of a list of objects, for `unnest`. */
const columns = <T>(items: readonly T[], ...pick: ((item: T) => unknown)[]): Params =>
  pick.map((f) => items.map(f)) as unknown as Params;

/**
 * Writes a batch. Statements that do not wait for an answer go out together: postgres.js
 * pipelines them on the transaction's connection, so a batch costs a handful of round trips.
 */
async function writeBatch(tx: Sql, batch: Batch): Promise<void> {
  const [, , fresh] = await Promise.all([
    // Analytics may lose the last fraction of a second of commits if PostgreSQL itself
    // crashes (a clean stop loses nothing); in exchange a commit does not wait for the disk.
    tx`SET LOCAL synchronous_commit = off`,
    tx`SELECT pg_advisory_xact_lock(hashtext('whatismyip analytics write ' || current_schema()))`,
    tx`INSERT INTO analytics_batches (id, at_ms) VALUES (${batch.id}, ${Date.now()}) ON CONFLICT DO NOTHING RETURNING id`,
  ]);
  if (fresh.length === 0) return;
  const writes: Promise<unknown>[] = [];
  if (batch.lookups.length > 0) {
    const plan = planBatch(batch.lookups, await neighborsOf(tx, batch));
    await copyLookups(tx, plan.inserts);
    if (plan.updates.length) writes.push(tx.unsafe(UPDATE_PREV, columns(plan.updates, (u) => u.id, (u) => u.prevAt)));
    const countColumns = (list: typeof plan.lookupHours) =>
      columns(list, (d) => d.hour, (d) => d.countryCode, (d) => d.countryName, (d) => d.lookups, (d) => d.vpn);
    writes.push(tx.unsafe(UPSERT_COUNTS('hours', 'hour'), countColumns(plan.lookupHours)));
    writes.push(tx.unsafe(UPSERT_COUNTS('days', 'day'), countColumns(plan.lookupDays)));
    if (plan.networkHours.length) {
      writes.push(tx.unsafe(UPSERT_NETWORK_HOURS, columns(plan.networkHours, (d) => d.hour, (d) => d.prevHour, (d) => d.prevDay, (d) => d.n)));
    }
    if (plan.networkDays.length) {
      writes.push(tx.unsafe(UPSERT_NETWORK_DAYS, columns(plan.networkDays, (d) => d.day, (d) => d.prevDay, (d) => d.n)));
    }
  }
  if (batch.corrections.length > 0) {
    writes.push(tx.unsafe(UPSERT_CORRECTIONS, columns(firstPerNetworkDay(batch.corrections),
      (c) => c.at, (c) => dayOf(c.at), (c) => c.ipPrefix, (c) => c.distance_km, (c) => c.country_code, (c) => c.network_type,
      (c) => c.nearer_source, (c) => c.asn, (c) => c.networkMin, (c) => c.networkMax)));
  }
  await Promise.all(writes);
}

/** Connects, creates the schema if the URL names one, applies missing migrations. */
export async function openPostgresStore(url: string): Promise<AnalyticsStore> {
  const sql = postgres(url, {
    max: 4,
    onnotice: () => undefined, // "relation already exists, skipping" from idempotent migrations
    connect_timeout: 10,
    idle_timeout: 60,
  });
  try {
    const schema = schemaOf(url);
    if (schema) await sql`CREATE SCHEMA IF NOT EXISTS ${sql(schema)}`;
    await migrate(sql);
  } catch (error) {
    await sql.end({ timeout: 1 });
    throw error;
  }
  const run: (tx: Sql) => Run = (tx) => (text, params) => tx.unsafe(text, params as unknown as Params);
  return {
    kind: 'postgres',
    write: async (batch) => { await sql.begin((tx) => writeBatch(tx, batch)); },
    // The five queries run side by side on the pool: one round trip, not a transaction's
    // three. They may straddle a batch's commit; each figure is still its own exact aggregate.
    figures: (window: PeriodWindow) => queryFigures(run(sql), window),
    latest: (window, limit) => queryLatest(run(sql), window, limit),
    checkCorrection: async (row) => {
      const [r] = await sql.unsafe(CHECK_CORRECTION, checkParams(row));
      return { duplicate: r!.duplicate === true, lookedUp: r!.looked_up === true };
    },
    purge: (before) => sql.begin(async (tx) => {
      let deleted = 0;
      for (const [i, [text, params]] of purgeStatements(before).entries()) {
        const result = await tx.unsafe(text, params);
        if (i === 0) deleted = result.count;
      }
      return deleted;
    }),
    close: () => sql.end({ timeout: 5 }),
  };
}
