/**
 * Analytics as the rest of the server sees it: record a lookup or a correction (never
 * waiting), read the dashboard of a period, report health, flush at shutdown. Wires the
 * store (SQLite under DATA_DIR, or PostgreSQL with DATABASE_URL), the write-behind queue
 * and the daily retention job. The store is opened lazily and reopened after a failure,
 * so a database that is down at start or later only delays writes (up to the queue's
 * bound) and makes the dashboard answer 503.
 */
import { DAY_MS, countChange, maskedNetwork, periodWindow, rateChange, type Dashboard, type Period } from '../../lib/analytics.ts';
import type { CorrectionEvent, CorrectionRecorder } from '../../lib/correction.ts';
import type { ParsedIp } from '../../lib/ip-address.ts';
import type { IpInfo } from '../../lib/record.ts';
import { correctionRow, lookupRow, mayRecord } from './event.ts';
import { RecordingQueue, type QueueOptions, type QueueState } from './queue.ts';
import type { AnalyticsStore, Batch, PeriodFigures, StoredLookup } from './types.ts';

export interface AnalyticsConfig {
  /** false: nothing is recorded and the dashboard is not served. */
  enabled: boolean;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Days a recorded row is kept (the daily job deletes older ones). */
  retentionDays: number;
  /** Bound of the in-memory queue, rows. */
  queueLimit: number;
}

/** What /healthz shows about analytics. */
export type AnalyticsHealth = Omit<QueueState, 'state'> & {
  /** ok: writes succeed; degraded: the store fails and the queue retries; off: analytics disabled. */
  state: 'ok' | 'degraded' | 'off';
  store: 'sqlite' | 'postgres' | 'off';
};

/** Headers a request is judged by (see event.ts). */
type Headers = { get(name: string): string | null };

export interface Analytics extends CorrectionRecorder {
  readonly enabled: boolean;
  readonly retentionDays: number;
  /** Records the lookup of the caller's own address when the request may be recorded. */
  recordLookup(address: ParsedIp | undefined, record: IpInfo, headers: Headers): void;
  /** Records a correction, kept by the caller's network prefix (one per network and UTC day). */
  recordCorrection(address: ParsedIp, event: CorrectionEvent): void;
  /** The dashboard of a period; `recent` adds the 10 newest lookups (operators only). */
  dashboard(period: Period, options: { recent: boolean }, now?: number): Promise<Dashboard>;
  /** The period's newest lookups for the CSV, newest first. */
  latest(period: Period, limit: number, now?: number): Promise<StoredLookup[]>;
  health(): AnalyticsHealth;
  /** Writes everything queued (used by tests and benches). */
  flush(deadline?: number): Promise<boolean>;
  /** Stops recording, flushes until `deadline`, closes the database. */
  close(deadline?: number): Promise<void>;
}

/** Opens the configured store (the PostgreSQL driver loads only when it is used). */
async function openStore(config: AnalyticsConfig): Promise<AnalyticsStore> {
  if (config.databaseUrl) return (await import('./postgres-store.ts')).openPostgresStore(config.databaseUrl);
  return (await import('./sqlite-store.ts')).openSqliteStore(config.dataDir);
}

/** A store that opens on first use and again after a failed open or write. */
class ReopeningStore {
  private opening: Promise<AnalyticsStore> | null = null;
  private failedAt = 0;
  private readonly open: () => Promise<AnalyticsStore>;
  readonly kind: 'sqlite' | 'postgres';
  constructor(open: () => Promise<AnalyticsStore>, kind: 'sqlite' | 'postgres') {
    this.open = open;
    this.kind = kind;
  }

  get(): Promise<AnalyticsStore> {
    this.opening ??= this.open().then((store) => {
      if (this.failedAt) console.log(`analytics: the ${this.kind} store is back`);
      this.failedAt = 0;
      return store;
    }, (error: unknown) => {
      this.opening = null;
      // Logged once per outage, not on every retry.
      if (!this.failedAt) console.error(`analytics: cannot open the ${this.kind} store (${(error as Error).message}); retrying`);
      this.failedAt = Date.now();
      throw error;
    });
    return this.opening;
  }

  async close(): Promise<void> {
    const opening = this.opening;
    this.opening = null;
    if (opening) await (await opening.catch(() => null))?.close();
  }
}

const OFF_HEALTH: AnalyticsHealth = { state: 'off', store: 'off', queued: 0, dropped: 0, written: 0, lastError: null };

/** Analytics that record nothing and serve no dashboard (ANALYTICS=off). */
function disabledAnalytics(retentionDays: number): Analytics {
  const refuse = () => Promise.reject(new Error('analytics are turned off'));
  return {
    enabled: false,
    retentionDays,
    recordLookup: () => undefined,
    recordCorrection: () => undefined,
    dashboard: refuse,
    latest: refuse,
    health: () => OFF_HEALTH,
    flush: () => Promise.resolve(true),
    close: () => Promise.resolve(),
  };
}

/** The dashboard's answer from the store's figures. */
function dashboardOf(period: Period, now: number, f: PeriodFigures, recent: StoredLookup[] | null, previousKept: boolean): Dashboard {
  const w = periodWindow(period, now);
  const iso = (ms: number) => new Date(ms).toISOString();
  const prev = previousKept ? f.previous : null;
  const perBucket = new Map(f.activity.map((a) => [a.start, a.lookups]));
  return {
    period,
    unit: w.unit,
    from: iso(w.start),
    to: iso(now),
    previousFrom: iso(w.previousStart),
    previousTo: iso(w.previousEnd - 1),
    lookups: { value: f.current.lookups, previous: prev?.lookups ?? null, change: prev ? countChange(f.current.lookups, prev.lookups) : null },
    // "No change when the previous period is empty": a period with no lookups has no networks either.
    networks: { value: f.current.networks, previous: prev?.networks ?? null, change: prev ? countChange(f.current.networks, prev.networks) : null },
    vpnRate: { value: f.current.vpnRate, previous: prev?.vpnRate ?? null, change: prev ? rateChange(f.current.vpnRate, prev.vpnRate) : null },
    countries: f.countries,
    activity: w.buckets.map((start) => ({ start: iso(start), lookups: perBucket.get(start) ?? 0 })),
    accuracy: f.accuracy,
    recent: recent && recent.map((r) => ({
      network: maskedNetwork(r.ipPrefix),
      city: r.city,
      region: r.region,
      country: r.countryName,
      countryCode: r.countryCode,
      vpnDetected: r.vpnDetected,
      riskLevel: r.riskLevel,
      networkType: r.networkType,
      at: iso(r.at),
    })),
  };
}

/** How soon a failed retention job runs again. */
export const PURGE_RETRY_MS = 5 * 60_000;

/**
 * Creates the analytics of a configuration. Returns at once: the store opens in the
 * background and the queue holds rows until it is there.
 */
export function createAnalytics(config: AnalyticsConfig, options: QueueOptions = {}): Analytics {
  if (!config.enabled) return disabledAnalytics(config.retentionDays);
  const kind = config.databaseUrl ? 'postgres' : 'sqlite';
  const store = new ReopeningStore(() => openStore(config), kind);
  const retentionMs = config.retentionDays * DAY_MS;
  // The queue writes through the reopening store, so a failed open is one more failed write.
  const queue = new RecordingQueue({ write: async (batch: Batch) => (await store.get()).write(batch) }, { limit: config.queueLimit, ...options });

  // A failure (the database away, descriptors short: EMFILE) is tried again in minutes, not the next day.
  let retry: NodeJS.Timeout | undefined;
  const purge = () => {
    store.get().then((s) => s.purge(Date.now() - retentionMs)).catch((error: unknown) => {
      console.error(`analytics: the retention job failed (${(error as Error).message}); it runs again in ${PURGE_RETRY_MS / 60_000} minutes`);
      retry ??= setTimeout(() => { retry = undefined; purge(); }, PURGE_RETRY_MS);
      retry.unref();
    });
  };
  // Daily, and once shortly after start (not during it: start must stay fast).
  const first = setTimeout(purge, 60_000);
  const daily = setInterval(purge, DAY_MS);
  first.unref();
  daily.unref();

  return {
    enabled: true,
    retentionDays: config.retentionDays,
    recordLookup(address, record, headers) {
      if (address && mayRecord(headers)) queue.pushLookup(lookupRow(address, record, Date.now()));
    },
    recordCorrection(address, event) {
      if (Number.isFinite(event.distance_km) && event.distance_km >= 0) queue.pushCorrection(correctionRow(address, event, Date.now()));
    },
    async dashboard(period, { recent }, now = Date.now()) {
      const s = await store.get();
      const w = periodWindow(period, now);
      const [figures, latest] = await Promise.all([s.figures(w), recent ? s.latest(w, 10) : null]);
      return dashboardOf(period, now, figures, latest, w.previousStart >= now - retentionMs);
    },
    async latest(period, limit, now = Date.now()) {
      return (await store.get()).latest(periodWindow(period, now), limit);
    },
    health() {
      const q = queue.state();
      return { ...q, state: q.state === 'ok' ? 'ok' : 'degraded', store: kind };
    },
    flush: (deadline) => queue.flush(deadline),
    async close(deadline) {
      clearTimeout(first);
      clearInterval(daily);
      const left = await queue.close(deadline);
      if (left.lastError) console.error(`analytics: closed with ${left.dropped} rows dropped in all (${left.lastError})`);
      await store.close();
    },
  };
}
