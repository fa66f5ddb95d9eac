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
import { formatIp, nat64Embedded, parseIp, reservedKind, type ParsedIp } from '../../lib/ip-address.ts';
import { privacyOf, reservedPrivacy } from '../../lib/privacy.ts';
import { UNKNOWN, type GpsLocation, type IpInfo, type LookupRequest, type LookupResponse, type Privacy, type VpnResult, type WebrtcAddress } from '../../lib/record.ts';
import { judgeVpn } from '../../lib/vpn-score.ts';
import { classifyWebrtc, webrtcLeaks, type Network } from '../../lib/webrtc-leak.ts';
import { emptyPlace, type Place } from '../data/city-source.ts';
import { detectDevice } from './device.ts';
import { choosePlace, countryName, fillBlanks } from './merge-place.ts';
import { OrgTraits } from './network-type.ts';
import { toWords } from '../data/sorted-ranges.ts';
import { openSources, type SourceOptions, type Sources } from '../data/sources.ts';
import { NO_LISTS, PrivacyMemo } from './privacy-memo.ts';

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
  /**
   * Each city source's own answer for an address, before the two are merged: what a
   * visitor's correction is compared with to learn which source was nearer. Sources that
   * name no place are left out; reserved addresses have none. Throws InvalidIpError.
   */
  sourcePlaces(ip: string): SourcePlace[];
  readonly sources: readonly string[];
  /** Changes whenever a privacy list is loaded, replaced or dropped (answers memoized before then are stale). */
  readonly dataGeneration: number;
}

/** One city source's answer: its name (as in `sources_used`), the city it names ('' for none) and coordinates. */
export interface SourcePlace {
  source: string;
  city: string;
  latitude: number;
  longitude: number;
}

/** The input is not an IPv4 or IPv6 address. */
export class InvalidIpError extends Error {}

/** Validates and normalises an address: `::ffff:a.b.c.d` becomes IPv4. */
function parseAddress(ip: string): ParsedIp {
  const text = typeof ip === 'string' ? ip.trim() : '';
  const parsed = parseIp(text);
  // parseIp accepts exactly what net.isIP accepts except after a zone id (`fe80::1%eth0`),
  // where it is laxer (tests/ip-parse.property.test.ts checks both over random and
  // near-miss strings, 800,000 at CI's FUZZ_RUNS): net.isIP is asked only then.
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

/** One city source's answer for an address into `out` (IPv6 from its `words`); false for none, or a corrupt record, which degrades this answer only. */
function askSource(parsed: ParsedIp, words: Uint32Array, source: Sources['primary'], out: Place): boolean {
  if (!source) return false;
  try {
    return parsed.version === 4 ? source.find4(parsed.value, out) : source.find6(words, out);
  } catch {
    return false;
  }
}

/** The network of an address in the ASN index, or null (no index, or no range holds it); `words` is scratch. */
function networkIn(asn: Sources['asn'], parsed: ParsedIp, words: Uint32Array): Network | null {
  if (!asn) return null;
  const row = parsed.version === 4 ? asn.find4(parsed.value) : asn.find6(toWords(parsed.value, words));
  return row >= 0 ? { asn: asn.asn(row), org: asn.orgs[asn.orgId(row)] ?? '' } : null;
}

/** How sure the answer is, from the two sources' places (`p`, `s`), the one chosen, a GPS fix and the VPN verdict. */
function sureness(p: Place | null, s: Place | null, place: Place | null, gps: GpsLocation | null, consensusKm: number | null, vpnDetected: boolean) {
  const countryKnown = !!(p?.countryCode || s?.countryCode);
  const accuracy = accuracyFor({
    gpsAccuracyM: gps?.accuracy, vpnDetected, consensusKm,
    cityKnown: !!place?.city, bigCity: !!place?.bigCity, countryKnown, sourceRadiusKm: place?.radiusKm,
  });
  const confidence = confidenceScore({
    gpsAccuracyM: gps?.accuracy,
    consensusKm,
    cityKnown: !!(p?.city || s?.city),
    countryKnown,
    countriesDisagree: !!(p?.countryCode && s?.countryCode && p.countryCode !== s.countryCode),
  });
  return { accuracy, confidence };
}

/** How an engine builds its records. */
export interface EngineOptions {
  /**
   * false: every record's privacy flags, reasons and VPN verdict built afresh, as the
   * reference path of tests/json-differential.test.ts; by default, shared per network for
   * addresses no list holds (privacy-memo.ts).
   */
  reuse?: boolean;
}

/** Builds an engine over already opened sources (tests open them selectively). */
export function engineFrom(sources: Sources, options: EngineOptions = {}): Engine {
  const { primary, second, asn, lists } = sources;
  const memo = options.reuse === false ? undefined : new PrivacyMemo(lists);
  const traits = asn ? new OrgTraits(asn.orgs) : undefined;
  const names = [primary?.name, second?.name, asn && 'asn'];
  // sources_used for each combination of answering sources, shared and frozen.
  const usedByMask = Array.from({ length: 8 }, (_, mask) =>
    Object.freeze(names.filter((name, i) => name !== undefined && mask & (1 << i))) as string[]);
  const primaryPlace = emptyPlace();
  const secondPlace = emptyPlace();
  const words = new Uint32Array(4);

  const ask = (parsed: ParsedIp, source: Sources['primary'], out: Place) => askSource(parsed, words, source, out);
  function askAsn(parsed: ParsedIp): number {
    if (!asn) return -1;
    return parsed.version === 4 ? asn.find4(parsed.value) : asn.find6(words);
  }

  // The network of a WebRTC candidate (its own scratch words: the lookup's are in use).
  const candidateWords = new Uint32Array(4);
  const networkOf = (parsed: ParsedIp) => networkIn(asn, parsed, candidateWords);

  function lookup(ip: string, ctx: LookupContext = {}): LookupResponse {
    const parsed = parseAddress(ip);
    // parseIp takes only canonical dotted quads, so trimmed IPv4 text is already canonical.
    const address = parsed.version === 4 && !ip.includes(':') ? ip.trim() : formatIp(parsed);
    const device = detectDevice(ctx.headers, ctx.clientInfo?.userAgent);
    const gps = validGps(ctx.browserLocation);
    const reserved = reservedKind(parsed);
    const webrtc = ctx.webrtc ? classifyWebrtc(ctx.webrtc.candidates, address, networkOf) : undefined;
    if (reserved) return withWebrtc(reservedResponse(address, parsed, reserved, gps, device), webrtc);

    // A NAT64 address is looked up as the IPv4 address it carries; the record keeps its own.
    const target = nat64Embedded(parsed) ?? parsed;
    if (target.version === 6) toWords(target.value, words);
    const p = ask(target, primary, primaryPlace) ? primaryPlace : null;
    const s = ask(target, second, secondPlace) ? secondPlace : null;
    const row = askAsn(target);
    const consensusKm = distanceConsensus(p, s);
    const place = choosePlace(p, s, consensusKm);
    if (place) fillBlanks(place, place === p ? s : p, consensusKm);

    const orgId = row >= 0 ? asn!.orgId(row) : -1;
    const org = orgId >= 0 ? asn!.orgs[orgId] || UNKNOWN : UNKNOWN;
    const networkType = orgId >= 0 ? traits!.networkType(asn!.asn(row), orgId) : 'other';
    const timezone = place?.timezone || UNKNOWN;
    // Lists are asked for the address looked up (a NAT64 address's IPv4 one), as the databases are.
    const evidence = {
      lists: lists ? lists.check(target, words) : NO_LISTS,
      org,
      vpnBrand: orgId >= 0 && traits!.vpnBrand(orgId),
      hostingNetwork: orgId >= 0 ? traits!.hostingBy(asn!.asn(row), orgId) : null,
      networkData: !!asn,
      now: Date.now(),
    };
    const privacy = memo ? memo.privacy(evidence, orgId) : privacyOf(evidence);
    const vpnEvidence = {
      privacy,
      addressTimezone: timezone,
      browserTimezone: ctx.clientInfo?.timezone,
      webrtcLeak: !!webrtc && webrtcLeaks(webrtc).length > 0,
    };
    const vpn = memo ? memo.vpn(vpnEvidence) : judgeVpn(vpnEvidence);

    const latitude = gps ? gps.lat : place && !Number.isNaN(place.latitude) ? place.latitude : 0;
    const longitude = gps ? gps.lng : place && !Number.isNaN(place.longitude) ? place.longitude : 0;
    const { accuracy, confidence } = sureness(p, s, place, gps, consensusKm, vpn.detected);
    const data = buildRecord({
      address, parsed, place, latitude, longitude, timezone, org, asnOrg: org,
      asn: row >= 0 ? `AS${asn!.asn(row)}` : UNKNOWN, networkType, vpn, privacy, accuracy, confidence, gps, consensusKm,
      placeSource: place === null ? null : place === p ? primary!.name : second!.name, reserved: null,
    });
    const used = usedByMask[(p ? 1 : 0) | (s ? 2 : 0) | (row >= 0 ? 4 : 0)]!;
    return withWebrtc({ success: true, data, device, confidence, sources_used: used }, webrtc);
  }

  function sourcePlaces(ip: string): SourcePlace[] {
    const parsed = parseAddress(ip);
    if (reservedKind(parsed)) return [];
    if (parsed.version === 6) toWords(parsed.value, words);
    const places: SourcePlace[] = [];
    for (const source of [primary, second]) {
      const place = emptyPlace();
      if (source && ask(parsed, source, place) && Number.isFinite(place.latitude) && Number.isFinite(place.longitude)) {
        places.push({ source: source.name, city: place.city, latitude: place.latitude, longitude: place.longitude });
      }
    }
    return places;
  }

  return {
    lookup,
    sourcePlaces,
    sources: usedByMask[7]!,
    get dataGeneration() { return lists?.generation ?? 0; },
  };
}

/** The response with the classified WebRTC addresses, when the request carried candidates. */
function withWebrtc(response: LookupResponse, webrtc: WebrtcAddress[] | undefined): LookupResponse {
  if (webrtc) response.webrtc = webrtc;
  return response;
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
  /** Name of the city source `place` comes from. */
  placeSource: string | null;
  reserved: string | null;
}

/** The record, in one place for every kind of address. */
function buildRecord(r: RecordParts): IpInfo {
  const countryCode = r.place?.countryCode || UNKNOWN;
  const record: IpInfo = {
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
    place_source: r.placeSource,
    rtt_ms: null,
    network_type: r.networkType,
    accuracy_radius: r.accuracy.radius,
    accuracy_tier: r.accuracy.tier,
    reserved: r.reserved,
  };
  // ifconfig.co's codes, only where a source has one (docs/api.md, "ifconfig.co's fields").
  if (r.place?.regionCode) record.region_code = r.place.regionCode;
  if (r.place?.metroCode) record.metro_code = r.place.metroCode;
  return record;
}

/** The verdict for an address no database knows: no signal can fire. */
const RESERVED_VPN = judgeVpn({ privacy: reservedPrivacy('Reserved'), addressTimezone: UNKNOWN, browserTimezone: undefined, webrtcLeak: false });

/** A special-purpose address: no database knows it; say what kind it is instead. */
function reservedResponse(address: string, parsed: ParsedIp, kind: string, gps: GpsLocation | null, device: LookupResponse['device']): LookupResponse {
  const accuracy = accuracyFor({ gpsAccuracyM: gps?.accuracy, vpnDetected: false, consensusKm: null, cityKnown: false, bigCity: false, countryKnown: false });
  const confidence = confidenceScore({ gpsAccuracyM: gps?.accuracy, consensusKm: null, cityKnown: false, countryKnown: false, countriesDisagree: false });
  const data = buildRecord({
    address, parsed, place: null, latitude: gps ? gps.lat : 0, longitude: gps ? gps.lng : 0, timezone: UNKNOWN,
    org: kind, asnOrg: UNKNOWN, asn: UNKNOWN, networkType: 'private', vpn: RESERVED_VPN, privacy: reservedPrivacy(kind), accuracy, confidence, gps, consensusKm: null,
    placeSource: null, reserved: kind,
  });
  return { success: true, data, device, confidence, sources_used: [] };
}

/**
 * Opens the databases (DB-IP City, GeoLite2 City or `geoipCityDb`, the ASN index from
 * `distDir`) and returns the engine, with each source's and list's state for /healthz. Never rejects
 * for a missing or broken database: that source is left out, said in one line on stderr.
 */
export async function createEngine(options: SourceOptions = {}): Promise<Engine & { dataStates(): Array<[string, string]>; data: Pick<Sources, 'asn' | 'lists'> }> {
  const { sources, problems, states } = await openSources(options);
  if (problems.length > 0) console.warn(`lookup: ${problems.join('; ')}`);
  // The lists change while the process runs, so their lines are read at every call.
  // `data`: the ASN index and the lists themselves, for the network pages (src/server/networks/).
  return Object.assign(engineFrom(sources), { dataStates: () => [...states, ...(sources.lists?.states() ?? [])], data: { asn: sources.asn, lists: sources.lists } });
}
