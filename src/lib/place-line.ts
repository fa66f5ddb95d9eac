/** The location line under the IP ('City, Region, Country', leaving out unknown parts) and the coordinates as shown. */
import { UNKNOWN, type IpInfo } from './record.ts';

/** Joins the known parts; empty when none is known. */
export function placeLine(r: Pick<IpInfo, 'city' | 'region' | 'country_name'>): string {
  const parts = [r.city, r.region, r.country_name].filter((p) => p && p !== UNKNOWN);
  return [...new Set(parts)].join(', ');
}

/** Coordinates as every card shows them: '51.5072, -0.1276' (four decimals, about 11 m). */
export function formatCoordinates(latitude: number, longitude: number): string {
  return `${latitude.toFixed(4)}, ${longitude.toFixed(4)}`;
}
