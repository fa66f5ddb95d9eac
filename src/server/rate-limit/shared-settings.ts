/**
 * The settings every machine that shares one Redis must agree on (docs/operations.md lists
 * them), and the check that they do. A machine whose REDIS_PREFIX differs counts its clients
 * under other keys, which silently doubles their allowance; a different limit or secret
 * splits the count in other ways. So each process writes what it has under a key of its own
 * outside REDIS_PREFIX (machines with different prefixes must see each other), every
 * CHECK_MS, with a lifetime of a few checks, and compares with every other process's: each
 * setting that differs is logged once, naming both values (a secret by a short hash of it,
 * never itself). Tested in shared-settings.test.ts and, against a real Redis, in
 * tests/rate-limit-shared.test.ts.
 */
import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import type { Redis } from 'ioredis';

/** Where the processes' settings are written: outside every REDIS_PREFIX. */
export const SETTINGS_KEY = 'whatismyip:settings:';
/** How often a process writes and compares its settings, ms; each entry lives three times that. */
export const CHECK_MS = 60_000;

/** What the shared settings are read from. */
export interface SharedConfig {
  redisPrefix: string;
  rateLimitSecret: string | undefined;
  rateLimit: number;
  pageRateLimit: number;
  portCheck: { perMinute: number };
  dnsLeakRateLimit: number;
}

/** A secret as it may be shown: a short hash, enough to tell two apart and nothing more. */
const fingerprint = (secret: string) => `sha256 ${createHash('sha256').update(secret).digest('hex').slice(0, 8)}`;

/** The settings that must match, as each is named in the environment. */
export function sharedSettings(config: SharedConfig): Record<string, string> {
  return {
    REDIS_PREFIX: config.redisPrefix,
    RATE_LIMIT_SECRET: config.rateLimitSecret ? fingerprint(config.rateLimitSecret) : 'unset (drawn at each start)',
    RATE_LIMIT: String(config.rateLimit),
    PAGE_RATE_LIMIT: String(config.pageRateLimit),
    PORT_CHECK_RATE_LIMIT: String(config.portCheck.perMinute),
    DNS_LEAK_RATE_LIMIT: String(config.dnsLeakRateLimit),
  };
}

/** Each setting of `own` that `other` holds otherwise, as `NAME: ours here, theirs there`. An unset secret differs from every other. */
export function differences(own: Record<string, string>, other: Record<string, string>): string[] {
  return Object.entries(own)
    .filter(([name, value]) => name in other && (other[name] !== value || value.startsWith('unset')))
    .map(([name, value]) => `${name}: ${value} here, ${other[name]} there`);
}

/** Stores watching in this process: each has an entry of its own. */
let watchers = 0;

/** Writes this process's settings and compares them with the others', now and every CHECK_MS. Returns how to stop (its entry removed). */
export function watchSharedSettings(client: Redis, config: SharedConfig, log: (line: string) => void = console.warn): () => Promise<void> {
  const self = `${hostname()}:${process.pid}:${++watchers}`;
  const own = sharedSettings(config);
  const said = new Set<string>();
  const check = async () => {
    await client.set(`${SETTINGS_KEY}${self}`, JSON.stringify(own), 'PX', 3 * CHECK_MS);
    const keys = (await client.keys(`${SETTINGS_KEY}*`)).filter((key) => key !== `${SETTINGS_KEY}${self}`);
    const values = keys.length ? await client.mget(...keys) : [];
    for (const [i, value] of values.entries()) {
      if (!value) continue;
      const other = keys[i]!.slice(SETTINGS_KEY.length);
      let theirs: Record<string, string>;
      try { theirs = JSON.parse(value) as Record<string, string>; } catch { continue; }
      const fresh = differences(own, theirs).filter((line) => !said.has(line));
      if (fresh.length === 0) continue;
      for (const line of fresh) said.add(line);
      log(`shared settings: this process and ${other} (host:process:store) share Redis with different settings (${fresh.join('; ')}); their limits count apart: set them alike (docs/operations.md)`);
    }
  };
  // Redis away: the store fails open and says so; this check waits for the next round.
  const run = () => void check().catch(() => undefined);
  // The client queues nothing while it connects (shared-stores.ts): the first check waits for it.
  if (client.status === 'ready') run();
  else client.once('ready', run);
  const timer = setInterval(run, CHECK_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await client.del(`${SETTINGS_KEY}${self}`).catch(() => undefined);
  };
}
