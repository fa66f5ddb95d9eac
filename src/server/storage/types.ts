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
 * One recorded correction (see src/lib/correction.ts), with its time, the caller's voting
 * unit (IPv4 /24 or IPv6 /32, event.ts: correctionUnit; never the address) and ASN. Per
 * unit and UTC day one row is kept: the first (plan.ts: firstPerNetworkDay).
 */
export interface CorrectionRow extends CorrectionEvent {
  at: number;
  /** The voting unit as text: `203.0.113.0/24`, `2001:db8::/32`. */
  ipPrefix: string;
  /** The caller's ASN as the lookup names it (`AS64500`); '' when it has none. */
  asn: string;
  /**
   * The LookupRow['network'] numbers the unit covers, inclusive: a correction counts only
   * when a lookup of one of them was recorded shortly before it (queries.ts).
   */
  networkMin: number;
  networkMax: number;
}

/** What the store knows of a unit before a correction from it is queued (AnalyticsStore.checkCorrection). */
export interface CorrectionCheck {
  /** The unit already has a correction that UTC day. */
  duplicate: boolean;
  /** A lookup of the unit was recorded within LOOKUP_PROOF_MS before `at`. */
  lookedUp: boolean;
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
 * Corrections of one group: how many, from how many networks and ASNs, and the median and
 * 90th percentile over those networks of each network's own median distance, each ASN's
 * networks sharing one vote (queries.ts). Only corrections from a unit with a recorded
 * lookup shortly before count.
 */
export interface AccuracyFigures {
  corrections: number;
  /** Voting units (IPv4 /24, IPv6 /32) the figures rest on. */
  networks: number;
  /** Distinct ASNs among them (units without one count as one ASN together). */
  asns: number;
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
  /** Whether `row`'s unit already corrected that UTC day, and whether it made a lookup shortly before. */
  checkCorrection(row: CorrectionRow): Promise<CorrectionCheck>;
  /** Deletes everything recorded before `before` (epoch ms); returns the lookups deleted. */
  purge(before: number): Promise<number>;
  close(): Promise<void>;
}
