/** $familyLeak against a stand-in server: the settings, each echo URL's answer and each echoed address's network. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { IpInfo, LookupResponse } from '../lib/record.ts';

const CONFIG = { tileUrl: 't', tileAttribution: 'a', stunUrl: 's', stunPort: null, dnsLeakZone: null };
const V4 = 'https://v4.test/ip';
const V6 = 'https://v6.test/ip';

/** A lookup answer for `ip` on the network `asn`/`org` ('Unknown' for none). */
function lookup(ip: string, asn: string, org: string): LookupResponse {
  const reason = { vpn: 'not listed', proxy: 'not listed', tor: 'not listed', relay: 'not listed', hosting: 'not listed' };
  const data: IpInfo = {
    ip, ip_version: ip.includes(':') ? 'ipv6' : 'ipv4', city: 'Berlin', region: 'Berlin', country: 'DE', country_name: 'Germany',
    country_code: 'DE', postal: '', latitude: 52.5, longitude: 13.4, timezone: 'Europe/Berlin', isp: org, org, asn, asn_org: org,
    confidence_score: 0.5, location_source: 'ip', vpn_detected: false, vpn: { detected: false, confidence: 0, indicators: [], reasons: [] },
    privacy: { vpn: false, proxy: false, tor: false, relay: false, hosting: false, service: null, reasons: reason },
    risk_level: 'low', distance_consensus: null, place_source: null, rtt_ms: null, network_type: 'residential',
    accuracy_radius: 20000, accuracy_tier: 'medium', reserved: null,
  };
  return { success: true, data, device: null, confidence: 0.5, sources_used: [] };
}

/**
 * Serves the settings, the echo URLs and `/ip` (`echo`: a text, or a promise of one to answer
 * later) and GET /api/lookup/{ip} (`networks`, a 503 for any other).
 */
function serve(urls: { ipv4Url: string | null; ipv6Url: string | null } | 'down', echo: Record<string, string | Promise<string>>, networks: LookupResponse[]) {
  const lookups: string[] = [];
  vi.stubGlobal('fetch', async (url: string) => {
    if (url === '/api/config') return urls === 'down' ? new Response('', { status: 503 }) : Response.json({ ...CONFIG, ...urls });
    if (url in echo) return new Response(await echo[url]);
    const ip = decodeURIComponent(url.replace('/api/lookup/', ''));
    lookups.push(ip);
    const found = networks.find((n) => n.data.ip === ip);
    return found ? Response.json(found) : Response.json({ error: { code: 'x', message: 'x' } }, { status: 503 });
  });
  return lookups;
}

async function run(page: LookupResponse) {
  vi.resetModules();
  const { $familyLeak, startFamilyLeakCheck } = await import('./family-leak.ts');
  startFamilyLeakCheck(page.data);
  await vi.waitFor(() => {
    const state = $familyLeak.get();
    if (state === 'unknown' || (state !== null && state !== 'unreadable' && state.checking)) throw new Error('still checking');
  });
  return $familyLeak.get();
}

afterEach(() => { vi.unstubAllGlobals(); });

describe('$familyLeak', () => {
  const vpnPage = lookup('185.65.134.1', 'AS39351', 'ExampleVPN AB');

  it('finds a leak when IPv6 reaches us from the provider while the page came through a VPN', async () => {
    serve({ ipv4Url: V4, ipv6Url: V6 }, { [V4]: '185.65.134.1\n', [V6]: '2a02:8108::1\n' }, [lookup('2a02:8108::1', 'AS3209', 'Vodafone GmbH')]);
    expect(await run(vpnPage)).toEqual({ checking: false, leaks: 1 });
  });

  it("finds no leak when the other family's address is on the page's network (another ASN of the same organisation)", async () => {
    const page = lookup('73.1.2.3', 'AS7922', 'Comcast Cable Communications, LLC');
    const lookups = serve({ ipv4Url: V4, ipv6Url: V6 }, { [V4]: '73.1.2.3\n', [V6]: '2601:1c0::2\n' },
      [lookup('2601:1c0::2', 'AS33651', 'COMCAST CABLE COMMUNICATIONS LLC')]);
    expect(await run(page)).toEqual({ checking: false, leaks: 0 });
    expect(lookups).toEqual(['2601:1c0::2']);
  });

  it('finds no leak when a family has no route (its echo URL does not answer)', async () => {
    serve({ ipv4Url: V4, ipv6Url: V6 }, { [V4]: '185.65.134.1\n', [V6]: 'not an address' }, []);
    expect(await run(vpnPage)).toEqual({ checking: false, leaks: 0 });
  });

  it('counts an address whose network cannot be looked up as a leak, as WebRTC does', async () => {
    serve({ ipv4Url: null, ipv6Url: V6 }, { [V6]: '2a02:8108::1\n' }, []);
    expect(await run(vpnPage)).toEqual({ checking: false, leaks: 1 });
  });

  it('counts no leak without the page\'s address: nothing to compare with, nothing looked up', async () => {
    const lookups = serve({ ipv4Url: V4, ipv6Url: V6 }, { [V4]: '185.65.134.1\n', [V6]: '2a02:8108::1\n' }, []);
    vi.resetModules();
    const { $familyLeak, startFamilyLeakCheck } = await import('./family-leak.ts');
    startFamilyLeakCheck(null);
    await vi.waitFor(() => expect($familyLeak.get()).toEqual({ checking: false, leaks: 0 }));
    expect(lookups).toEqual([]);
  });

  it('says it is checking while an echo URL has not answered', async () => {
    let answerV6: (text: string) => void = () => {};
    serve({ ipv4Url: V4, ipv6Url: V6 }, { [V4]: '185.65.134.1\n', [V6]: new Promise((resolve) => { answerV6 = resolve; }) },
      [lookup('2a02:8108::1', 'AS3209', 'Vodafone GmbH')]);
    vi.resetModules();
    const { $familyLeak, startFamilyLeakCheck } = await import('./family-leak.ts');
    const { $ipFamilies } = await import('./ip-families.ts');
    startFamilyLeakCheck(vpnPage.data);
    await vi.waitFor(() => expect($ipFamilies.get()).toMatchObject({ ipv4: { status: 'seen' }, ipv6: { status: 'checking' } }));
    expect($familyLeak.get()).toEqual({ checking: true, leaks: 0 });
    answerV6('2a02:8108::1\n');
    await vi.waitFor(() => expect($familyLeak.get()).toEqual({ checking: false, leaks: 1 }));
  });

  it('follows one check against the first page it was given: a later call changes nothing', async () => {
    const page = lookup('73.1.2.3', 'AS7922', 'Comcast Cable Communications, LLC');
    const lookups = serve({ ipv4Url: V4, ipv6Url: V6 }, { [V4]: '73.1.2.3\n', [V6]: '2601:1c0::2\n' },
      [lookup('2601:1c0::2', 'AS33651', 'COMCAST CABLE COMMUNICATIONS LLC')]);
    vi.resetModules();
    const { $familyLeak, startFamilyLeakCheck } = await import('./family-leak.ts');
    startFamilyLeakCheck(page.data);
    startFamilyLeakCheck(vpnPage.data);
    await vi.waitFor(() => expect($familyLeak.get()).toEqual({ checking: false, leaks: 0 }));
    expect(lookups).toEqual(['2601:1c0::2']);
  });

  it('looks each echoed address up once, though the check\'s state changes after its verdict', async () => {
    let answerVisit: (text: string) => void = () => {};
    const lookups = serve({ ipv4Url: null, ipv6Url: V6 }, { [V6]: '2a02:8108::1\n', '/ip': new Promise((resolve) => { answerVisit = resolve; }) },
      [lookup('2a02:8108::1', 'AS3209', 'Vodafone GmbH')]);
    vi.resetModules();
    const { $familyLeak, startFamilyLeakCheck } = await import('./family-leak.ts');
    const { $ipFamilies } = await import('./ip-families.ts');
    startFamilyLeakCheck(vpnPage.data);
    await vi.waitFor(() => expect($familyLeak.get()).toEqual({ checking: false, leaks: 1 }));
    answerVisit('185.65.134.1\n');
    await vi.waitFor(() => expect($ipFamilies.get()).toMatchObject({ visit: { ip: '185.65.134.1', version: 4 } }));
    expect(lookups).toEqual(['2a02:8108::1']);
  });

  it('is null (no row) without an echo URL', async () => {
    serve({ ipv4Url: null, ipv6Url: null }, {}, []);
    expect(await run(vpnPage)).toBeNull();
  });

  it('is unreadable when the settings cannot be read', async () => {
    serve('down', {}, []);
    expect(await run(vpnPage)).toBe('unreadable');
  });
});
