/**
 * The API handler on its own, built inside each test: what createApi sets up once per
 * server (the client config's answer) is checked by the test that builds it.
 */
import { describe, expect, it } from 'vitest';
import type { ClientConfig } from '../../lib/client-config.ts';
import { createApi } from './lookup-api.ts';
import type { AppRequest, AppResponse } from '../http/handler.ts';
import type { Engine } from '../lookup/engine.ts';

const config: ClientConfig = { tileUrl: 't', tileAttribution: 'a', stunUrl: null, stunPort: 3478, ipv4Url: null, ipv6Url: null, dnsLeakZone: null };
const request = (method: string, path: string): AppRequest => ({
  method, path, query: new URLSearchParams(), headers: new Headers(), clientIp: '127.0.0.1', clientAddress: undefined,
  body: () => Promise.resolve(Buffer.alloc(0)),
});

describe('GET /api/config', () => {
  it.each(['GET', 'HEAD'])('answers %s with the client config, cacheable by shared caches for five minutes', async (method) => {
    // No lookup happens here: an engine that is never called.
    const api = createApi({} as Engine, config);
    const res = await api(request(method, '/api/config')) as AppResponse;
    expect(res.status).toBe(200);
    expect(res.headers?.['cache-control']).toBe('public, max-age=300');
    expect(JSON.parse(String(res.body))).toEqual(config);
  });
});
