import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('runs on embedded defaults with an empty environment', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ host: '127.0.0.1', port: 4321, webConcurrency: 1, trustProxy: { kind: 'none' } });
    expect(c.dataDir).toMatch(/\/data$/);
  });
  it('reads the proxy header as the proxy names it, compared in lower case', () => {
    expect(loadConfig({ TRUST_PROXY: '1', TRUST_PROXY_HEADER: 'X-Real-IP' }).trustProxy).toEqual({ kind: 'hops', hops: 1, header: 'x-real-ip' });
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toEqual({ kind: 'hops', hops: 1, header: 'x-forwarded-for' });
  });
  it.each([
    ['PORT', '70000', /PORT="70000" must be a whole number from 0 to 65535/],
    ['PORT', '80a', /PORT="80a"/],
    ['WEB_CONCURRENCY', '0', /WEB_CONCURRENCY="0"/],
    ['TRUST_PROXY', 'yes please', /TRUST_PROXY entry "yes please"/],
    ['TRUST_PROXY_HEADER', 'X Forwarded', /TRUST_PROXY_HEADER "X Forwarded" must be one header name/],
    ['DATABASE_URL', 'mysql://x', /DATABASE_URL must start with postgres/],
    ['REDIS_URL', 'localhost:6379', /REDIS_URL must start with redis:\/\//],
  ])('rejects %s=%s with one clear line', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });
});
