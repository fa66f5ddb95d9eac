/**
 * What a recorded lookup or correction is made of, and which requests are recorded at all.
 * The row keeps the network prefix, never the address: the address is cut here, before
 * anything is queued, to its /24 (IPv4) or /48 (IPv6) for a lookup, and to its voting unit
 * for a correction (correctionUnit).
 *
 * A correction's unit is an IPv4 /24 or an IPv6 /32. Not the /48 a lookup keeps: a /48 is
 * what one customer line or a free tunnel-broker account gets, so one person holds 65,536
 * of them, while a /32 is the smallest block a regional registry allocates to a provider,
 * which a single client does not get for the asking. An IPv4 /24 is already scarce (bought
 * or rented one by one). The cost is that all IPv6 visitors of one provider share one vote a
 * day; their IPv4 /24s still vote, and queries.ts gives each ASN one vote in any case.
 */
import { isbot } from 'isbot';
import { formatIp, type ParsedIp } from '../../lib/ip-address.ts';
import { BoundedMap } from '../utils/bounded-map.ts';
import type { IpInfo } from '../../lib/record.ts';
import type { CorrectionEvent } from '../../lib/correction.ts';
import type { CorrectionRow, LookupRow } from './types.ts';

type Headers = { get(name: string): string | null };

const V6_NETWORK_BASE = 2 ** 48;

/** The address's network: `203.0.113.0/24` or `2001:db8:85a3::/48`, and its number (see LookupRow.network). */
export function networkOf(address: ParsedIp): { prefix: string; key: number } {
  if (address.version === 4) {
    const key = address.value >>> 8;
    return { prefix: `${key >>> 16}.${(key >>> 8) & 255}.${key & 255}.0/24`, key };
  }
  const top = address.value >> 80n;
  return { prefix: `${formatIp({ version: 6, value: top << 80n })}/48`, key: V6_NETWORK_BASE + Number(top) };
}

/** Header of the page's quiet re-lookup after the WebRTC check (src/stores/lookup.ts): already counted. */
export const UPDATE_HEADER = 'x-lookup-update';

/**
 * Whether a request may be recorded: not when the browser asks for no tracking
 * (`Sec-GPC: 1`, `DNT: 1`), not for bots, not for a prefetch nobody may see, not for an
 * update of a lookup already counted, and only from a browser, which says so with
 * `Sec-Fetch-Mode` (sent by every current browser, by scripts almost never).
 */
export function mayRecord(headers: Headers): boolean {
  if (headers.get('sec-gpc')?.trim() === '1' || headers.get('dnt')?.trim() === '1') return false;
  if (!headers.get('sec-fetch-mode') || headers.get(UPDATE_HEADER)) return false;
  if (/prefetch/i.test(headers.get('sec-purpose') ?? headers.get('purpose') ?? '')) return false;
  const agent = headers.get('user-agent');
  return !!agent && !isBot(agent);
}

// isbot's pattern is a good part of what recording costs the request (docs/benchmarks.md,
// "Recording a lookup"); browsers send few distinct agents, so the answer is kept per agent string.
const BOT_MEMO = new BoundedMap<string, boolean>(2048);
const LONGEST_KEPT_AGENT = 512;

function isBot(agent: string): boolean {
  let bot = BOT_MEMO.get(agent);
  if (bot === undefined) {
    bot = isbot(agent);
    if (agent.length <= LONGEST_KEPT_AGENT) BOT_MEMO.set(agent, bot);
  }
  return bot;
}

/**
 * The voting unit of a correction from `address` (see the header): its prefix, and the
 * range of LookupRow['network'] numbers inside it, inclusive.
 */
export function correctionUnit(address: ParsedIp): { prefix: string; min: number; max: number } {
  const min = unitKey(address);
  if (address.version === 4) return { prefix: networkOf(address).prefix, min, max: min };
  return { prefix: `${formatIp({ version: 6, value: (address.value >> 96n) << 96n })}/32`, min, max: min + 2 ** 16 - 1 };
}

/** The first LookupRow['network'] number of the address's voting unit: the unit's key, cheap enough for every lookup. */
export function unitKey(address: ParsedIp): number {
  if (address.version === 4) return address.value >>> 8;
  // A /32 holds 2^16 /48s: their numbers run from its first /48's on.
  return V6_NETWORK_BASE + Number(address.value >> 96n) * 2 ** 16;
}

/** The stored row of a correction from `address`: the event, its unit and ASN, never the address. */
export function correctionRow(address: ParsedIp, event: CorrectionEvent, at: number, asn: string): CorrectionRow {
  const { prefix, min, max } = correctionUnit(address);
  return { ...event, at, ipPrefix: prefix, asn, networkMin: min, networkMax: max };
}

/** The stored row of a lookup of `address` that produced `record`. */
export function lookupRow(address: ParsedIp, record: IpInfo, at: number): LookupRow {
  const { prefix, key } = networkOf(address);
  return {
    at,
    network: key,
    ipPrefix: prefix,
    ipVersion: record.ip_version,
    countryCode: record.country_code,
    countryName: record.country_name,
    region: record.region,
    city: record.city,
    asn: record.asn,
    networkType: record.network_type,
    vpnDetected: record.vpn_detected,
    riskLevel: record.risk_level,
    locationSource: record.location_source,
    accuracyTier: record.accuracy_tier,
  };
}
