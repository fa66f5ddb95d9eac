/**
 * A visitor's correction of the shown place: what the product learns about its own
 * accuracy. Never an address: the distance between the IP-based place and the city the
 * visitor chose, with the coarse context needed to group it. Shared by the verification
 * tab (which sends it), `POST /api/corrections` (which validates it) and the analytics
 * store (which keeps it).
 */
import type { ParsedIp } from './ip-address.ts';

export interface CorrectionEvent {
  /** Great-circle km from the IP-based place to the chosen city, rounded to 0.1 km. */
  distance_km: number;
  /** ISO 3166 alpha-2 country of the IP-based place, or 'Unknown'. */
  country_code: string;
  /** network_type of the address (see IpInfo['network_type']). */
  network_type: string;
  /**
   * Which city source put the address nearer the chosen city: a name as in
   * `sources_used`, 'tie' when equally near or only one source named a place, 'unknown'.
   */
  nearer_source: string;
}

/**
 * What became of a correction: kept, or why not: a second one from the network that day
 * (`duplicate`), no recorded page lookup from it shortly before (`no_lookup`), or analytics
 * off or too far behind to take it (`unavailable`).
 */
export type CorrectionVerdict = { recorded: true } | { recorded: false; reason: 'duplicate' | 'no_lookup' | 'unavailable' };

/**
 * Whatever keeps correction events (the analytics store). It is given the caller's address
 * only to cut it to its voting unit (IPv4 /24, IPv6 /32) and the caller's ASN: one
 * correction per unit and UTC day counts, only after a recorded lookup from it, and each
 * ASN has one vote in the published figures, so one client cannot outvote the others.
 */
export interface CorrectionRecorder {
  recordCorrection(address: ParsedIp, event: CorrectionEvent, asn: string): Promise<CorrectionVerdict>;
}
