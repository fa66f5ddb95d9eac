import { describe, expect, it } from 'vitest';
import { privacyOf, reservedPrivacy, type ListCheck, type PrivacyEvidence } from './privacy.ts';
import type { Privacy } from './record.ts';

const hit = (service = ''): ListCheck => ({ listed: true, service, updated: '2026-11-23' });
const miss: ListCheck = { listed: false, service: '', updated: '2026-11-23' };
const allLoaded = { tor: miss, relay: miss, vpn: miss, proxy: miss, hosting: miss };
const home: PrivacyEvidence = { lists: allLoaded, org: 'Deutsche Telekom AG', vpnBrand: false, hostingNetwork: null, networkData: true };

type Flags = Pick<Privacy, 'vpn' | 'proxy' | 'tor' | 'relay' | 'hosting' | 'service'>;
const clean: Flags = { vpn: false, proxy: false, tor: false, relay: false, hosting: false, service: null };

describe('privacyOf: flags', () => {
  it.each<[string, Partial<PrivacyEvidence>, Partial<Flags>]>([
    ['every list loaded, none lists the address: all false', {}, {}],
    ['no list loaded: list checks null, hosting still read from the network data', { lists: {} }, { vpn: null, proxy: null, tor: null, relay: null }],
    ['no list and no network data: hosting null too', { lists: {}, networkData: false }, { vpn: null, proxy: null, tor: null, relay: null, hosting: null }],
    ['a Tor exit: tor, service Tor', { lists: { ...allLoaded, tor: hit() } }, { tor: true, service: 'Tor' }],
    ['a Private Relay egress', { lists: { ...allLoaded, relay: hit() } }, { relay: true, service: 'iCloud Private Relay' }],
    ['a listed VPN range names its service', { lists: { ...allLoaded, vpn: hit('ExampleVPN') } }, { vpn: true, service: 'ExampleVPN' }],
    ["'NordVPN S.A.' by name with no VPN list: vpn true, not hosting", { lists: {}, org: 'NordVPN S.A.', vpnBrand: true }, { vpn: true, proxy: null, tor: null, relay: null, service: 'NordVPN S.A.' }],
    ['a listed open proxy', { lists: { ...allLoaded, proxy: hit() } }, { proxy: true }],
    ['a hosting ASN', { hostingNetwork: 'asn' }, { hosting: true }],
    ['hosting words in the name', { hostingNetwork: 'name' }, { hosting: true }],
    ['a listed hosting range', { lists: { ...allLoaded, hosting: hit('Example Cloud') } }, { hosting: true }],
    ['a hosting list without network data still answers', { lists: { hosting: miss }, networkData: false }, { vpn: null, proxy: null, tor: null, relay: null, hosting: false }],
  ])('%s', (_, evidence, flags) => {
    const { reasons, ...got } = privacyOf({ ...home, ...evidence });
    expect(got).toEqual({ ...clean, ...flags });
    expect(Object.values(reasons).every((r) => r.length > 10)).toBe(true);
  });
});

describe('privacyOf: reasons say which list or name, or that the check was not available', () => {
  it.each<[string, Partial<PrivacyEvidence>, keyof Privacy['reasons'], string]>([
    ['Tor, listed', { lists: { ...allLoaded, tor: hit() } }, 'tor', "Listed in the Tor Project's list of exit relays (updated 2026-11-23): traffic from this address comes out of the Tor network."],
    ['Tor, not listed', {}, 'tor', "Not in the Tor Project's list of exit relays (updated 2026-11-23)."],
    ['Tor, list missing', { lists: {} }, 'tor', 'Tor check not available: the list of Tor exits is not loaded.'],
    ['Relay, list missing', { lists: {} }, 'relay', "iCloud Private Relay check not available: Apple's list of egress ranges is not loaded."],
    ['VPN, listed with a name', { lists: { ...allLoaded, vpn: hit('ExampleVPN') } }, 'vpn', 'In the list of VPN ranges as ExampleVPN (updated 2026-11-23).'],
    ['VPN, by the name', { org: 'NordVPN S.A.', vpnBrand: true }, 'vpn', "The network's name, NordVPN S.A., is a VPN provider's."],
    ['VPN, list missing', { lists: {} }, 'vpn', "VPN range check not available: no list of VPN ranges is loaded; the network's name (Deutsche Telekom AG) is no VPN provider's."],
    ['VPN, clean', {}, 'vpn', "Not in the list of VPN ranges (updated 2026-11-23), and the network's name (Deutsche Telekom AG) is no VPN provider's."],
    ['Proxy, list missing', { lists: {} }, 'proxy', 'Open proxy check not available: no list of open proxies is loaded.'],
    ['Hosting by ASN', { org: 'Cloudflare, Inc.', hostingNetwork: 'asn' }, 'hosting', 'Cloudflare, Inc. is a hosting, cloud or relay network (by its AS number).'],
    ['Hosting by name', { org: 'Example Hosting Ltd', hostingNetwork: 'name' }, 'hosting', "The network's name, Example Hosting Ltd, says hosting or cloud."],
    ['Hosting, clean, list missing', { lists: {} }, 'hosting', 'Deutsche Telekom AG is not a hosting or cloud network by its AS number or name (no list of hosting ranges is loaded).'],
    ['Hosting, nothing loaded', { lists: {}, networkData: false }, 'hosting', 'Hosting check not available: neither the network data nor a list of hosting ranges is loaded.'],
    ['VPN, listed without a name', { lists: { ...allLoaded, vpn: hit() } }, 'vpn', 'In the list of VPN ranges (updated 2026-11-23).'],
    ['VPN, clean, no network data', { networkData: false }, 'vpn', 'Not in the list of VPN ranges (updated 2026-11-23), and the network is unknown.'],
    ['VPN, list missing, no network data', { lists: {}, networkData: false }, 'vpn', 'VPN range check not available: no list of VPN ranges is loaded; the network is unknown.'],
    ['Hosting, listed with a name', { lists: { ...allLoaded, hosting: hit('Example Cloud') } }, 'hosting', 'In the list of hosting ranges as Example Cloud (updated 2026-11-23).'],
    ['Hosting, listed without a name', { lists: { ...allLoaded, hosting: hit() } }, 'hosting', 'In the list of hosting ranges (updated 2026-11-23).'],
    ['Hosting, clean, no network data', { networkData: false }, 'hosting', 'Not in the list of hosting ranges (updated 2026-11-23), and the network is unknown.'],
    // An address no ASN range holds has the name 'Unknown': the reason says "the network", not "Unknown".
    ['Hosting, clean, network without a name', { org: 'Unknown' }, 'hosting', 'Not in the list of hosting ranges (updated 2026-11-23), and the network is not a hosting or cloud network by its AS number or name.'],
    ['VPN, clean, network without a name', { org: 'Unknown' }, 'vpn', "Not in the list of VPN ranges (updated 2026-11-23), and the network has no name to compare with VPN providers'."],
    ['Hosting by ASN, network without a name', { org: 'Unknown', hostingNetwork: 'asn' }, 'hosting', 'The network is a hosting, cloud or relay network (by its AS number).'],
    ['Hosting, clean, network without a name, list missing', { lists: {}, org: 'Unknown' }, 'hosting', 'The network is not a hosting or cloud network by its AS number or name (no list of hosting ranges is loaded).'],
  ])('%s', (_, evidence, flag, reason) => {
    expect(privacyOf({ ...home, ...evidence }).reasons[flag]).toBe(reason);
  });
});

describe('reservedPrivacy', () => {
  it('flags nothing for a private address and says why', () => {
    const p = reservedPrivacy('Private network');
    expect([p.vpn, p.proxy, p.tor, p.relay, p.hosting, p.service]).toEqual([false, false, false, false, false, null]);
    expect(p.reasons.tor).toBe('A private network address is not on the public internet.');
  });
});

describe('privacyOf: a fetched list names its source and its age', () => {
  const NOW = Date.parse('2026-11-26T12:00:00Z');
  const fetched = (listed: boolean, source: string, agoMs: number, service = ''): ListCheck =>
    ({ listed, service, updated: '2026-11-26', source, fetchedAt: NOW - agoMs });
  it.each<[string, Partial<PrivacyEvidence>, keyof Privacy['reasons'], string]>([
    ['Tor, listed, 12 minutes ago', { lists: { ...allLoaded, tor: fetched(true, "the Tor Project's exit list", 12 * 60_000) } }, 'tor',
      "Listed in the Tor Project's list of exit relays (the Tor Project's exit list, fetched 12 minutes ago): traffic from this address comes out of the Tor network."],
    ['Tor, not listed, under a minute', { lists: { ...allLoaded, tor: fetched(false, "the Tor Project's exit list", 59_999) } }, 'tor',
      "Not in the Tor Project's list of exit relays (the Tor Project's exit list, fetched just now)."],
    ['Relay, listed with its place', { lists: { ...allLoaded, relay: fetched(true, "Apple's egress ranges", 3 * 3_600_000, 'London, GB') } }, 'relay',
      "In Apple's iCloud Private Relay egress ranges for users near London, GB (Apple's egress ranges, fetched 3 hours ago): Safari traffic of an iCloud+ subscriber leaves Apple's relay here."],
    ['Relay, listed without a place', { lists: { ...allLoaded, relay: fetched(true, "Apple's egress ranges", 3 * 3_600_000) } }, 'relay',
      "In Apple's iCloud Private Relay egress ranges (Apple's egress ranges, fetched 3 hours ago): Safari traffic of an iCloud+ subscriber leaves Apple's relay here."],
    ['Relay, not listed', { lists: { ...allLoaded, relay: fetched(false, "Apple's egress ranges", 2 * 86_400_000) } }, 'relay',
      "Not in Apple's iCloud Private Relay egress ranges (Apple's egress ranges, fetched 2 days ago)."],
    ['VPN, listed', { lists: { ...allLoaded, vpn: fetched(true, "X4BNet's VPN list", 60_000) } }, 'vpn',
      "In the list of VPN ranges (X4BNet's VPN list, fetched 1 minute ago)."],
    ['VPN, not listed', { lists: { ...allLoaded, vpn: fetched(false, "X4BNet's VPN list", 60_000) } }, 'vpn',
      "Not in the list of VPN ranges (X4BNet's VPN list, fetched 1 minute ago), and the network's name (Deutsche Telekom AG) is no VPN provider's."],
    ['Proxy, listed', { lists: { ...allLoaded, proxy: fetched(true, 'a proxy list', 60_000) } }, 'proxy', 'In the list of open proxies (a proxy list, fetched 1 minute ago).'],
    ['Proxy, not listed', { lists: { ...allLoaded, proxy: fetched(false, 'a proxy list', 60_000) } }, 'proxy', 'Not in the list of open proxies (a proxy list, fetched 1 minute ago).'],
    ['Hosting, listed as a cloud', { lists: { ...allLoaded, hosting: fetched(true, "AWS's published ranges", 3_600_000, 'AWS') } }, 'hosting',
      "In the list of hosting ranges as AWS (AWS's published ranges, fetched 1 hour ago)."],
    ['Hosting, not listed', { lists: { ...allLoaded, hosting: fetched(false, 'the hosting lists', 3_600_000) } }, 'hosting',
      'Not in the list of hosting ranges (the hosting lists, fetched 1 hour ago), and Deutsche Telekom AG is not a hosting or cloud network by its AS number or name.'],
    // Without a time of lookup, or without a fetch time or source, the file's date as before.
    ['no time of lookup: the date', { now: undefined, lists: { ...allLoaded, tor: fetched(true, "the Tor Project's exit list", 0) } }, 'tor',
      "Listed in the Tor Project's list of exit relays (updated 2026-11-26): traffic from this address comes out of the Tor network."],
    ['no source: the date', { lists: { ...allLoaded, tor: { ...fetched(true, '', 0) } } }, 'tor',
      "Listed in the Tor Project's list of exit relays (updated 2026-11-26): traffic from this address comes out of the Tor network."],
    ['no fetch time: the date', { lists: { ...allLoaded, tor: { listed: true, service: '', updated: '2026-11-26', source: 'x' } } }, 'tor',
      "Listed in the Tor Project's list of exit relays (updated 2026-11-26): traffic from this address comes out of the Tor network."],
    ['fetched at time 0 still has an age', { now: 120_000, lists: { ...allLoaded, tor: { listed: true, service: '', updated: '1970-01-01', source: 's', fetchedAt: 0 } } }, 'tor',
      'Listed in the Tor Project\'s list of exit relays (s, fetched 2 minutes ago): traffic from this address comes out of the Tor network.'],
  ])('%s', (_, evidence, flag, reason) => {
    expect(privacyOf({ ...home, now: NOW, ...evidence }).reasons[flag]).toBe(reason);
  });
});
