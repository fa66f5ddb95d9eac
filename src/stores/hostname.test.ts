/** `$hostnames` against a stand-in fetch: one `/hostname` request per address, its answer or, on failure, no name. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, stubFetch, type HeldRequest } from '../../tests/support/fetch-stub.ts';

afterEach(() => { vi.unstubAllGlobals(); });

async function fresh() {
  const fetch = stubFetch();
  vi.resetModules();
  return { fetch, ...(await import('./hostname.ts')) };
}

const NONE = (ip: string) => ({ ip, hostname: null, hostname_confirmed: false });

describe('ensureHostname', () => {
  it('asks /hostname for the address, escaped, past the browser cache, and keeps the answer', async () => {
    const { fetch, $hostnames, ensureHostname } = await fresh();
    const asked = ensureHostname('2001:db8::1');
    expect(fetch.requests.map((r) => [r.url, r.init?.cache])).toEqual([['/hostname?ip=2001%3Adb8%3A%3A1', 'no-store']]);
    const answer = { ip: '2001:db8::1', hostname: 'host.example.test', hostname_confirmed: true };
    fetch.requests[0]!.answer(Response.json(answer));
    await asked;
    expect($hostnames.get()).toEqual({ '2001:db8::1': answer });
  });

  it('asks once per address: a second call, during or after the first, sends nothing', async () => {
    const { fetch, $hostnames, ensureHostname } = await fresh();
    const first = ensureHostname('192.0.2.1');
    await ensureHostname('192.0.2.1');
    fetch.requests[0]!.answer(Response.json({ ip: '192.0.2.1', hostname: 'a.example.test', hostname_confirmed: false }));
    await first;
    await ensureHostname('192.0.2.1');
    const other = ensureHostname('192.0.2.2');
    expect(fetch.requests.map((r) => r.url)).toEqual(['/hostname?ip=192.0.2.1', '/hostname?ip=192.0.2.2']);
    fetch.requests[1]!.answer(Response.json(NONE('192.0.2.2')));
    await other;
    expect(Object.keys($hostnames.get())).toEqual(['192.0.2.1', '192.0.2.2']);
  });

  it.each<[string, (r: HeldRequest) => void]>([
    ['the API refuses it', (r) => r.answer(apiError(429, 'rate_limited', 'Too many requests.'))],
    ['the network fails', (r) => r.fail()],
    ['the answer is not a host name record', (r) => r.answer(Response.json({ hostname: 42 }))],
  ])('leaves the name unknown when %s', async (_, end) => {
    const { fetch, $hostnames, ensureHostname } = await fresh();
    const asked = ensureHostname('192.0.2.9');
    end(fetch.requests[0]!);
    await asked;
    expect($hostnames.get()).toEqual({ '192.0.2.9': NONE('192.0.2.9') });
  });
});
