/**
 * The browser's checks of every API answer it reads, one guard per schema: the schemas
 * (record.ts, city-search.ts, dns-leak-record.ts, analytics.ts, ...) define the answers and
 * the server and tests use them; these accept exactly what they accept, without zod's code in
 * the page (src/lib/guard.ts). src/lib/answer-guards.test.ts holds each guard to its schema on
 * real answers and on each of their fields made wrong.
 */
import type { Dashboard, Figure, RecentLookup } from './analytics.ts';
import { PERIODS } from './analytics.ts';
import type { BulkResponse, BulkResult } from './bulk.ts';
import type { CityCandidate, CitySearchResponse } from './city-search.ts';
import type { ClientConfig } from './client-config.ts';
import type { DataSource } from './data-sources.ts';
import { DNS_TRANSPORTS, DNS_VERDICTS, type DnsLeakResult, type DnsLeakStart, type DnsResolver } from './dns-leak-record.ts';
import { arrayOf, either, isBoolean, isNumber, isString, nullable, numberIn, object, oneOf, optional } from './guard.ts';
import {
  ACCURACY_TIERS, BROWSERS, DEVICE_KINDS, LOCATION_SOURCES, NETWORK_TYPES, OPERATING_SYSTEMS, RISK_LEVELS, WEBRTC_KINDS,
  type ApiError, type DeviceInfo, type HostnameRecord, type IpInfo, type LookupResponse, type PortCheck, type Privacy,
  type VpnResult, type WebrtcAddress,
} from './record.ts';
import type { PlaceCorrection } from './verification.ts';

const isFlag = nullable(isBoolean);
const isNullableString = nullable(isString);
const isNullableNumber = nullable(isNumber);
const isIpVersion = oneOf(['ipv4', 'ipv6']);

const isErrorBody = object<ApiError['error']>({ code: isString, message: isString });
/** `{ error: { code, message } }`: every API error. */
export const isApiError = object<ApiError>({ error: isErrorBody });

const isPrivacy = object<Privacy>({
  vpn: isFlag, proxy: isFlag, tor: isFlag, relay: isFlag, hosting: isFlag, service: isNullableString,
  reasons: object<Privacy['reasons']>({ vpn: isString, proxy: isString, tor: isString, relay: isString, hosting: isString }),
});

const isIpInfo = object<IpInfo>({
  ip: isString, ip_version: isIpVersion, city: isString, region: isString, country: isString, country_name: isString,
  country_code: isString, postal: isString, latitude: isNumber, longitude: isNumber, timezone: isString, isp: isString,
  org: isString, asn: isString, asn_org: isString, confidence_score: isNumber, location_source: oneOf(LOCATION_SOURCES),
  vpn_detected: isBoolean,
  vpn: object<VpnResult>({ detected: isBoolean, confidence: isNumber, indicators: arrayOf(isString), reasons: arrayOf(isString) }),
  privacy: isPrivacy, risk_level: oneOf(RISK_LEVELS), distance_consensus: isNullableNumber, place_source: isNullableString,
  rtt_ms: isNullableNumber, network_type: oneOf(NETWORK_TYPES), accuracy_radius: isNumber, accuracy_tier: oneOf(ACCURACY_TIERS),
  reserved: isNullableString, region_code: optional(isString), metro_code: optional(isNumber),
  hostname: optional(isNullableString), hostname_confirmed: optional(isBoolean),
});

/** GET/POST /api/lookup and GET /api/lookup/{ip}. */
export const isLookupResponse = object<LookupResponse>({
  success: isBoolean,
  data: isIpInfo,
  device: nullable(object<DeviceInfo>({
    browser: oneOf(BROWSERS), os: oneOf(OPERATING_SYSTEMS), device: oneOf(DEVICE_KINDS), userAgent: isString, bot: isBoolean,
  })),
  confidence: isNumber,
  sources_used: arrayOf(isString),
  webrtc: optional(arrayOf(object<WebrtcAddress>({ ip: isString, ip_version: isIpVersion, kind: oneOf(WEBRTC_KINDS) }))),
});

/** `/hostname` asked as JSON. */
export const isHostnameRecord = object<HostnameRecord>({ ip: isString, hostname: isNullableString, hostname_confirmed: isBoolean });

/** `/port/{n}`. */
export const isPortCheck = object<PortCheck>({ ip: isString, port: isNumber, reachable: isBoolean });

/** GET /api/config. */
export const isClientConfig = object<ClientConfig>({
  tileUrl: isString, tileAttribution: isString, stunUrl: isNullableString, stunPort: isNullableNumber,
  ipv4Url: isNullableString, ipv6Url: isNullableString, dnsLeakZone: isNullableString,
});

/** GET /api/cities. */
export const isCitySearchResponse = object<CitySearchResponse>({
  query: isString,
  count: isNumber,
  results: arrayOf(object<CityCandidate>({
    city: isString, region: isString, country: isString, country_code: isString, latitude: isNumber, longitude: isNumber,
    confidence: isNumber, population: isNullableNumber,
  })),
});

/** A visitor's correction as read back from the browser's storage. */
export const isPlaceCorrection = object<PlaceCorrection>({
  ip: isString, city: isString, region: isString, country: isString, country_code: isString,
  latitude: numberIn(-90, 90), longitude: numberIn(-180, 180), verified: isBoolean, population: optional(isNullableNumber),
});

/** POST /api/dns-leak: at most 64 names (DnsLeakStartSchema). */
export const isDnsLeakStart = object<DnsLeakStart>({ token: isString, names: arrayOf(isString, 64), expires_in: isNumber });

/** GET /api/dns-leak/{token}. */
export const isDnsLeakResult = object<DnsLeakResult>({
  token: isString,
  names_total: isNumber,
  names_seen: isNumber,
  resolvers: arrayOf(object<DnsResolver>({
    ip: isString, transports: arrayOf(oneOf(DNS_TRANSPORTS)), ecs: isNullableString, dnssec_ok: isBoolean, queries: isNumber,
    first_seen: isString, asn: isNullableNumber, as_name: isNullableString, operator: isNullableString, country: isNullableString,
    country_name: isNullableString, city: isNullableString, network_type: oneOf(NETWORK_TYPES), privacy: isPrivacy,
  })),
  verdict: object<DnsLeakResult['verdict']>({ state: oneOf(DNS_VERDICTS), text: isString }),
});

const isFigure = object<Figure>({ value: isNullableNumber, previous: isNullableNumber, change: isNullableNumber });
/** The fields of an accuracy group (AccuracyGroupSchema in analytics.ts). */
const ACCURACY_GROUP = { corrections: isNumber, networks: isNumber, asns: isNumber, published: isBoolean, medianKm: isNullableNumber, p90Km: isNullableNumber };
type Accuracy = Dashboard['accuracy'];

/** GET /api/analytics. */
export const isDashboard = object<Dashboard>({
  period: oneOf(PERIODS), unit: oneOf(['hour', 'day']), from: isString, to: isString, previousFrom: isString, previousTo: isString,
  lookups: isFigure, networks: isFigure, vpnRate: isFigure,
  countries: arrayOf(object<Dashboard['countries'][number]>({ code: isString, name: isString, lookups: isNumber, share: isNumber })),
  activity: arrayOf(object<Dashboard['activity'][number]>({ start: isString, lookups: isNumber })),
  accuracy: object<Accuracy>({
    ...ACCURACY_GROUP,
    minimum: object<Accuracy['minimum']>({ networks: isNumber, asns: isNumber }),
    note: isNullableString,
    byNetworkType: arrayOf(object<Accuracy['byNetworkType'][number]>({ networkType: isString, ...ACCURACY_GROUP })),
  }),
  recent: nullable(arrayOf(object<RecentLookup>({
    network: isString, city: isString, region: isString, country: isString, countryCode: isString, vpnDetected: isBoolean,
    riskLevel: isString, networkType: isString, at: isString,
  }))),
});

/** POST /api/lookup/bulk: per row, a record or why there is none. */
export const isBulkResponse = object<BulkResponse>({
  count: isNumber,
  results: arrayOf<BulkResult>(either(
    object<Extract<BulkResult, { data: unknown }>>({ input: isString, data: isIpInfo }),
    object<Extract<BulkResult, { error: unknown }>>({ input: isString, error: isErrorBody }),
  )),
});

/** GET /api/data-sources. */
export const isDataSources = object<{ sources: DataSource[] }>({
  sources: arrayOf(object<DataSource>({ id: isString, into: isString, fetched_at: isNullableString, stale: isBoolean })),
});
