/**
 * What the analytics store keeps and answers, whichever database holds it. A lookup is
 * stored as its network prefix (IPv4 /24, IPv6 /48), coarse place and verdicts: never the
 * address. Both implementations (sqlite-store.ts, postgres-store.ts) pass one contract
 * test suite (tests/analytics-store.test.ts).
 */
import type { CorrectionEvent } from '../../lib/correction.ts';
import type { PeriodWindow } from '../../lib/analytics.ts';

/** One recorded lookup, as stored. */
export interface LookupRow {
  /** When, epoch milliseconds. */
  at: number;
  /**
   * The network as a number, so "unique networks" can follow each network cheaply:
   * an IPv4 /24 is its 24 bits, an IPv6 /48 is 2^48 plus its 48 bits (no overlap).
   */
  network: number;
  /** The same network as text: `203.0.113.0/24`, `2001:db8:85a3::/48`. */
  ipPrefix: string;
  ipVersion: 'ipv4' | 'ipv6';
  countryCode: string;
  countryName: string;
  region: string;
  city: string;
  asn: string;
  networkType: string;
  vpnDetected: boolean;
  riskLevel: string;
  locationSource: string;
  accuracyTier: string;
}

/**
 * One recorded correction (see src/lib/correction.ts), with its time and the caller's
 * network prefix (as LookupRow['ipPrefix'], never the address). Per network and UTC day
 * one row is kept: a later correction from the same network that day replaces it.
 */
export interface CorrectionRow extends CorrectionEvent {
  at: number;
  ipPrefix: string;
}

/**
 * Rows written together, in one transaction. The id makes a retry safe: a batch whose
 * commit succeeded but whose answer was lost is recognised and not written twice.
 */
export interface Batch {
  id: string;
  lookups: LookupRow[];
  corrections: CorrectionRow[];
}

/** A stored lookup as the recent list and the CSV read it. */
export interface StoredLookup {
  at: number;
  ipPrefix: string;
  city: string;
  region: string;
  countryName: string;
  countryCode: string;
  vpnDetected: boolean;
  riskLevel: string;
  networkType: string;
}

/**
 * Corrections of one group: how many, from how many networks, and the median and 90th
 * percentile over those networks of each network's own median distance (queries.ts).
 */
export interface AccuracyFigures {
  corrections: number;
  /** Networks the figures rest on: prefixes, plus one for all rows stored before prefixes were. */
  networks: number;
  medianKm: number | null;
  p90Km: number | null;
}

/** Lookups, VPN share and distinct networks of one window, as SQL summed them. */
export interface WindowTotals {
  lookups: number;
  vpn: number;
  /** vpn / lookups, null without lookups. */
  vpnRate: number | null;
  networks: number;
}

/** Everything the dashboard shows for a period, as the store's SQL computed it. */
export interface PeriodFigures {
  current: WindowTotals;
  previous: WindowTotals;
  /** Top 10 of the current window: most lookups first, ties by country code. */
  countries: { code: string; name: string; lookups: number; share: number }[];
  /** Lookups per unit (hour or day) of the current window; units without lookups are absent. */
  activity: { start: number; lookups: number }[];
  /** Overall, and per network type: most networks first, then most corrections, ties by name. */
  accuracy: AccuracyFigures & { byNetworkType: (AccuracyFigures & { networkType: string })[] };
}

/** The analytics database: SQLite (default) or PostgreSQL (DATABASE_URL). */
export interface AnalyticsStore {
  readonly kind: 'sqlite' | 'postgres';
  /** Writes a batch in one transaction; a batch id already written is skipped. */
  write(batch: Batch): Promise<void>;
  /** The dashboard's aggregates for a period window. */
  figures(window: PeriodWindow): Promise<PeriodFigures>;
  /** The newest lookups of the current window, newest first. */
  latest(window: PeriodWindow, limit: number): Promise<StoredLookup[]>;
  /** Deletes everything recorded before `before` (epoch ms); returns the lookups deleted. */
  purge(before: number): Promise<number>;
  close(): Promise<void>;
}
