/**
 * Where the map centres (map-center.test.ts): the record's coordinates,
 * or New York when they are not numbers. 0,0 is how the record says "unknown", so it
 * falls back too instead of showing a point in the Gulf of Guinea.
 */

export const DEFAULT_CENTER = { lat: 40.7128, lng: -74.006 } as const;
/** The map opens at zoom 13, or wider when the accuracy circle needs it (src/islands/leaflet-map.ts). */
export const DEFAULT_ZOOM = 13;

/** The centre for a record's latitude and longitude. */
export function mapCenter(lat: unknown, lng: unknown): { lat: number; lng: number } {
  const ok = (v: unknown, max: number): v is number => typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= max;
  if (!ok(lat, 90) || !ok(lng, 180) || (lat === 0 && lng === 0)) return { ...DEFAULT_CENTER };
  return { lat, lng };
}

/** Coordinates as the popup shows them: six decimals. */
export function formatCoordinates(lat: number, lng: number): string {
  return `${lat.toFixed(6)}, ${lng.toFixed(6)}`;
}
