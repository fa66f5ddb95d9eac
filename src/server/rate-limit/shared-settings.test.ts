import { describe, expect, it } from 'vitest';
import { differences, sharedSettings } from './shared-settings.ts';

const CONFIG = { redisPrefix: 'wim:', rateLimitSecret: 'a-secret', rateLimit: 300, pageRateLimit: 120, portCheck: { perMinute: 10 }, dnsLeakRateLimit: 10 };

describe('sharedSettings: what every machine on one Redis must agree on', () => {
  it('names each by its setting, a secret by a short hash only', () => {
    const settings = sharedSettings(CONFIG);
    expect(settings).toEqual({
      REDIS_PREFIX: 'wim:', RATE_LIMIT_SECRET: expect.stringMatching(/^sha256 [0-9a-f]{8}$/) as string, RATE_LIMIT: '300', PAGE_RATE_LIMIT: '120', PORT_CHECK_RATE_LIMIT: '10', DNS_LEAK_RATE_LIMIT: '10',
    });
    expect(JSON.stringify(settings)).not.toContain('a-secret');
    expect(sharedSettings({ ...CONFIG, rateLimitSecret: 'another' }).RATE_LIMIT_SECRET).not.toBe(settings.RATE_LIMIT_SECRET);
    expect(sharedSettings({ ...CONFIG, rateLimitSecret: undefined }).RATE_LIMIT_SECRET).toBe('unset (drawn at each start)');
  });
});

describe('differences', () => {
  const own = sharedSettings(CONFIG);
  it.each<[string, Record<string, string>, string[]]>([
    ['the same', sharedSettings(CONFIG), []],
    ['another prefix', sharedSettings({ ...CONFIG, redisPrefix: 'other:' }), ['REDIS_PREFIX: wim: here, other: there']],
    ['another limit and secret', sharedSettings({ ...CONFIG, rateLimit: 100, rateLimitSecret: 'b' }), [
      `RATE_LIMIT_SECRET: ${own.RATE_LIMIT_SECRET} here, ${sharedSettings({ ...CONFIG, rateLimitSecret: 'b' }).RATE_LIMIT_SECRET} there`, 'RATE_LIMIT: 300 here, 100 there',
    ]],
    ['a setting the other does not know (an older version)', { REDIS_PREFIX: 'wim:' }, []],
  ])('%s', (_, other, lines) => {
    expect(differences(own, other)).toEqual(lines);
  });

  it('counts an unset secret as differing even from another unset one: each drew its own', () => {
    const unset = sharedSettings({ ...CONFIG, rateLimitSecret: undefined });
    expect(differences(unset, unset)).toEqual(['RATE_LIMIT_SECRET: unset (drawn at each start) here, unset (drawn at each start) there']);
  });
});
