/**
 * Runtime settings the browser needs (map tiles, STUN server, per-family IP echo URLs).
 * Read from the server's environment at start, handed to `/` through locals and to
 * static pages through GET /api/config, so they change without a rebuild.
 */
import * as z from 'zod/mini';

export const ClientConfigSchema = z.object({
  /** Leaflet tile URL template. */
  tileUrl: z.string(),
  /** Attribution HTML for the tiles (trusted: it comes from our own configuration). */
  tileAttribution: z.string(),
  /** STUN server for the WebRTC leak check, e.g. `stun:127.0.0.1:3478`. */
  stunUrl: z.string(),
  /** URL answering the caller's address over IPv4 only (e.g. https://v4.example.com/ip), or null. */
  ipv4Url: z.nullable(z.string()),
  /** Same over IPv6 only, or null. */
  ipv6Url: z.nullable(z.string()),
});
export type ClientConfig = z.infer<typeof ClientConfigSchema>;

export const DEFAULT_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
export const DEFAULT_TILE_ATTRIBUTION = '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';
export const DEFAULT_STUN_URL = 'stun:stun.l.google.com:19302';

/** Builds the client config from environment variables (PUBLIC_TILE_URL, PUBLIC_TILE_ATTRIBUTION, PUBLIC_STUN_URL, PUBLIC_IPV4_URL, PUBLIC_IPV6_URL). */
export function clientConfigFromEnv(env: Record<string, string | undefined>): ClientConfig {
  return {
    tileUrl: env.PUBLIC_TILE_URL || DEFAULT_TILE_URL,
    tileAttribution: env.PUBLIC_TILE_ATTRIBUTION || DEFAULT_TILE_ATTRIBUTION,
    stunUrl: env.PUBLIC_STUN_URL || DEFAULT_STUN_URL,
    ipv4Url: env.PUBLIC_IPV4_URL || null,
    ipv6Url: env.PUBLIC_IPV6_URL || null,
  };
}
