import { describe, expect, it } from 'vitest';
import { privacyOf } from './privacy.ts';
import type { Privacy } from './record.ts';
import { judgeVpn, orgMentionsDatacenter, orgMentionsVpnBrand, scoreVpn, type VpnEvidence, type VpnSignals } from './vpn-score.ts';

const none: VpnSignals = { timezoneMismatch: false, datacenter: false, knownVpn: false, webrtcLeak: false, torExit: false, privateRelay: false, openProxy: false };

describe('scoreVpn', () => {
  it.each<[string, Partial<VpnSignals>, boolean, number, string[]]>([
    ['no signal: clean', {}, false, 0, []],
    ['a timezone mismatch alone (0.3) stays under the 0.4 threshold', { timezoneMismatch: true }, false, 0.3, ['Timezone mismatch']],
    ['a datacenter alone (0.4) is not over the threshold', { datacenter: true }, false, 0.4, ['Datacenter IP detected']],
    ['a known VPN alone (0.6) is detected', { knownVpn: true }, true, 0.6, ['Known VPN provider']],
    ['a WebRTC leak alone (0.5) is detected', { webrtcLeak: true }, true, 0.5, ['WebRTC IP leak detected']],
    ['a Tor exit alone (1.0) is detected', { torExit: true }, true, 1, ['Tor exit']],
    ['a Private Relay egress alone (0.5) is detected', { privateRelay: true }, true, 0.5, ['iCloud Private Relay']],
    ['a listed open proxy alone (0.6) is detected', { openProxy: true }, true, 0.6, ['Open proxy']],
    ['datacenter plus timezone mismatch (0.7) is detected', { datacenter: true, timezoneMismatch: true }, true, 0.7, ['Timezone mismatch', 'Datacenter IP detected']],
    ['every signal sums to 3.9, indicators in table order', Object.fromEntries(Object.keys(none).map((k) => [k, true])), true, 3.9,
      ['Timezone mismatch', 'Datacenter IP detected', 'Known VPN provider', 'WebRTC IP leak detected', 'Tor exit', 'iCloud Private Relay', 'Open proxy']],
  ])('%s', (_, signals, detected, confidence, indicators) => {
    expect(scoreVpn({ ...none, ...signals })).toEqual({ detected, confidence, indicators });
  });
});

describe('organisation keywords', () => {
  it.each([
    ['DigitalOcean Hosting', true, false],
    ['Amazon AWS Services', true, false],
    ['Microsoft Azure', true, false],
    ['Google Cloud Platform', true, false],
    ['Cloudflare, Inc.', true, false],
    ['OVH Dedicated SERVER', true, false],
    ['Digital Ocean LLC', true, false],
    ['NordVPN S.A.', false, true],
    ['Private Internet Access, Inc.', false, true],
    ['ProtonVPN AG', false, true],
    ['Comcast Cable Communications, LLC', false, false],
    ['Deutsche Telekom AG', false, false],
  ])('reads %j: datacenter %s, VPN brand %s', (org, datacenter, brand) => {
    expect(orgMentionsDatacenter(org)).toBe(datacenter);
    expect(orgMentionsVpnBrand(org)).toBe(brand);
  });
});

describe('judgeVpn: from what the lookup knows to the verdict, with a reason per indicator', () => {
  const home = privacyOf({ lists: {}, org: 'Deutsche Telekom AG', vpnBrand: false, hostingNetwork: null, networkData: true });
  const clean: VpnEvidence = { privacy: home, addressTimezone: 'Europe/Berlin', browserTimezone: undefined, webrtcLeak: false };
  const flags = (p: Partial<Privacy>): Privacy => ({ ...home, ...p, reasons: { ...home.reasons, tor: 'tor reason', relay: 'relay reason', vpn: 'vpn reason', proxy: 'proxy reason', hosting: 'hosting reason' } });
  it.each<[string, Partial<VpnEvidence>, number, string[], string[]]>([
    ['a home network with no browser facts', {}, 0, [], []],
    ['a browser clock of another offset: says what was compared', { browserTimezone: 'America/New_York' }, 0.3, ['Timezone mismatch'],
      ['Your browser says America/New_York, this address is in Europe/Berlin.']],
    ['a browser clock of the same offset', { browserTimezone: 'Europe/Paris' }, 0, [], []],
    ['no zone for the address: nothing to compare', { addressTimezone: 'Unknown', browserTimezone: 'America/New_York' }, 0, [], []],
    ['a WebRTC leak', { webrtcLeak: true }, 0.5, ['WebRTC IP leak detected'], ['WebRTC in your browser showed a public address of another network than this one.']],
    ['a Tor exit: the list row, with the list\'s reason', { privacy: flags({ tor: true }) }, 1, ['Tor exit'], ['tor reason']],
    ['a Private Relay egress on a hosting network: both rows', { privacy: flags({ relay: true, hosting: true }) }, 0.9,
      ['Datacenter IP detected', 'iCloud Private Relay'], ['hosting reason', 'relay reason']],
    ['a VPN by list or brand', { privacy: flags({ vpn: true }) }, 0.6, ['Known VPN provider'], ['vpn reason']],
    ['a listed open proxy', { privacy: flags({ proxy: true }) }, 0.6, ['Open proxy'], ['proxy reason']],
    ['checks that were not available (null) fire nothing', { privacy: flags({ tor: null, relay: null, vpn: null, proxy: null, hosting: null }) }, 0, [], []],
  ])('%s', (_, evidence, confidence, indicators, reasons) => {
    const result = judgeVpn({ ...clean, ...evidence });
    expect(result.confidence).toBe(confidence);
    expect(result.indicators).toEqual(indicators);
    expect(result.reasons).toEqual(reasons);
  });
});

describe('judgeVpn: a brand is weighed once (network data read through privacyOf, as the engine does)', () => {
  const network = (org: string, vpnBrand: boolean, hostingNetwork: 'asn' | 'name' | null): VpnEvidence => ({
    privacy: privacyOf({ lists: {}, org, vpnBrand, hostingNetwork, networkData: true }),
    addressTimezone: 'Europe/Berlin', browserTimezone: undefined, webrtcLeak: false,
  });
  it.each<[string, VpnEvidence, number, string[]]>([
    ["'NordVPN S.A.' on an unlisted ASN: the brand row only, not the datacenter row too", network('NordVPN S.A.', true, null), 0.6, ['Known VPN provider']],
    ['a brand on a hosting network: both rows', network('NordVPN S.A.', true, 'asn'), 1, ['Datacenter IP detected', 'Known VPN provider']],
    ['a curated hosting ASN without a hosting word', network('Example Networks', false, 'asn'), 0.4, ['Datacenter IP detected']],
    ['a hosting word in a name typed otherwise', network('Example Hosting GmbH', false, 'name'), 0.4, ['Datacenter IP detected']],
  ])('%s', (_, evidence, confidence, indicators) => {
    const result = judgeVpn(evidence);
    expect(result.confidence).toBe(confidence);
    expect(result.indicators).toEqual(indicators);
  });
});
