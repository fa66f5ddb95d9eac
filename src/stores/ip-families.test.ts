/** The IPv4/IPv6 check's store against a stand-in fetch: config, per-family answers, timeout. */
import { afterEach, describe, expect, it, vi } from 'vitest';

const CONFIG = { tileUrl: 't', tileAttribution: 'a', stunUrl: 's', stunPort: null, dnsLeakZone: null };

/** Answers /api/config with the given URLs and each echo URL with `echo[url]` (a hang when missing). */
function serve(ipv4Url: string | null, ipv6Url: string | null, echo: Record<string, string>) {
  vi.stubGlobal('fetch', (url: string, init?: RequestInit) => {
    if (url === '/api/config') return Promise.resolve(Response.json({ ...CONFIG, ipv4Url, ipv6Url }));
    if (url in echo) return Promise.resolve(new Response(echo[url]));
    if (url === '/ip' && '/ip' in echo) return Promise.resolve(new Response(echo['/ip']));
    return new Promise((_, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)));
  });
}

async function run() {
  vi.resetModules();
  const { $ipFamilies, startFamilyCheck } = await import('./ip-families.ts');
  startFamilyCheck();
  await vi.waitFor(() => {
    const state = $ipFamilies.get();
    if (state.status === 'loading' || (state.status === 'ready' && ([state.ipv4, state.ipv6].some((f) => f.status === 'checking') || state.visit === 'asking'))) {
      throw new Error('still checking');
    }
  }, { timeout: 8000 });
  return $ipFamilies.get();
}

afterEach(() => { vi.unstubAllGlobals(); });

describe('$ipFamilies', () => {
  it('says both families are not configured when the server has no echo URLs, and which address this visit came from', async () => {
    serve(null, null, { '/ip': '2a02:2e0::7\n' });
    expect(await run()).toEqual({ status: 'ready', ipv4: { status: 'not-configured' }, ipv6: { status: 'not-configured' }, visit: { ip: '2a02:2e0::7', version: 6 } });
  });

  it.each([['an IPv4 address', '84.17.0.10\n', { ip: '84.17.0.10', version: 4 }], ['not an address', '<html>', null]])(
    'reads /ip answering %s as this visit\'s address', async (_, answer, visit) => {
      serve('https://v4.test/ip', null, { 'https://v4.test/ip': '84.17.0.10', '/ip': answer });
      expect(await run()).toMatchObject({ ipv4: { status: 'seen', ip: '84.17.0.10' }, ipv6: { status: 'not-configured' }, visit });
    });

  it.each([
    { name: 'only IPv4', ipv4Url: 'https://v4.test/ip', ipv6Url: null },
    { name: 'only IPv6', ipv4Url: null, ipv6Url: 'https://v6.test/ip' },
  ])('with $name configured, asks /ip for plain text and says it is asking meanwhile', async ({ ipv4Url, ipv6Url }) => {
    const asked: Array<[string, string | null]> = [];
    vi.stubGlobal('fetch', (url: string, init?: RequestInit) => {
      asked.push([url, new Headers(init?.headers).get('accept')]);
      return url === '/api/config' ? Promise.resolve(Response.json({ ...CONFIG, ipv4Url, ipv6Url })) : new Promise(() => {});
    });
    vi.resetModules();
    const { $ipFamilies, startFamilyCheck } = await import('./ip-families.ts');
    startFamilyCheck();
    await vi.waitFor(() => expect($ipFamilies.get().status).toBe('ready'));
    expect($ipFamilies.get()).toMatchObject({ visit: 'asking' });
    expect(asked).toContainEqual(['/ip', 'text/plain']);
  });

  it('shows the address each family saw', async () => {
    serve('https://v4.test/ip', 'https://v6.test/ip', { 'https://v4.test/ip': '203.0.113.7\n', 'https://v6.test/ip': '2001:db8::7\n' });
    expect(await run()).toEqual({ status: 'ready', ipv4: { status: 'seen', ip: '203.0.113.7' }, ipv6: { status: 'seen', ip: '2001:db8::7' }, visit: null });
  });

  it('counts an answer of the wrong family or not an address as not available', async () => {
    serve('https://v4.test/ip', 'https://v6.test/ip', { 'https://v4.test/ip': '2001:db8::7', 'https://v6.test/ip': '<html>' });
    expect(await run()).toMatchObject({ ipv4: { status: 'unavailable' }, ipv6: { status: 'unavailable' } });
  });

  it('gives up on a family after 5 s', async () => {
    serve('https://v4.test/ip', null, {});
    const started = Date.now();
    expect(await run()).toEqual({ status: 'ready', ipv4: { status: 'unavailable' }, ipv6: { status: 'not-configured' }, visit: null });
    expect(Date.now() - started).toBeGreaterThanOrEqual(4900);
  });

  it('reports a config it cannot read', async () => {
    vi.stubGlobal('fetch', () => Promise.resolve(Response.json({ error: { code: 'internal', message: 'x' } }, { status: 500 })));
    expect(await run()).toEqual({ status: 'config-failed' });
  });
});
