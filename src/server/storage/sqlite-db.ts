/**
 * The SQLite analytics database, synchronous (node:sqlite): one file under DATA_DIR,
 * created and migrated on first open, WAL so readers never wait for the writer, and a
 * busy timeout so several worker processes take turns writing instead of failing with
 * "database is locked". It runs inside a worker thread (sqlite-worker.ts) so that neither
 * a write nor a wait for the lock ever blocks a request.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { PeriodWindow } from '../../lib/analytics.ts';
import { dayOf, firstPerNetworkDay, firstTimes, planBatch, type Neighbors } from './plan.ts';
import { CHECK_CORRECTION, checkParams, forSqlite, purgeStatements, queryFigures, queryLatest, type Run } from './queries.ts';
import type { Batch, CorrectionCheck, CorrectionRow, PeriodFigures, StoredLookup } from './types.ts';

/** How long a writer waits for another process's transaction before giving up, ms. */
const BUSY_TIMEOUT_MS = 10_000;

/** Schema versions, applied in order; `PRAGMA user_version` says how many are in (exported for the upgrade test). */
export const MIGRATIONS = [`
CREATE TABLE analytics_lookups (
  id INTEGER PRIMARY KEY,
  at_ms INTEGER NOT NULL,
  prev_at_ms INTEGER,
  network INTEGER NOT NULL,
  ip_prefix TEXT NOT NULL,
  ip_version TEXT NOT NULL,
  country_code TEXT NOT NULL,
  country_name TEXT NOT NULL,
  region TEXT NOT NULL,
  city TEXT NOT NULL,
  asn TEXT NOT NULL,
  network_type TEXT NOT NULL,
  vpn_detected INTEGER NOT NULL,
  risk_level TEXT NOT NULL,
  location_source TEXT NOT NULL,
  accuracy_tier TEXT NOT NULL
);
CREATE INDEX analytics_lookups_at ON analytics_lookups (at_ms);
CREATE INDEX analytics_lookups_network ON analytics_lookups (network, at_ms);
CREATE TABLE analytics_lookup_hours (
  hour INTEGER NOT NULL, country_code TEXT NOT NULL, country_name TEXT NOT NULL,
  lookups INTEGER NOT NULL, vpn INTEGER NOT NULL, PRIMARY KEY (hour, country_code)
) WITHOUT ROWID;
CREATE TABLE analytics_lookup_days (
  day INTEGER NOT NULL, country_code TEXT NOT NULL, country_name TEXT NOT NULL,
  lookups INTEGER NOT NULL, vpn INTEGER NOT NULL, PRIMARY KEY (day, country_code)
) WITHOUT ROWID;
CREATE TABLE analytics_network_hours (
  hour INTEGER NOT NULL, prev_hour INTEGER NOT NULL, prev_day INTEGER NOT NULL, n INTEGER NOT NULL,
  PRIMARY KEY (hour, prev_hour, prev_day)
) WITHOUT ROWID;
CREATE TABLE analytics_network_days (
  day INTEGER NOT NULL, prev_day INTEGER NOT NULL, n INTEGER NOT NULL, PRIMARY KEY (day, prev_day)
) WITHOUT ROWID;
CREATE TABLE analytics_corrections (
  id INTEGER PRIMARY KEY,
  at_ms INTEGER NOT NULL,
  distance_km REAL NOT NULL,
  country_code TEXT NOT NULL,
  network_type TEXT NOT NULL,
  nearer_source TEXT NOT NULL
);
CREATE INDEX analytics_corrections_at ON analytics_corrections (at_ms);
CREATE TABLE analytics_batches (id TEXT PRIMARY KEY, at_ms INTEGER NOT NULL) WITHOUT ROWID;
`, `
-- One correction per network (ip_prefix, as analytics_lookups keeps it) and UTC day (day);
-- rows written before keep a NULL prefix, which the unique index lets repeat.
ALTER TABLE analytics_corrections ADD COLUMN day INTEGER;
ALTER TABLE analytics_corrections ADD COLUMN ip_prefix TEXT;
UPDATE analytics_corrections SET day = at_ms / 86400000;
CREATE UNIQUE INDEX analytics_corrections_network_day ON analytics_corrections (day, ip_prefix);
`, `
-- A correction's ASN and the range of analytics_lookups.network its voting unit covers
-- (storage/event.ts: correctionUnit). Rows written before keep NULLs and no longer count.
ALTER TABLE analytics_corrections ADD COLUMN asn TEXT;
ALTER TABLE analytics_corrections ADD COLUMN network_min INTEGER;
ALTER TABLE analytics_corrections ADD COLUMN network_max INTEGER;
`];

const UPSERT_COUNTS = (table: 'hours' | 'days', key: 'hour' | 'day') => `
INSERT INTO analytics_lookup_${table} (${key}, country_code, country_name, lookups, vpn) VALUES (?, ?, ?, ?, ?)
ON CONFLICT (${key}, country_code) DO UPDATE SET lookups = lookups + excluded.lookups, vpn = vpn + excluded.vpn`;

/** A unit's first correction of a UTC day, or an earlier one arriving late (plan.ts: firstPerNetworkDay). */
const UPSERT_CORRECTION = `
INSERT INTO analytics_corrections (at_ms, day, ip_prefix, distance_km, country_code, network_type, nearer_source, asn, network_min, network_max)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (day, ip_prefix) DO UPDATE SET at_ms = excluded.at_ms, distance_km = excluded.distance_km,
  country_code = excluded.country_code, network_type = excluded.network_type, nearer_source = excluded.nearer_source,
  asn = excluded.asn, network_min = excluded.network_min, network_max = excluded.network_max
WHERE excluded.at_ms < analytics_corrections.at_ms`;



export class SqliteAnalytics {
  private readonly db: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();

  constructor(file: string) {
    mkdirSync(path.dirname(file), { recursive: true });
    this.db = new DatabaseSync(file);
    this.db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    this.db.exec('PRAGMA journal_mode = WAL');
    // With WAL, NORMAL loses at most the last commits on a power cut, never the file.
    this.db.exec('PRAGMA synchronous = NORMAL');
    // 16 MB of page cache (the default is 2 MB). 64 MB made neither ingestion nor the dashboard
    // faster (its queries read the rollups) and cost RSS under load, which bench/api.mjs holds
    // to 1.5x its size after start (see docs/benchmarks.md, "SQLite's page cache").
    this.db.exec('PRAGMA cache_size = -16384');
    this.migrate();
  }

  private statement(sql: string): StatementSync {
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, statement = this.db.prepare(sql));
    return statement;
  }

  private transaction<T>(work: () => T): T {
    // IMMEDIATE takes the write lock first, so two processes never both read then write.
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const result = work();
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
  }

  private migrate(): void {
    this.transaction(() => {
      const { user_version: version } = this.db.prepare('PRAGMA user_version').get() as { user_version: number };
      for (let i = version; i < MIGRATIONS.length; i++) this.db.exec(MIGRATIONS[i]!);
      if (version < MIGRATIONS.length) this.db.exec(`PRAGMA user_version = ${MIGRATIONS.length}`);
    });
  }

  private neighbors(network: number, from: number): Neighbors {
    const before = this.statement('SELECT at_ms FROM analytics_lookups WHERE network = ? AND at_ms <= ? ORDER BY at_ms DESC LIMIT 1')
      .get(network, from) as { at_ms: number } | undefined;
    const after = this.statement('SELECT id, at_ms, prev_at_ms FROM analytics_lookups WHERE network = ? AND at_ms > ? ORDER BY at_ms, id')
      .all(network, from) as { id: number; at_ms: number; prev_at_ms: number | null }[];
    return { before: before?.at_ms ?? null, after: after.map((r) => ({ id: r.id, at: r.at_ms, prevAt: r.prev_at_ms })) };
  }

  /** Writes a batch in one transaction; a batch already written is skipped. */
  write(batch: Batch): void {
    this.transaction(() => {
      const fresh = this.statement('INSERT OR IGNORE INTO analytics_batches (id, at_ms) VALUES (?, ?)').run(batch.id, Date.now());
      if (fresh.changes === 0) return;
      const around = new Map<number, Neighbors>();
      for (const [network, from] of firstTimes(batch.lookups)) around.set(network, this.neighbors(network, from));
      const plan = planBatch(batch.lookups, around);
      const insert = this.statement(`INSERT INTO analytics_lookups (at_ms, prev_at_ms, network, ip_prefix, ip_version, country_code,
        country_name, region, city, asn, network_type, vpn_detected, risk_level, location_source, accuracy_tier)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
      for (const { row: r, prevAt } of plan.inserts) {
        insert.run(r.at, prevAt, r.network, r.ipPrefix, r.ipVersion, r.countryCode, r.countryName, r.region, r.city, r.asn,
          r.networkType, r.vpnDetected ? 1 : 0, r.riskLevel, r.locationSource, r.accuracyTier);
      }
      const update = this.statement('UPDATE analytics_lookups SET prev_at_ms = ? WHERE id = ?');
      for (const u of plan.updates) update.run(u.prevAt, u.id);
      const hours = this.statement(UPSERT_COUNTS('hours', 'hour'));
      for (const d of plan.lookupHours) hours.run(d.hour, d.countryCode, d.countryName, d.lookups, d.vpn);
      const days = this.statement(UPSERT_COUNTS('days', 'day'));
      for (const d of plan.lookupDays) days.run(d.hour, d.countryCode, d.countryName, d.lookups, d.vpn);
      const netHours = this.statement(`INSERT INTO analytics_network_hours (hour, prev_hour, prev_day, n) VALUES (?, ?, ?, ?)
        ON CONFLICT (hour, prev_hour, prev_day) DO UPDATE SET n = n + excluded.n`);
      for (const d of plan.networkHours) netHours.run(d.hour, d.prevHour, d.prevDay, d.n);
      const netDays = this.statement(`INSERT INTO analytics_network_days (day, prev_day, n) VALUES (?, ?, ?)
        ON CONFLICT (day, prev_day) DO UPDATE SET n = n + excluded.n`);
      for (const d of plan.networkDays) netDays.run(d.day, d.prevDay, d.n);
      const correction = this.statement(UPSERT_CORRECTION);
      for (const c of firstPerNetworkDay(batch.corrections)) {
        correction.run(c.at, dayOf(c.at), c.ipPrefix, c.distance_km, c.country_code, c.network_type, c.nearer_source, c.asn, c.networkMin, c.networkMax);
      }
    });
  }

  private readonly run: Run = (sql, params) => this.statement(forSqlite(sql)).all(...params) as Record<string, unknown>[];

  async figures(window: PeriodWindow): Promise<PeriodFigures> {
    // One read transaction: every query sees the same snapshot.
    this.db.exec('BEGIN');
    try {
      return await queryFigures(this.run, window);
    } finally {
      this.db.exec('COMMIT');
    }
  }

  latest(window: PeriodWindow, limit: number): Promise<StoredLookup[]> {
    return queryLatest(this.run, window, limit);
  }

  checkCorrection(row: CorrectionRow): CorrectionCheck {
    const r = this.statement(forSqlite(CHECK_CORRECTION)).get(...checkParams(row)) as { duplicate: number; looked_up: number };
    return { duplicate: r.duplicate === 1, lookedUp: r.looked_up === 1 };
  }

  purge(before: number): number {
    return this.transaction(() => {
      let deleted = 0;
      for (const [i, [sql, params]] of purgeStatements(before).entries()) {
        const { changes } = this.statement(forSqlite(sql)).run(...params);
        if (i === 0) deleted = Number(changes);
      }
      return deleted;
    });
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }
}
