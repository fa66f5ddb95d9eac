/**
 * The cluster primary's bounded store goes into a private field of rate-limiter-flexible
 * (serveClusterLimits): checked here against the installed version, and against a version
 * without the field, where the server must refuse to start rather than count in the
 * library's unbounded store. tests/rate-limit-shared.test.ts runs real workers against it.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

const CONFIG = { redisUrl: undefined, redisPrefix: 'p', rateLimitSecret: undefined, rateLimit: 10, pageRateLimit: 10, portCheck: { perMinute: 10 }, dnsLeakRateLimit: 10 };
const OFF = { ...CONFIG, rateLimit: 0, pageRateLimit: 0, portCheck: { perMinute: 0 }, dnsLeakRateLimit: 0 };

afterEach(() => { vi.doUnmock('rate-limiter-flexible'); vi.resetModules(); });

describe('anyLimitOn', () => {
  it.each<[number, number, number, number, boolean]>([
    [0, 0, 0, 0, false],
    [1, 0, 0, 0, true],
    [0, 1, 0, 0, true],
    [0, 0, 1, 0, true],
    [0, 0, 0, 1, true],
  ])('RATE_LIMIT=%i, PAGE_RATE_LIMIT=%i, PORT_CHECK_RATE_LIMIT=%i, DNS_LEAK_RATE_LIMIT=%i: %s', async (rateLimit, pageRateLimit, perMinute, dnsLeakRateLimit, expected) => {
    const { anyLimitOn } = await import('./shared-stores.ts');
    expect(anyLimitOn({ rateLimit, pageRateLimit, portCheck: { perMinute }, dnsLeakRateLimit })).toBe(expected);
  });
});

describe('serveClusterLimits', () => {
  it('registers its store in the installed rate-limiter-flexible primary', async () => {
    vi.resetModules();
    const { serveClusterLimits } = await import('./shared-stores.ts');
    const { RateLimiterClusterMaster } = await import('rate-limiter-flexible');
    serveClusterLimits(CONFIG);
    const limiters = (new RateLimiterClusterMaster() as unknown as { _rateLimiters: Record<string, { consume: unknown }> })._rateLimiters;
    expect(Object.values(limiters).map((l) => typeof l.consume)).toEqual(['function']);
  });

  it.each<[string, Partial<typeof CONFIG>, number]>([
    ['every limit off: nothing to serve', {}, 0],
    ['only the port check\'s limit on', { portCheck: { perMinute: 10 } }, 1],
    ['only the DNS leak starts\' limit on', { dnsLeakRateLimit: 10 }, 1],
  ])('serves the workers\' limits when any is on: %s', async (_, on, registered) => {
    vi.resetModules();
    const { serveClusterLimits } = await import('./shared-stores.ts');
    const { RateLimiterClusterMaster } = await import('rate-limiter-flexible');
    // The library's primary is one per process: forget what an earlier case registered.
    const limiters = (new RateLimiterClusterMaster() as unknown as { _rateLimiters: Record<string, unknown> })._rateLimiters;
    for (const name of Object.keys(limiters)) delete limiters[name];
    serveClusterLimits({ ...OFF, ...on });
    expect(Object.keys(limiters)).toHaveLength(registered);
  });

  it('refuses to start, naming the field, when the library keeps its limiters elsewhere', async () => {
    vi.resetModules();
    vi.doMock('rate-limiter-flexible', async (original) => ({
      ...(await original<typeof import('rate-limiter-flexible')>()),
      RateLimiterClusterMaster: class { limiters = {}; },
    }));
    const { serveClusterLimits } = await import('./shared-stores.ts');
    expect(() => serveClusterLimits(CONFIG)).toThrow(/no longer keeps its limiters in _rateLimiters/);
  });
});
