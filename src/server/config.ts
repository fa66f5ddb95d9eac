/**
 * Server configuration, read once from the environment and validated at start.
 * A wrong value stops the process with one clear line (see main.ts).
 */
import path from 'node:path';
import { clientConfigFromEnv, type ClientConfig } from '../lib/client-config.ts';
import { parseTrustProxy, type TrustProxy } from './client-ip.ts';
import { defaultListPaths, LIST_SETTINGS, type ListPaths } from './lookup/privacy-lists.ts';

export interface Config {
  host: string;
  port: number;
  trustProxy: TrustProxy;
  dataDir: string;
  webConcurrency: number;
  /** Optional MaxMind GeoIP2/GeoLite2 City file that replaces the bundled GeoLite2 source. */
  geoipCityDb: string | undefined;
  /** PostgreSQL URL for analytics at scale; SQLite under dataDir when absent. */
  databaseUrl: string | undefined;
  /** Largest request body accepted, in bytes. */
  bodyLimit: number;
  /** Requests a minute per client on the API and command-line endpoints; 0 turns the limit off. */
  rateLimit: number;
  /** Paths of the privacy lists (Tor exits, Private Relay, VPN, proxy, hosting): a setting each, else under dataDir/lists. */
  lists: ListPaths;
  /** Settings handed to the browser. */
  client: ClientConfig;
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

/** Reads and validates the configuration; throws ConfigError on the first bad value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  let trustProxy: TrustProxy;
  try {
    trustProxy = parseTrustProxy(env.TRUST_PROXY);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must start with postgres:// or postgresql://');
  }
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
    databaseUrl,
    bodyLimit: integer(env, 'BODY_LIMIT', 64 * 1024, 1024, 10 * 1024 * 1024),
    rateLimit: integer(env, 'RATE_LIMIT', 300, 0, 1_000_000),
    lists,
    client: clientConfigFromEnv(env),
  };
}
