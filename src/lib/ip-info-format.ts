/** Short texts built from an IP info record for cards and tables. */
import type { IpInfo } from './record.ts';

const known = (value: string): boolean => value !== '' && value !== 'Unknown';

/** "City, Region, Country" from the parts the databases know, or `unknown`. */
export function placeOf(info: IpInfo, unknown: string): string {
  const parts = [info.city, info.region, info.country_name].filter(known);
  return parts.length ? [...new Set(parts)].join(', ') : unknown;
}

/** The operator's name: ISP, else organisation, else the ASN's organisation, or `unknown`. */
export function networkOf(info: IpInfo, unknown: string): string {
  return [info.isp, info.org, info.asn_org].find(known) ?? unknown;
}

/** "AS15169 GOOGLE", or `unknown` when no ASN is known. */
export function asnOf(info: IpInfo, unknown: string): string {
  if (!known(info.asn)) return unknown;
  return known(info.asn_org) ? `${info.asn} ${info.asn_org}` : info.asn;
}
