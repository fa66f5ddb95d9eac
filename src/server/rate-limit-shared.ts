/**
 * Rate-limit stores shared beyond one process, through rate-limiter-flexible: across the
 * node:cluster workers of one machine (its cluster limiter: workers ask the primary, which
 * counts in the bounded memory store of rate-limit-store.ts), and across machines in Redis
 * (REDIS_URL, through ioredis; keys expire with their window). When the shared store does
 * not answer, requests go through unlimited (fail open): logged once when it starts and
 * once when it ends, and shown on /healthz.
 */
import cluster from 'node:cluster';
import { Redis } from 'ioredis';
import { RateLimiterCluster, RateLimiterClusterMaster, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { oneLine } from './log.ts';
import { WINDOW_MS, WindowCounts, type RateLimitStore, type Verdict } from './rate-limit-store.ts';

/** The cluster limiter's name, shared by the workers and the primary that answers them. */
const CLUSTER_PREFIX = 'ratelimit';
/** How long a worker waits for the primary, or a request for Redis, before failing open. */
const TIMEOUT_MS = 500;

const verdictOf = (res: RateLimiterRes): Verdict => ({ used: res.consumedPoints, resetMs: res.msBeforeNext });

/** A store that asks rate-limiter-flexible and fails open when it cannot answer. */
class SharedStore implements RateLimitStore {
  private readonly name: string;
  private readonly consume: (key: string) => Promise<RateLimiterRes>;
  private readonly ready: () => boolean;
  /** Since when and why the store does not answer; undefined while it does. */
  private failing: string | undefined;

  constructor(name: string, consume: (key: string) => Promise<RateLimiterRes>, ready: () => boolean = () => true) {
    this.name = name;
    this.consume = consume;
    this.ready = ready;
  }

  hit(key: string): Promise<Verdict | undefined> {
    return this.consume(key).then((res) => this.answered(res), (error: unknown) => {
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

/** Counts in the primary, for every worker (WEB_CONCURRENCY > 1). */
function clusterStore(perMinute: number): RateLimitStore {
  const limiter = new RateLimiterCluster({ keyPrefix: CLUSTER_PREFIX, points: perMinute, duration: WINDOW_MS / 1000, timeoutMs: TIMEOUT_MS });
  return new SharedStore('the cluster primary (shared by this machine\'s workers)', (key) => limiter.consume(key));
}

export interface RedisStoreOptions {
  url: string;
  perMinute: number;
  /** Prefix of every key, so that several services (or tests) can share one Redis. */
  keyPrefix: string;
}

/** Counts in Redis, for every process on every machine that points at it (REDIS_URL). */
export function redisStore({ url, perMinute, keyPrefix }: RedisStoreOptions): RateLimitStore & { close(): Promise<void> } {
  // No offline queue and a command timeout: while Redis is away a request waits for nothing.
  const client = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 0, commandTimeout: TIMEOUT_MS });
  // Reconnection errors repeat every retry; SharedStore logs the outage once instead.
  client.on('error', () => {});
  const limiter = new RateLimiterRedis({ storeClient: client, keyPrefix, points: perMinute, duration: WINDOW_MS / 1000, rejectIfRedisNotReady: true });
  const store = new SharedStore(`Redis (${new URL(url).host})`, (key) => limiter.consume(key), () => client.status === 'ready');
  return Object.assign(store, { close: async () => { client.disconnect(); } });
}

/** Which store a process counts in: Redis when configured, else the primary with several workers, else memory. */
export function createRateLimitStore(config: { rateLimit: number; redisUrl: string | undefined; redisPrefix: string }): RateLimitStore {
  const perMinute = config.rateLimit;
  if (config.redisUrl) return redisStore({ url: config.redisUrl, perMinute, keyPrefix: config.redisPrefix });
  return cluster.isWorker ? clusterStore(perMinute) : new WindowCounts({ perMinute });
}

/**
 * In the primary of several workers counting in memory: answers their cluster limiters
 * from one bounded store. rate-limiter-flexible's primary would count in its
 * RateLimiterMemory, which has no bound; it creates one per name only when it has none,
 * so ours is registered under the workers' name first (tests/rate-limit-shared.test.ts
 * runs the workers against it).
 */
export function serveClusterLimits(config: { rateLimit: number; redisUrl: string | undefined }): void {
  if (config.rateLimit === 0 || config.redisUrl) return;
  const counts = new WindowCounts({ perMinute: config.rateLimit });
  const primary = new RateLimiterClusterMaster() as unknown as { _rateLimiters: Record<string, unknown> };
  primary._rateLimiters[CLUSTER_PREFIX] = {
    consume(key: string): Promise<RateLimiterRes> {
      const { used, resetMs } = counts.hit(key);
      const res = new RateLimiterRes(Math.max(0, config.rateLimit - used), resetMs, used, used === 1);
      return used > config.rateLimit ? Promise.reject(res) : Promise.resolve(res);
    },
  };
}
