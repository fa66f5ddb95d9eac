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
  /**
   * STUN server for the WebRTC leak check when the operator names one (PUBLIC_STUN_URL), e.g.
   * `stun:stun.example.net:3478`; null to use this server's own responder (stunPort).
   */
  stunUrl: z.nullable(z.string()),
  /** UDP port of this server's own STUN responder (src/server/udp/stun.ts), or null when it is off. */
  stunPort: z.nullable(z.number()),
  /** URL answering the caller's address over IPv4 only (e.g. https://v4.example.com/ip), or null. */
  ipv4Url: z.nullable(z.string()),
  /** Same over IPv6 only, or null. */
  ipv6Url: z.nullable(z.string()),
  /**
   * The zone this server answers DNS for (DNS_LEAK_ZONE), e.g. `dns.example.com`: the DNS leak
   * test asks the browser to load never-seen names under it. Null when the test is not set up.
   */
  dnsLeakZone: z.nullable(z.string()),
});
export type ClientConfig = z.infer<typeof ClientConfigSchema>;

export const DEFAULT_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
export const DEFAULT_TILE_ATTRIBUTION = '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';

/**
 * Builds the client config from environment variables (PUBLIC_TILE_URL,
 * PUBLIC_TILE_ATTRIBUTION, PUBLIC_STUN_URL, PUBLIC_IPV4_URL, PUBLIC_IPV6_URL) and the port
 * of the server's own STUN responder (0: off).
 */
export function clientConfigFromEnv(env: Record<string, string | undefined>, stunPort: number): ClientConfig {
  return {
    tileUrl: env.PUBLIC_TILE_URL || DEFAULT_TILE_URL,
    tileAttribution: env.PUBLIC_TILE_ATTRIBUTION || DEFAULT_TILE_ATTRIBUTION,
    stunUrl: env.PUBLIC_STUN_URL || null,
    stunPort: stunPort || null,
    ipv4Url: env.PUBLIC_IPV4_URL || null,
    ipv6Url: env.PUBLIC_IPV6_URL || null,
    dnsLeakZone: null,
  };
}

/**
 * The STUN URL the browser asks: the operator's, else this server's own responder on the
 * host the page came from (the visitor reached that name, so UDP to it reaches us too,
 * unless a CDN fronts the site: then PUBLIC_STUN_URL names the origin). `hostname` is
 * `location.hostname`, which brackets IPv6 literals as a STUN URI wants (RFC 7064).
 * Null when neither exists: the check does not run.
 */
export function stunUrlFor(config: Pick<ClientConfig, 'stunUrl' | 'stunPort'>, hostname: string): string | null {
  if (config.stunUrl) return config.stunUrl;
  return config.stunPort && hostname ? `stun:${hostname}:${config.stunPort}` : null;
}
