/**
 * The /json body of a record: the record's members in their order, then ifconfig.co's
 * fields of the address (src/lib/ifconfig-fields.ts), written as JSON text joined from
 * parts rather than by `JSON.stringify` of the record made whole. The privacy flags with
 * their reasons and the VPN verdict, over half of the body, are shared and frozen for
 * most addresses (privacy-memo.ts): their JSON is written once per shared object and
 * kept beside it. The text is byte for byte what `JSON.stringify` gives for the same
 * record (tests/json-differential.test.ts, over 100,000 addresses): a member added to the
 * record (engine.ts `buildRecord`) needs its line here, and that test fails until it has one.
 */
import { ifconfigFields } from '../../lib/ifconfig-fields.ts';
import type { IpInfo } from '../../lib/record.ts';

/** The JSON of frozen (shared) parts, kept as long as the part itself. */
const kept = new WeakMap<object, string>();

/** A part's JSON: kept when the part is frozen, so shared by many records. */
function part(value: object): string {
  if (!Object.isFrozen(value)) return JSON.stringify(value);
  let json = kept.get(value);
  if (json === undefined) {
    json = JSON.stringify(value);
    kept.set(value, json);
  }
  return json;
}

const str = JSON.stringify as (value: string) => string;
/** A number as JSON writes it (NaN and the infinities are null). */
const num = (value: number): string => (Number.isFinite(value) ? String(value) : 'null');
const nullable = (value: string | null): string => (value === null ? 'null' : str(value));

/** The record with ifconfig.co's fields, as JSON text without a trailing newline. */
export function recordJson(r: IpInfo): string {
  const f = ifconfigFields(r);
  return `{"ip":${str(r.ip)},"ip_version":${str(r.ip_version)},"city":${str(r.city)},"region":${str(r.region)}`
    + `,"country":${str(r.country)},"country_name":${str(r.country_name)},"country_code":${str(r.country_code)}`
    + `,"postal":${str(r.postal)},"latitude":${num(r.latitude)},"longitude":${num(r.longitude)},"timezone":${str(r.timezone)}`
    + `,"isp":${str(r.isp)},"org":${str(r.org)},"asn":${str(r.asn)},"asn_org":${str(r.asn_org)}`
    + `,"confidence_score":${num(r.confidence_score)},"location_source":${str(r.location_source)},"vpn_detected":${r.vpn_detected}`
    + `,"vpn":${part(r.vpn)},"privacy":${part(r.privacy)},"risk_level":${str(r.risk_level)}`
    + `,"distance_consensus":${r.distance_consensus === null ? 'null' : num(r.distance_consensus)},"place_source":${nullable(r.place_source)}`
    + `,"rtt_ms":${r.rtt_ms === null ? 'null' : num(r.rtt_ms)},"network_type":${str(r.network_type)}`
    + `,"accuracy_radius":${num(r.accuracy_radius)},"accuracy_tier":${str(r.accuracy_tier)},"reserved":${nullable(r.reserved)}`
    + (r.region_code === undefined ? '' : `,"region_code":${str(r.region_code)}`)
    + (r.metro_code === undefined ? '' : `,"metro_code":${num(r.metro_code)}`)
    + `,"ip_decimal":${typeof f.ip_decimal === 'number' ? num(f.ip_decimal) : str(f.ip_decimal)},"country_eu":${f.country_eu}`
    + (f.country_iso === undefined ? '' : `,"country_iso":${str(f.country_iso)}`)
    + (f.region_name === undefined ? '' : `,"region_name":${str(f.region_name)}`)
    + (f.zip_code === undefined ? '' : `,"zip_code":${str(f.zip_code)}`)
    + (f.time_zone === undefined ? '' : `,"time_zone":${str(f.time_zone)}`)
    + '}';
}
