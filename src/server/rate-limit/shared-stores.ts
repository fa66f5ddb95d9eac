/**
 * Rate-limit stores shared beyond one process, through rate-limiter-flexible: across the
 * node:cluster workers of one machine (its cluster limiter: workers ask the primary, which
 * counts in the bounded memory store of memory-store.ts), and across machines in Redis
 * (REDIS_URL, through ioredis; keys expire with their window). Redis holds no address: each
 * key is a keyed hash of the client's key (RATE_LIMIT_SECRET), the same on every instance
 * that shares the secret. When the shared store does not answer, requests go through
 * unlimited (fail open): logged once when it starts and once when it ends, and shown on /healthz.
 */
import cluster from 'node:cluster';
import { createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { Redis } from 'ioredis';
import { RateLimiterCluster, RateLimiterClusterMaster, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { oneLine } from '../utils/log.ts';
import { watchSharedSettings, type SharedConfig } from './shared-settings.ts';
import { WINDOW_MS, WindowCounts, type RateLimitStore, type Verdict } from './memory-store.ts';
import { anyLimitOn, type LimitSettings } from './classes.ts';

export { anyLimitOn, type LimitSettings };

/** The cluster limiter's name, shared by the workers and the primary that answers them. */
const CLUSTER_PREFIX = 'ratelimit';
/** How long a worker waits for the primary before failing open. */
const TIMEOUT_MS = 500;
/**
 * How long a request waits for a Redis command before failing open, ms: what a Redis that
 * hangs (a stopped process keeps its socket open) costs each request at most
 * (tests/redis-timeout.test.ts). A Redis that refuses, or is not connected, costs nothing:
 * commands are refused at once. Not shorter: a Redis next to the server answers in well
 * under a millisecond, but the first command after a connect loads the Lua script (two round
 * trips), and a busy event loop runs the timer before the answer's callback; at 50 ms, one
 * run in four of tests/rate-limit-shared.test.ts failed open spuriously on a loaded machine.
 */
export const REDIS_COMMAND_TIMEOUT_MS = 100;
/** Bytes of the keyed hash kept in a Redis key: 128 bits, 22 characters of base64url. */
const HASH_BYTES = 16;

const verdictOf = (res: RateLimiterRes): Verdict => ({ used: res.consumedPoints, resetMs: res.msBeforeNext });

/** A store that asks rate-limiter-flexible and fails open when it cannot answer. */
class SharedStore implements RateLimitStore {
  private readonly name: string;
  private readonly consume: (key: string, limit: number) => Promise<RateLimiterRes>;
  private readonly ready: () => boolean;
  /** Since when and why the store does not answer; undefined while it does. */
  private failing: string | undefined;

  constructor(name: string, consume: (key: string, limit: number) => Promise<RateLimiterRes>, ready: () => boolean = () => true) {
    this.name = name;
    this.consume = consume;
    this.ready = ready;
  }

  hit(key: string, limit: number): Promise<Verdict | undefined> {
    return this.consume(key, limit).then((res) => this.answered(res), (error: unknown) => {
      // rate-limiter-flexible rejects with its result past the limit, with an Error when the store fails.
      if (error instanceof RateLimiterRes) return this.answered(error);
      if (this.failing === undefined) {
        this.failing = `since ${new Date().toISOString()}: ${oneLine(error)}`;
        console.error(`rate limit: ${this.name} does not answer (${oneLine(error)}); requests go through unlimited until it does`);
      }
      return undefined;
    });
  }

  private answered(res: RateLimiterRes): Verdict {
    if (this.failing !== undefined) {
      this.failing = undefined;
      console.error(`rate limit: ${this.name} answers again; limiting again`);
    }
    return verdictOf(res);
  }

  state(): string {
    if (this.failing !== undefined) return `${this.name} does not answer, failing open (${this.failing})`;
    return this.ready() ? `${this.name}, ok` : `${this.name} not connected, failing open`;
  }
}

/** The options a worker's hit carries to the primary: the key's own limit (its store keeps keys past it). */
interface ClusterHit { limit: number }

/** Counts in the primary, for every worker (WEB_CONCURRENCY > 1). */
function clusterStore(): RateLimitStore {
  // The primary compares each key with the limit its hit carries; `points` is only the library's to ask.
  const limiter = new RateLimiterCluster({ keyPrefix: CLUSTER_PREFIX, points: Number.MAX_SAFE_INTEGER, duration: WINDOW_MS / 1000, timeoutMs: TIMEOUT_MS });
  return new SharedStore('the cluster primary (shared by this machine\'s workers)', (key, limit) => limiter.consume(key, 1, { limit } satisfies ClusterHit));
}

/**
 * A key as Redis holds it: HMAC-SHA-256 under the shared secret, cut to HASH_BYTES. Keyed,
 * not a plain hash: there are only 2^32 IPv4 addresses, so a plain hash of each would name
 * it to anyone who hashed them all; without the secret this one names nothing, while every
 * instance that has it finds the same key for the same client.
 */
export function hashKey(secret: KeyObject, key: string): string {
  return createHmac('sha256', secret).update(key).digest().toString('base64url', 0, HASH_BYTES);
}

/** The secret RATE_LIMIT_SECRET would give: a random one, said in one log line, when it is unset. */
function drawnSecret(): string {
  console.warn('rate limit: RATE_LIMIT_SECRET is not set: Redis keys are hashed with a secret drawn at start, so counts will not be shared across machines (nor kept over a restart) until it is set');
  return randomBytes(32).toString('base64url');
}

export interface RedisStoreOptions {
  url: string;
  /** Prefix of every key, so that several services (or tests) can share one Redis. */
  keyPrefix: string;
  /** What keys are hashed with (RATE_LIMIT_SECRET): the same on every instance that is to share counts. */
  secret: string;
  /** The settings every machine on this Redis must agree on, checked while the store is open (shared-settings.ts). */
  shared?: SharedConfig;
}

/** Counts in Redis, for every process on every machine that points at it (REDIS_URL). */
export function redisStore({ url, keyPrefix, secret, shared }: RedisStoreOptions): RateLimitStore & { close(): Promise<void> } {
  // No offline queue and a command timeout: while Redis is away a request waits for nothing.
  const client = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout: REDIS_COMMAND_TIMEOUT_MS });
  // Reconnection errors repeat every retry; SharedStore logs the outage once instead.
  client.on('error', () => {});
  // Redis only counts: each key's limit is compared in limit.ts, so none is set here.
  const limiter = new RateLimiterRedis({ storeClient: client, keyPrefix, points: Number.MAX_SAFE_INTEGER, duration: WINDOW_MS / 1000, rejectIfRedisNotReady: true });
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
  const store = new SharedStore(`Redis (${new URL(url).host})`, (k) => limiter.consume(hashKey(key, k)), () => client.status === 'ready');
  const unwatch = shared ? watchSharedSettings(client, shared) : async () => {};
  return Object.assign(store, { close: async () => { await unwatch(); client.disconnect(); } });
}

/** What the rate-limit stores are made from. */
type StoreConfig = { redisUrl: string | undefined; redisPrefix: string; rateLimitSecret: string | undefined };

/** Which store a process counts in: Redis when configured, else the primary with several workers, else memory. */
export function createRateLimitStore(config: StoreConfig & LimitSettings): RateLimitStore {
  if (config.redisUrl) {
    const secret = config.rateLimitSecret ?? drawnSecret();
    return redisStore({ url: config.redisUrl, keyPrefix: config.redisPrefix, secret, shared: { ...config, rateLimitSecret: config.rateLimitSecret } });
  }
  return cluster.isWorker ? clusterStore() : new WindowCounts();
}

/**
 * In the primary of several workers, what they share. Counting in memory: it answers their
 * cluster limiters from one bounded store. rate-limiter-flexible's primary would count in
 * its RateLimiterMemory, which has no bound; it creates one per name only when it has none,
 * so ours is registered under the workers' name first (tests/rate-limit-shared.test.ts runs
 * the workers against it). Counting in Redis without RATE_LIMIT_SECRET: the secret drawn here,
 * handed to the workers through the environment they are forked with, so that one
 * machine's workers at least share their counts.
 */
export function serveClusterLimits(config: StoreConfig & LimitSettings): void {
  if (!anyLimitOn(config)) return;
  if (config.redisUrl) {
    process.env.RATE_LIMIT_SECRET ||= drawnSecret();
    return;
  }
  const counts = new WindowCounts();
  const primary = new RateLimiterClusterMaster() as unknown as { _rateLimiters?: Record<string, unknown> };
  // A private field of the pinned version (package.json): should an upgrade rename it, the
  // workers' counts would go to an unbounded store of the library's own. Refuse to start.
  if (typeof primary._rateLimiters !== 'object' || primary._rateLimiters === null) {
    throw new Error('rate-limiter-flexible\'s cluster primary no longer keeps its limiters in _rateLimiters: src/server/rate-limit/shared-stores.ts cannot register its bounded store (pin the version it was written for, or update serveClusterLimits)');
  }
  primary._rateLimiters[CLUSTER_PREFIX] = {
    consume(key: string, _points: number, { limit }: ClusterHit): Promise<RateLimiterRes> {
      const { used, resetMs } = counts.hit(key, limit);
      const res = new RateLimiterRes(Math.max(0, limit - used), resetMs, used, used === 1);
      return used > limit ? Promise.reject(res) : Promise.resolve(res);
    },
  };
}
