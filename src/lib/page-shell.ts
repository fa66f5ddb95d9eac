/**
 * Marks for pages built once as a shell and filled per request (DESIGN.md decision 14):
 * the page renders at build time with these marker values in place of the visitor's,
 * and the server finds them in the built HTML and puts the real values there
 * (src/server/shell/). A marker string is a private-use character, its path in the
 * values and another private-use character, so it cannot collide with page text.
 *
 * A page uses them as it would use the real values: `initial={SHELL_MARKS.lookup}` on
 * an island, or `{SHELL_MARKS.lookup.data.ip}` as text or an attribute in Astro markup.
 * An island whose props carry a marked value is rendered again per request with the
 * real one; Astro markup may show a marked string as it is (the server escapes it), but
 * not inside a script or style, and not transformed (`.toUpperCase()`): the server then
 * refuses the shell at start, saying where.
 */
import type { ClientConfig } from './client-config.ts';
import type { LookupResponse } from './record.ts';

/** Opens and closes a marker string. */
export const MARK_OPEN = '\uE000';
export const MARK_CLOSE = '\uE001';

/** The marker string standing for the value at `path` (dotted, from the values' root). */
export const markFor = (path: string): string => `${MARK_OPEN}${path}${MARK_CLOSE}`;

/** The per-visitor record, every text field a marker. */
const lookup: LookupResponse = {
  success: true,
  data: {
    ip: markFor('lookup.data.ip'),
    ip_version: 'ipv4',
    city: markFor('lookup.data.city'),
    region: markFor('lookup.data.region'),
    country: markFor('lookup.data.country'),
    country_name: markFor('lookup.data.country_name'),
    country_code: markFor('lookup.data.country_code'),
    postal: markFor('lookup.data.postal'),
    latitude: 0,
    longitude: 0,
    timezone: markFor('lookup.data.timezone'),
    isp: markFor('lookup.data.isp'),
    org: markFor('lookup.data.org'),
    asn: markFor('lookup.data.asn'),
    asn_org: markFor('lookup.data.asn_org'),
    confidence_score: 0,
    location_source: 'ip',
    vpn_detected: false,
    vpn: { detected: false, confidence: 0, indicators: [] },
    risk_level: 'low',
    distance_consensus: null,
    rtt_ms: null,
    network_type: 'other',
    accuracy_radius: 0,
    accuracy_tier: 'region',
    reserved: null,
  },
  device: { browser: 'Unknown', os: 'Unknown', device: 'Desktop', userAgent: markFor('lookup.device.userAgent'), bot: false },
  confidence: 0,
  sources_used: [],
};

/** The browser's runtime settings (read from the environment at start). */
const clientConfig: ClientConfig = {
  tileUrl: markFor('clientConfig.tileUrl'),
  tileAttribution: markFor('clientConfig.tileAttribution'),
  stunUrl: markFor('clientConfig.stunUrl'),
  ipv4Url: markFor('clientConfig.ipv4Url'),
  ipv6Url: markFor('clientConfig.ipv6Url'),
};

/** The values a shell page may mark, with their marker stand-ins. */
export interface ShellValues {
  lookup: LookupResponse;
  clientConfig: ClientConfig;
}

/** What shell pages render at build time in place of the real values. */
export const SHELL_MARKS: Readonly<ShellValues> = { lookup, clientConfig };
