/** A record's ASN and network name ("AS15169 Google LLC"), linked to the network's page when the record names one. */
import { asnPath } from '../lib/asn.ts';
import { asnOf } from '../lib/ip-info-format.ts';
import type { IpInfo } from '../lib/record.ts';

export default function AsnLink({ info, unknown }: { info: IpInfo; unknown: string }) {
  const href = asnPath(info.asn);
  const label = asnOf(info, unknown);
  return href ? <a href={href}>{label}</a> : <>{label}</>;
}
