/**
 * A valid lookup answer (`LookupResponse`, src/lib/record.ts) for the stores' and islands'
 * tests, told apart by its address and city; checked against the schema, so it follows
 * the record when the record changes.
 */
import { LookupResponseSchema, type LookupResponse } from '../../src/lib/record.ts';

export function lookupResponse(ip: string, city = 'Berlin'): LookupResponse {
  return LookupResponseSchema.parse({
    success: true,
    data: {
      ip, ip_version: ip.includes(':') ? 'ipv6' : 'ipv4', city, region: 'Berlin', country: 'DE', country_name: 'Germany',
      country_code: 'DE', postal: '10115', latitude: 52.52, longitude: 13.4, timezone: 'Europe/Berlin', isp: 'Example ISP',
      org: 'Example ISP', asn: 'AS64500', asn_org: 'Example ISP', confidence_score: 0.8, location_source: 'ip',
      vpn_detected: false, vpn: { detected: false, confidence: 0, indicators: [], reasons: [] },
      privacy: {
        vpn: false, proxy: false, tor: false, relay: false, hosting: false, service: null,
        reasons: { vpn: 'not listed', proxy: 'not listed', tor: 'not listed', relay: 'not listed', hosting: 'not listed' },
      },
      risk_level: 'low', distance_consensus: 3, place_source: 'dbip-city', rtt_ms: null, network_type: 'residential',
      accuracy_radius: 25_000, accuracy_tier: 'medium', reserved: null,
    },
    device: null,
    confidence: 0.8,
    sources_used: ['dbip-city', 'asn'],
  });
}
