/** `$clientConfig`: the page's own config, or GET /api/config once; a failed fetch is asked again next time. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, stubFetch, type HeldRequest } from '../../tests/support/fetch-stub.ts';

const CONFIG = { tileUrl: 't', tileAttribution: 'a', stunUrl: null, stunPort: 3478, ipv4Url: null, ipv6Url: null, dnsLeakZone: null };

afterEach(() => { vi.unstubAllGlobals(); });

async function fresh() {
  const fetch = stubFetch();
  vi.resetModules();
  return { fetch, ...(await import('./client-config.ts')) };
}

describe('ensureClientConfig', () => {
  it('takes the config the page was rendered with, without a request', async () => {
    const { fetch, $clientConfig, ensureClientConfig } = await fresh();
    await ensureClientConfig(CONFIG);
    await ensureClientConfig();
    expect($clientConfig.get()).toEqual(CONFIG);
    expect(fetch.requests).toEqual([]);
  });

  it('asks /api/config once for every caller while the answer is on its way, and not again after it', async () => {
    const { fetch, $clientConfig, ensureClientConfig } = await fresh();
    const asks = [ensureClientConfig(), ensureClientConfig()];
    expect(fetch.requests.map((r) => r.url)).toEqual(['/api/config']);
    fetch.requests[0]!.answer(Response.json(CONFIG));
    await Promise.all(asks);
    expect($clientConfig.get()).toEqual(CONFIG);
    await ensureClientConfig();
    expect(fetch.requests).toHaveLength(1);
  });

  it.each([
    { name: 'the server refuses', end: (r: HeldRequest) => r.answer(apiError(503, 'unavailable', 'x')) },
    { name: 'the network fails', end: (r: HeldRequest) => r.fail() },
    { name: 'the answer is not a config', end: (r: HeldRequest) => r.answer(Response.json({ tileUrl: 1 })) },
  ])('asks again on the next call after a failed fetch: $name', async ({ end }) => {
    const { fetch, $clientConfig, ensureClientConfig } = await fresh();
    const first = ensureClientConfig();
    end(fetch.requests[0]!);
    await first;
    expect($clientConfig.get()).toBeNull();
    const second = ensureClientConfig();
    expect(fetch.requests).toHaveLength(2);
    fetch.requests[1]!.answer(Response.json(CONFIG));
    await second;
    expect($clientConfig.get()).toEqual(CONFIG);
  });
});
