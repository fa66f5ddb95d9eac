/**
 * Analytics as the rest of the server sees it: record a lookup (never waiting) or a
 * correction, read the dashboard of a period, report health, flush at shutdown. Wires the
 * store (SQLite under DATA_DIR, or PostgreSQL with DATABASE_URL), the write-behind queue
 * and the daily retention job. The store is opened (and migrated) at start, so a wrong
 * DATABASE_URL shows on /healthz within seconds, and reopened after a failure, so a
 * database that is down at start or later only delays writes (up to the queue's bound) and
 * makes the dashboard answer 503. An outage is logged when it starts and when it ends, with
 * the rows kept and dropped meanwhile.
 *
 * Corrections: one per voting unit (storage/event.ts) and UTC day, and only from a unit
 * that made a recorded lookup shortly before (queries.ts: LOOKUP_PROOF_MS); a second one is
 * answered as a duplicate, one without a lookup as such. The accuracy figures are published
 * only from ACCURACY_MINIMUM networks and ASNs on (src/lib/analytics.ts).
 */
import { ACCURACY_MINIMUM, DAY_MS, countChange, maskedNetwork, periodWindow, rateChange, type Dashboard, type Period } from '../../lib/analytics.ts';
import type { CorrectionEvent, CorrectionRecorder, CorrectionVerdict } from '../../lib/correction.ts';
import type { ParsedIp } from '../../lib/ip-address.ts';
import type { IpInfo } from '../../lib/record.ts';
import { BoundedMap } from '../utils/bounded-map.ts';
import { oneLine } from '../utils/log.ts';
import { correctionRow, lookupRow, mayRecord, unitKey } from './event.ts';
import { dayOf } from './plan.ts';
import { LOOKUP_PROOF_MS } from './queries.ts';
import { RecordingQueue, type QueueOptions, type QueueState } from './queue.ts';
import type { AccuracyFigures, AnalyticsStore, Batch, CorrectionCheck, PeriodFigures, StoredLookup } from './types.ts';
import { errorMessage } from '../../lib/error-message.ts';

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
  /**
   * ok: the store is open and writes succeed; degraded: the store cannot be opened (a wrong
   * DATABASE_URL, a database down) or writes fail, and the queue retries; off: analytics disabled.
   */
  state: 'ok' | 'degraded' | 'off';
  store: 'sqlite' | 'postgres' | 'off';
  /** Since when the store fails (ISO time), null while it does not. */
  downSince: string | null;
};

/** Headers a request is judged by (see event.ts). */
type Headers = { get(name: string): string | null };

export interface Analytics extends CorrectionRecorder {
  readonly enabled: boolean;
  readonly retentionDays: number;
  /** Records the lookup of the caller's own address when the request may be recorded. */
  recordLookup(address: ParsedIp | undefined, record: IpInfo, headers: Headers): void;
  /** Records a correction, kept by the caller's voting unit (one per unit and UTC day) with its ASN. */
  recordCorrection(address: ParsedIp, event: CorrectionEvent, asn: string): Promise<CorrectionVerdict>;
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

/** A store that opens when first asked and again after a failed open or write. */
class ReopeningStore {
  private opening: Promise<AnalyticsStore> | null = null;
  private readonly open: () => Promise<AnalyticsStore>;
  constructor(open: () => Promise<AnalyticsStore>) {
    this.open = open;
  }

  get(): Promise<AnalyticsStore> {
    this.opening ??= this.open().catch((error: unknown) => {
      this.opening = null;
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

/**
 * Logs an outage of the store: one line when the first open or write fails, one when a write
 * (or, with nothing queued, an open) succeeds again, with the rows kept meanwhile (held, and
 * now being written) and those dropped (past the queue's bound) since the last good write.
 */
class OutageLog {
  private since = 0;
  private droppedBefore = 0;
  private readonly kind: string;
  private readonly queue: () => QueueState;
  private readonly limit: number;
  constructor(kind: string, queue: () => QueueState, limit: number) {
    this.kind = kind;
    this.queue = queue;
    this.limit = limit;
  }

  get downSince(): number {
    return this.since;
  }

  failed(error: unknown): void {
    if (this.since) return;
    this.since = Date.now();
    console.error(`analytics: the ${this.kind} store fails (${oneLine(errorMessage(error))}); rows wait in memory (at most ${this.limit}) and are retried`);
  }

  succeeded(): void {
    const { queued, dropped } = this.queue();
    if (this.since) {
      const seconds = Math.round((Date.now() - this.since) / 1000);
      this.since = 0;
      console.error(`analytics: the ${this.kind} store is back after ${seconds} s: ${queued} rows kept and being written, ${dropped - this.droppedBefore} dropped`);
    }
    // Rows dropped from here on are this outage's, should one start.
    this.droppedBefore = dropped;
  }
}

/** While the store cannot be opened, how often it is tried again without a write asking. */
const REOPEN_MS = 5_000;
/** Longest a correction waits for the store to say whether it is a duplicate; past it, it is queued. */
const CHECK_TIMEOUT_MS = 1_000;
/** Voting units whose lookups (and units and days whose corrections) this process remembers. */
const UNITS_KEPT = 20_000;

const RECORDED: CorrectionVerdict = { recorded: true };
const DUPLICATE: CorrectionVerdict = { recorded: false, reason: 'duplicate' };
const NO_LOOKUP: CorrectionVerdict = { recorded: false, reason: 'no_lookup' };
const UNAVAILABLE: CorrectionVerdict = { recorded: false, reason: 'unavailable' };

/** A group's figures as published: its median and p90 only from ACCURACY_MINIMUM on. */
function published<T extends AccuracyFigures>(group: T): T & { published: boolean } {
  const ok = group.networks >= ACCURACY_MINIMUM.networks && group.asns >= ACCURACY_MINIMUM.asns;
  return { ...group, published: ok, medianKm: ok ? group.medianKm : null, p90Km: ok ? group.p90Km : null };
}

/** The words of an unpublished figure. */
export function notEnoughNote(group: AccuracyFigures): string {
  return `Not enough corrections yet: the accuracy is published once corrections come from at least ${ACCURACY_MINIMUM.networks} networks`
    + ` of at least ${ACCURACY_MINIMUM.asns} different providers (ASNs); this period has ${group.networks} networks of ${group.asns}.`;
}

const OFF_HEALTH: AnalyticsHealth = { state: 'off', store: 'off', queued: 0, dropped: 0, written: 0, lastError: null, downSince: null };

/** Analytics that record nothing and serve no dashboard (ANALYTICS=off). */
function disabledAnalytics(retentionDays: number): Analytics {
  const refuse = () => Promise.reject(new Error('analytics are turned off'));
  return {
    enabled: false,
    retentionDays,
    recordLookup: () => undefined,
    recordCorrection: () => Promise.resolve(UNAVAILABLE),
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
    accuracy: (() => {
      const overall = published(f.accuracy);
      return {
        ...overall,
        minimum: { ...ACCURACY_MINIMUM },
        note: overall.published ? null : notEnoughNote(f.accuracy),
        byNetworkType: f.accuracy.byNetworkType.map(published),
      };
    })(),
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
 * The retention job on `store`: daily, and once shortly after start (not during it: start
 * must stay fast). A failure (the database away, descriptors short: EMFILE) is tried again
 * in minutes, not the next day.
 */
function scheduleRetention(store: ReopeningStore, retentionMs: number): { stop(): void } {
  let retry: NodeJS.Timeout | undefined;
  const purge = () => {
    store.get().then((s) => s.purge(Date.now() - retentionMs)).catch((error: unknown) => {
      console.error(`analytics: the retention job failed (${errorMessage(error)}); it runs again in ${PURGE_RETRY_MS / 60_000} minutes`);
      retry ??= setTimeout(() => { retry = undefined; purge(); }, PURGE_RETRY_MS);
      retry.unref();
    });
  };
  const first = setTimeout(purge, 60_000).unref();
  const daily = setInterval(purge, DAY_MS).unref();
  return {
    stop() {
      clearTimeout(first);
      clearInterval(daily);
    },
  };
}

/** What the store knows of a correction's unit, or null when it cannot say in time (then the row is queued; the figures check it again). */
async function storedCheck(store: ReopeningStore, row: Parameters<AnalyticsStore['checkCorrection']>[0]): Promise<CorrectionCheck | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => { timer = setTimeout(resolve, CHECK_TIMEOUT_MS, null); });
  try {
    return await Promise.race([store.get().then((s) => s.checkCorrection(row)), late]);
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Creates the analytics of a configuration. Returns at once: the store opens in the
 * background and the queue holds rows until it is there.
 */
export function createAnalytics(config: AnalyticsConfig, options: QueueOptions = {}): Analytics {
  if (!config.enabled) return disabledAnalytics(config.retentionDays);
  const kind = config.databaseUrl ? 'postgres' : 'sqlite';
  const store = new ReopeningStore(() => openStore(config));
  const retentionMs = config.retentionDays * DAY_MS;
  // Reads the queue only when an outage starts or ends, long after both exist.
  const outage = new OutageLog(kind, () => queue.state(), config.queueLimit);
  // The queue writes through the reopening store, so a failed open is one more failed write.
  const queue = new RecordingQueue({
    write: async (batch: Batch) => {
      try {
        await (await store.get()).write(batch);
      } catch (error) {
        outage.failed(error);
        throw error;
      }
      outage.succeeded();
    },
  }, { limit: config.queueLimit, ...options });

  // Opened now, not on first use: a wrong DATABASE_URL or a missing migration shows at start.
  let reopen: NodeJS.Timeout | undefined;
  let closed = false;
  const probe = () => {
    reopen = undefined;
    store.get().then(() => { if (queue.queued === 0) outage.succeeded(); }, (error: unknown) => {
      outage.failed(error);
      if (!closed) reopen = setTimeout(probe, REOPEN_MS).unref();
    });
  };
  probe();

  const retention = scheduleRetention(store, retentionMs);

  // Units whose lookup this process recorded (unit key -> when), and units and days with a correction.
  const lookedUp = new BoundedMap<number, number>(UNITS_KEPT);
  const corrected = new BoundedMap<string, true>(UNITS_KEPT);
  const checking = new Set<string>();

  return {
    enabled: true,
    retentionDays: config.retentionDays,
    recordLookup(address, record, headers) {
      if (!address || !mayRecord(headers)) return;
      const row = lookupRow(address, record, Date.now());
      if (queue.pushLookup(row)) lookedUp.set(unitKey(address), row.at);
    },
    async recordCorrection(address, event, asn) {
      if (!Number.isFinite(event.distance_km) || event.distance_km < 0) throw new RangeError('a correction\'s distance is a finite number of km, at least 0');
      const row = correctionRow(address, event, Date.now(), asn);
      const key = `${dayOf(row.at)}|${row.ipPrefix}`;
      if (corrected.get(key) || checking.has(key)) return DUPLICATE;
      checking.add(key);
      try {
        const known = await storedCheck(store, row);
        if (known?.duplicate) return DUPLICATE;
        const here = (lookedUp.get(row.networkMin) ?? -Infinity) >= row.at - LOOKUP_PROOF_MS;
        if (known && !known.lookedUp && !here) return NO_LOOKUP;
        if (!queue.pushCorrection(row)) return UNAVAILABLE;
        corrected.set(key, true);
        return RECORDED;
      } finally {
        checking.delete(key);
      }
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
      const down = outage.downSince;
      return { ...q, state: q.state === 'ok' && !down ? 'ok' : 'degraded', store: kind, downSince: down ? new Date(down).toISOString() : null };
    },
    flush: (deadline) => queue.flush(deadline),
    async close(deadline) {
      closed = true;
      clearTimeout(reopen);
      retention.stop();
      const left = await queue.close(deadline);
      if (left.lastError) console.error(`analytics: closed with ${left.dropped} rows dropped in all (${left.lastError})`);
      await store.close();
    },
  };
}
