/**
 * The lookup record and the API's request/response shapes: one definition shared by the
 * server (which builds them) and the islands (which validate what they fetch with
 * src/lib/answer-guards.ts, held to these schemas by its test).
 * Field names are the API's contract (docs/api.md).
 */
import * as z from 'zod/mini';

export const LOCATION_SOURCES = ['ip', 'hybrid', 'cached'] as const;
export const RISK_LEVELS = ['low', 'medium', 'high'] as const;
export const ACCURACY_TIERS = ['high', 'medium', 'low', 'region'] as const;
export const NETWORK_TYPES = ['mobile', 'business', 'datacenter', 'residential', 'private', 'other'] as const;

/** Result of the VPN/proxy score (src/lib/vpn-score.ts): detected when the score exceeds 0.4. */
export const VpnResultSchema = z.object({
  detected: z.boolean(),
  /** Summed score, 0 and up (not capped at 1; the threshold is 0.4). */
  confidence: z.number(),
  /** One reason text per row that fired, e.g. 'Datacenter IP detected'. */
  indicators: z.array(z.string()),
  /**
   * One sentence per indicator, in the same order, saying what was compared or which list
   * matched ('Your browser says Europe/Berlin, this address is in America/New_York.').
   */
  reasons: z.array(z.string()),
});
export type VpnResult = z.infer<typeof VpnResultSchema>;

/** A privacy flag: true or false from a check that ran, null when its list is not loaded. */
const Flag = z.nullable(z.boolean());

/** Named privacy flags, like ipinfo's, each with its reason (src/lib/privacy.ts). */
export const PrivacySchema = z.object({
  vpn: Flag,
  proxy: Flag,
  tor: Flag,
  /** iCloud Private Relay. */
  relay: Flag,
  hosting: Flag,
  /** The service's name when known: 'Tor', 'iCloud Private Relay', a VPN's name. */
  service: z.nullable(z.string()),
  /** Per flag, in words: which list or name said so, or that the check was not available. */
  reasons: z.object({ vpn: z.string(), proxy: z.string(), tor: z.string(), relay: z.string(), hosting: z.string() }),
});
export type Privacy = z.infer<typeof PrivacySchema>;

/** What the record says for text nothing knows ('Unknown'), in every field and every module. */
export const UNKNOWN = 'Unknown';

/** The IP info record. Missing text is 'Unknown'; missing coordinates are 0. */
export const IpInfoSchema = z.object({
  ip: z.string(),
  ip_version: z.enum(['ipv4', 'ipv6']),
  city: z.string(),
  region: z.string(),
  /** ISO 3166-1 alpha-2, the same as country_code: API clients read `country` as the code (ifconfig.co's is the name, our country_name: docs/api.md). */
  country: z.string(),
  country_name: z.string(),
  country_code: z.string(),
  postal: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  timezone: z.string(),
  isp: z.string(),
  org: z.string(),
  /** 'AS15169', or 'Unknown'. */
  asn: z.string(),
  asn_org: z.string(),
  confidence_score: z.number(),
  location_source: z.enum(LOCATION_SOURCES),
  vpn_detected: z.boolean(),
  vpn: VpnResultSchema,
  privacy: PrivacySchema,
  risk_level: z.enum(RISK_LEVELS),
  /** km between the two city sources when both name a city; null otherwise. */
  distance_consensus: z.nullable(z.number()),
  /**
   * Which city database the shown city, region and (without GPS) coordinates come from:
   * 'dbip-city', 'geolite2-city' or the name of the operator's own file; null when neither
   * knows the address. When both name a city, the one measured closer to the truth for
   * their consensus band (src/lib/accuracy-model.ts).
   */
  place_source: z.nullable(z.string()),
  /** Round trip measured by the browser (request time minus server time); null on the server. */
  rtt_ms: z.nullable(z.number()),
  network_type: z.enum(NETWORK_TYPES),
  /**
   * Metres. The address's true place lies inside it for at least two addresses in three
   * (src/lib/accuracy.ts); with a GPS fix, the browser's own accuracy.
   */
  accuracy_radius: z.number(),
  accuracy_tier: z.enum(ACCURACY_TIERS),
  /** For special-purpose addresses: 'Private network', 'Loopback', ...; null for public ones. */
  reserved: z.nullable(z.string()),
  /** The region's ISO 3166-2 code without the country ('CA'), as ifconfig.co's `region_code`; absent when no source has one. */
  region_code: z.optional(z.string()),
  /** The US metro (DMA) code, as ifconfig.co's `metro_code`; absent outside the US or when no source has one. */
  metro_code: z.optional(z.number()),
  /**
   * The address's host name by reverse DNS (src/server/reverse-dns/), null when it has none or
   * REVERSE_DNS is off. Absent only from a page's record when the name was not known yet:
   * the page then asks /hostname for it.
   */
  hostname: z.optional(z.nullable(z.string())),
  /** Whether the host name resolves back to the address (forward-confirmed). */
  hostname_confirmed: z.optional(z.boolean()),
});
export type IpInfo = z.infer<typeof IpInfoSchema>;

export const BROWSERS = ['Chrome', 'Firefox', 'Safari', 'Edge', 'Opera', 'Unknown'] as const;
export const OPERATING_SYSTEMS = ['Windows', 'macOS', 'Linux', 'Android', 'iOS', 'Unknown'] as const;
export const DEVICE_KINDS = ['Desktop', 'Mobile', 'Tablet'] as const;

export const DeviceInfoSchema = z.object({
  browser: z.enum(BROWSERS),
  os: z.enum(OPERATING_SYSTEMS),
  device: z.enum(DEVICE_KINDS),
  userAgent: z.string(),
  /** True when the User-Agent is a known crawler or command-line client. */
  bot: z.boolean(),
});
export type DeviceInfo = z.infer<typeof DeviceInfoSchema>;

export const GpsLocationSchema = z.object({
  lat: z.number().check(z.gte(-90), z.lte(90)),
  lng: z.number().check(z.gte(-180), z.lte(180)),
  accuracy: z.number().check(z.gte(0)),
});
export type GpsLocation = z.infer<typeof GpsLocationSchema>;

/** Body of POST /api/lookup: what the page sends (src/stores/lookup.ts): the browser's clientInfo and GPS position, and what the WebRTC probe saw. */
export const LookupRequestSchema = z.object({
  ip: z.optional(z.string()),
  clientInfo: z.optional(z.object({
    timezone: z.optional(z.string()),
    language: z.optional(z.string()),
    userAgent: z.optional(z.string()),
  })),
  browserLocation: z.optional(z.nullable(GpsLocationSchema)),
  /** Addresses the browser's peer-connection probe gathered (ICE candidates). */
  webrtc: z.optional(z.nullable(z.object({ candidates: z.array(z.string()).check(z.maxLength(64)) }))),
});
export type LookupRequest = z.infer<typeof LookupRequestSchema>;

/** What a public address the WebRTC probe saw means (the rule: src/lib/webrtc-leak.ts). */
export const WEBRTC_KINDS = ['other-family', 'same-network', 'leak'] as const;

/** One public address the probe saw that is not the page's own. */
export const WebrtcAddressSchema = z.object({
  ip: z.string(),
  ip_version: z.enum(['ipv4', 'ipv6']),
  /** `other-family`: the visitor's other address; `same-network`: another of theirs; `leak`: another network's. */
  kind: z.enum(WEBRTC_KINDS),
});
export type WebrtcAddress = z.infer<typeof WebrtcAddressSchema>;

/** Response of GET/POST /api/lookup and GET /api/lookup/{ip}. */
export const LookupResponseSchema = z.object({
  success: z.boolean(),
  data: IpInfoSchema,
  device: z.nullable(DeviceInfoSchema),
  confidence: z.number(),
  /** Which sources answered, e.g. ['dbip-city', 'geolite2-city', 'asn']. */
  sources_used: z.array(z.string()),
  /**
   * Present when the request carried WebRTC candidates: each public address among them
   * other than `data.ip`, classified. Only `leak` ones feed the VPN score.
   */
  webrtc: z.optional(z.array(WebrtcAddressSchema)),
});
export type LookupResponse = z.infer<typeof LookupResponseSchema>;

/** Every API error: `{ error: { code, message } }`. */
export const ApiErrorSchema = z.object({ error: z.object({ code: z.string(), message: z.string() }) });
export type ApiError = z.infer<typeof ApiErrorSchema>;

/** Answer of `/hostname` asked as JSON (`Accept: application/json`). */
export const HostnameSchema = z.object({ ip: z.string(), hostname: z.nullable(z.string()), hostname_confirmed: z.boolean() });
export type HostnameRecord = z.infer<typeof HostnameSchema>;

/** Answer of `/port/{n}` (the open-port check of the caller's own address), as ifconfig.co's. */
export const PortCheckSchema = z.object({ ip: z.string(), port: z.number(), reachable: z.boolean() });
export type PortCheck = z.infer<typeof PortCheckSchema>;
