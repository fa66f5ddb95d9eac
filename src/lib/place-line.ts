/** The location line under the IP: 'City, Region, Country', leaving out unknown parts. */
import type { IpInfo } from './record.ts';

const UNKNOWN = 'Unknown';

/** Joins the known parts; empty when none is known. */
export function placeLine(r: Pick<IpInfo, 'city' | 'region' | 'country_name'>): string {
  const parts = [r.city, r.region, r.country_name].filter((p) => p && p !== UNKNOWN);
  return [...new Set(parts)].join(', ');
}
