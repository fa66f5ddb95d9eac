/** Short texts built from an IP info record for the /ip-3 result card and table (the place line: place-line.ts). */
import { UNKNOWN, type IpInfo } from './record.ts';

const known = (value: string): boolean => value !== '' && value !== UNKNOWN;

/** The operator's name: ISP, else organisation, else the ASN's organisation, or `unknown`. */
export function networkOf(info: IpInfo, unknown: string): string {
  return [info.isp, info.org, info.asn_org].find(known) ?? unknown;
}

/** "AS15169 GOOGLE", or `unknown` when no ASN is known. */
export function asnOf(info: IpInfo, unknown: string): string {
  if (!known(info.asn)) return unknown;
  return known(info.asn_org) ? `${info.asn} ${info.asn_org}` : info.asn;
}
