import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('runs on embedded defaults with an empty environment', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ host: '127.0.0.1', port: 4321, webConcurrency: 1, trustProxy: { kind: 'none' } });
    expect(c.dataDir).toMatch(/\/data$/);
    expect(c.analytics).toEqual({ enabled: true, retentionDays: 90, queueLimit: 10_000, token: undefined });
  });
  it.each([
    [{ ANALYTICS: 'OFF' }, { enabled: false }],
    [{ ANALYTICS_RETENTION_DAYS: '1' }, { retentionDays: 1 }],
    [{ ANALYTICS_RETENTION_DAYS: '3650' }, { retentionDays: 3650 }],
    [{ ANALYTICS_TOKEN: '0123456789abcdef' }, { token: '0123456789abcdef' }],
  ])('reads the analytics settings %o', (env, expected) => {
    expect(loadConfig(env).analytics).toMatchObject(expected);
  });
  it.each([
    ['PORT', '70000', /PORT="70000" must be a whole number from 0 to 65535/],
    ['PORT', '80a', /PORT="80a"/],
    ['WEB_CONCURRENCY', '0', /WEB_CONCURRENCY="0"/],
    ['TRUST_PROXY', 'yes please', /TRUST_PROXY entry "yes please"/],
    ['DATABASE_URL', 'mysql://x', /DATABASE_URL must start with postgres/],
    ['ANALYTICS', 'maybe', /ANALYTICS="maybe" must be on or off/],
    ['ANALYTICS_RETENTION_DAYS', '0', /ANALYTICS_RETENTION_DAYS="0" must be a whole number from 1 to 3650/],
    ['ANALYTICS_RETENTION_DAYS', '3651', /ANALYTICS_RETENTION_DAYS="3651"/],
    ['ANALYTICS_TOKEN', '0123456789abcde', /ANALYTICS_TOKEN must be at least 16 characters/],
    ['ANALYTICS_QUEUE_LIMIT', '0', /ANALYTICS_QUEUE_LIMIT="0"/],
  ])('rejects %s=%s with one clear line', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });
});
