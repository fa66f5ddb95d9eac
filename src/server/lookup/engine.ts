/**
 * The lookup engine: an address (plus what the browser told us) in, the IP info record
 * out, synchronously, from offline data only. Reserved addresses are answered without a
 * lookup; public ones ask DB-IP City, the second city source and the ASN index, then the
 * rules in src/lib judge consensus, confidence, accuracy, VPN and risk.
 * Nothing is cached per address here (the /json endpoint memoizes its bodies); the hot path
 * reuses scratch objects and allocates little more than the record itself (bench/lookup.mjs
 * measures it).
 */
import { isIP } from 'node:net';
import { accuracyFor, riskLevel, type Accuracy } from '../../lib/accuracy.ts';
import { confidenceScore, distanceConsensus } from '../../lib/confidence.ts';
import { formatIp, parseIp, reservedKind, type ParsedIp } from '../../lib/ip-address.ts';
import { privacyOf, reservedPrivacy } from '../../lib/privacy.ts';
import { UNKNOWN, type GpsLocation, type IpInfo, type LookupRequest, type LookupResponse, type Privacy, type VpnResult } from '../../lib/record.ts';
import { judgeVpn } from '../../lib/vpn-score.ts';
import { webrtcLeaks } from '../../lib/webrtc-leak.ts';
import { emptyPlace, type Place } from './city-source.ts';
import { detectDevice } from './device.ts';
import { choosePlace, countryName, fillBlanks } from './merge-place.ts';
import { OrgTraits } from './network-type.ts';
import { toWords } from './sorted-ranges.ts';
import { openSources, type SourceOptions, type Sources } from './sources.ts';

export interface LookupContext {
  /** Request headers: User-Agent, Sec-CH-UA, Sec-CH-UA-Mobile, Sec-CH-UA-Platform, Sec-CH-UA-Platform-Version. */
  headers?: { get(name: string): string | null };
  /** Browser timezone/language/userAgent (userAgent used when headers lack one). */
  clientInfo?: LookupRequest['clientInfo'];
  /** GPS fix: makes the record 'hybrid'. */
  browserLocation?: GpsLocation | null;
  /** Addresses the browser's ICE probe saw. */
  webrtc?: { candidates: string[] } | null;
}

export interface Engine {
  /**
   * Sync. Throws InvalidIpError for anything net.isIP rejects (after trimming; `::ffff:` normalised first).
   * `data` is new on every call; `device`, `sources_used` and a clean `data.vpn` are shared and frozen.
   * `data` depends on the address, the privacy lists and `clientInfo`, `browserLocation` and
   * `webrtc` only, never on `headers` (they make `device`): the /json memo relies on this.
   */
  lookup(ip: string, ctx?: LookupContext): LookupResponse;
  readonly sources: readonly string[];
  /** Changes whenever a privacy list is loaded, replaced or dropped (answers memoized before then are stale). */
  readonly dataGeneration: number;
}

/** The input is not an IPv4 or IPv6 address. */
export class InvalidIpError extends Error {}

/** Validates and normalises an address: `::ffff:a.b.c.d` becomes IPv4. */
function parseAddress(ip: string): ParsedIp {
  const text = typeof ip === 'string' ? ip.trim() : '';
  const parsed = parseIp(text);
  // parseIp accepts exactly what net.isIP accepts except after a zone id (`fe80::1%eth0`),
  // where it is laxer (checked over 2M random strings): net.isIP is asked only then.
  if (!parsed || (text.includes('%') && isIP(text) === 0)) {
    throw new InvalidIpError(`Not an IP address: ${JSON.stringify(String(ip).slice(0, 64))}`);
  }
  return parsed;
}

function validGps(gps: GpsLocation | null | undefined): GpsLocation | null {
  if (!gps) return null;
  const { lat, lng, accuracy } = gps;
  const ok = Number.isFinite(lat) && Number.isFinite(lng) && Number.isFinite(accuracy)
    && Math.abs(lat) <= 90 && Math.abs(lng) <= 180 && accuracy >= 0;
  return ok ? gps : null;
}

/** Builds an engine over already opened sources (tests open them selectively). */
export function engineFrom(sources: Sources): Engine {
  const { primary, second, asn, lists } = sources;
  const traits = asn ? new OrgTraits(asn.orgs) : undefined;
  const names = [primary?.name, second?.name, asn && 'asn'];
  // sources_used for each combination of answering sources, shared and frozen.
  const usedByMask = Array.from({ length: 8 }, (_, mask) =>
    Object.freeze(names.filter((name, i) => name !== undefined && mask & (1 << i))) as string[]);
  const primaryPlace = emptyPlace();
  const secondPlace = emptyPlace();
  const words = new Uint32Array(4);

  function ask(parsed: ParsedIp, source: Sources['primary'], out: Place): boolean {
    if (!source) return false;
    try {
      return parsed.version === 4 ? source.find4(parsed.value, out) : source.find6(words, out);
    } catch {
      return false; // a corrupt record degrades this answer only
    }
  }

  function askAsn(parsed: ParsedIp): number {
    if (!asn) return -1;
    return parsed.version === 4 ? asn.find4(parsed.value) : asn.find6(words);
  }

  function lookup(ip: string, ctx: LookupContext = {}): LookupResponse {
    const parsed = parseAddress(ip);
    // parseIp takes only canonical dotted quads, so trimmed IPv4 text is already canonical.
    const address = parsed.version === 4 && !ip.includes(':') ? ip.trim() : formatIp(parsed);
    const device = detectDevice(ctx.headers, ctx.clientInfo?.userAgent);
    const gps = validGps(ctx.browserLocation);
    const reserved = reservedKind(parsed);
    if (reserved) return reservedResponse(address, parsed, reserved, gps, device);

    if (parsed.version === 6) toWords(parsed.value, words);
    const p = ask(parsed, primary, primaryPlace) ? primaryPlace : null;
    const s = ask(parsed, second, secondPlace) ? secondPlace : null;
    const row = askAsn(parsed);
    const place = choosePlace(p, s);
    const consensusKm = distanceConsensus(p, s);
    if (place) fillBlanks(place, place === p ? s : p, consensusKm);

    const orgId = row >= 0 ? asn!.orgId(row) : -1;
    const org = orgId >= 0 ? asn!.orgs[orgId] || UNKNOWN : UNKNOWN;
    const networkType = orgId >= 0 ? traits!.networkType(asn!.asn(row), orgId) : 'other';
    const timezone = place?.timezone || UNKNOWN;
    const candidates = ctx.webrtc?.candidates;
    const privacy = privacyOf({
      lists: lists ? lists.check(parsed, words) : {},
      org,
      vpnBrand: orgId >= 0 && traits!.vpnBrand(orgId),
      hostingNetwork: orgId >= 0 ? traits!.hostingBy(asn!.asn(row), orgId) : null,
      networkData: !!asn,
    });
    const vpn = judgeVpn({
      privacy,
      addressTimezone: timezone,
      browserTimezone: ctx.clientInfo?.timezone,
      webrtcLeak: !!candidates && candidates.length > 0 && webrtcLeaks(candidates, address).length > 0,
    });

    const cityKnown = !!(p?.city || s?.city);
    const countryKnown = !!(p?.countryCode || s?.countryCode);
    const latitude = gps ? gps.lat : place && !Number.isNaN(place.latitude) ? place.latitude : 0;
    const longitude = gps ? gps.lng : place && !Number.isNaN(place.longitude) ? place.longitude : 0;
    const accuracy = accuracyFor({ gps: !!gps, vpnDetected: vpn.detected, consensusKm, cityKnown, countryKnown, latitude, longitude });
    const confidence = confidenceScore({
      gpsAccuracyM: gps?.accuracy,
      consensusKm,
      cityKnown,
      countryKnown,
      countriesDisagree: !!(p?.countryCode && s?.countryCode && p.countryCode !== s.countryCode),
    });
    const data = buildRecord({
      address, parsed, place, latitude, longitude, timezone, org, asnOrg: org,
      asn: row >= 0 ? `AS${asn!.asn(row)}` : UNKNOWN, networkType, vpn, privacy, accuracy, confidence, gps, consensusKm, reserved: null,
    });
    const used = usedByMask[(p ? 1 : 0) | (s ? 2 : 0) | (row >= 0 ? 4 : 0)]!;
    return { success: true, data, device, confidence, sources_used: used };
  }

  return {
    lookup,
    sources: usedByMask[7]!,
    get dataGeneration() { return lists?.generation ?? 0; },
  };
}

/** Everything the record is made of, public or reserved. */
interface RecordParts {
  address: string;
  parsed: ParsedIp;
  place: Place | null;
  latitude: number;
  longitude: number;
  timezone: string;
  /** The network's name (isp and org). */
  org: string;
  asnOrg: string;
  asn: string;
  networkType: IpInfo['network_type'];
  vpn: VpnResult;
  privacy: Privacy;
  accuracy: Accuracy;
  confidence: number;
  gps: GpsLocation | null;
  consensusKm: number | null;
  reserved: string | null;
}

/** The record, in one place for every kind of address. */
function buildRecord(r: RecordParts): IpInfo {
  const countryCode = r.place?.countryCode || UNKNOWN;
  return {
    ip: r.address,
    ip_version: r.parsed.version === 4 ? 'ipv4' : 'ipv6',
    city: r.place?.city || UNKNOWN,
    region: r.place?.region || UNKNOWN,
    country: countryCode,
    country_name: countryName(r.place?.countryCode ?? ''),
    country_code: countryCode,
    postal: r.place?.postal || UNKNOWN,
    latitude: r.latitude,
    longitude: r.longitude,
    timezone: r.timezone,
    isp: r.org,
    org: r.org,
    asn: r.asn,
    asn_org: r.asnOrg,
    confidence_score: r.confidence,
    location_source: r.gps ? 'hybrid' : 'ip',
    vpn_detected: r.vpn.detected,
    vpn: r.vpn,
    privacy: r.privacy,
    risk_level: riskLevel(r.vpn.detected, r.accuracy.tier),
    distance_consensus: r.consensusKm,
    rtt_ms: null,
    network_type: r.networkType,
    accuracy_radius: r.accuracy.radius,
    accuracy_tier: r.accuracy.tier,
    reserved: r.reserved,
  };
}

/** The verdict for an address no database knows: no signal can fire. */
const RESERVED_VPN = judgeVpn({ privacy: reservedPrivacy('Reserved'), addressTimezone: UNKNOWN, browserTimezone: undefined, webrtcLeak: false });

/** A special-purpose address: no database knows it; say what kind it is instead. */
function reservedResponse(address: string, parsed: ParsedIp, kind: string, gps: GpsLocation | null, device: LookupResponse['device']): LookupResponse {
  const accuracy = accuracyFor({ gps: !!gps, vpnDetected: false, consensusKm: null, cityKnown: false, countryKnown: false, latitude: 0, longitude: 0 });
  const confidence = confidenceScore({ gpsAccuracyM: gps?.accuracy, consensusKm: null, cityKnown: false, countryKnown: false, countriesDisagree: false });
  const data = buildRecord({
    address, parsed, place: null, latitude: gps ? gps.lat : 0, longitude: gps ? gps.lng : 0, timezone: UNKNOWN,
    org: kind, asnOrg: UNKNOWN, asn: UNKNOWN, networkType: 'private', vpn: RESERVED_VPN, privacy: reservedPrivacy(kind), accuracy, confidence, gps, consensusKm: null, reserved: kind,
  });
  return { success: true, data, device, confidence, sources_used: [] };
}

/**
 * Opens the databases (DB-IP City, GeoLite2 City or `geoipCityDb`, the ASN index from
 * `distDir`) and returns the engine. Never rejects for a missing or broken database: that
 * source is left out, with a warning on stderr.
 */
export async function createEngine(options: SourceOptions = {}): Promise<Engine> {
  const { sources, problems } = await openSources(options);
  for (const problem of problems) console.warn(`lookup: ${problem}`);
  return engineFrom(sources);
}
