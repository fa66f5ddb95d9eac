import { describe, expect, it } from 'vitest';
import { judgeVpn, orgMentionsDatacenter, orgMentionsVpnBrand, scoreVpn, type VpnEvidence, type VpnSignals } from './vpn-score.ts';

const none: VpnSignals = { timezoneMismatch: false, datacenter: false, vpnBrand: false, webrtcLeak: false };

describe('scoreVpn', () => {
  it.each<[string, Partial<VpnSignals>, boolean, number, string[]]>([
    ['no signal: clean', {}, false, 0, []],
    ['a timezone mismatch alone (0.3) stays under the 0.4 threshold', { timezoneMismatch: true }, false, 0.3, ['Timezone mismatch']],
    ['a datacenter alone (0.4) is not over the threshold', { datacenter: true }, false, 0.4, ['Datacenter IP detected']],
    ['a known VPN brand alone (0.6) is detected', { vpnBrand: true }, true, 0.6, ['Known VPN provider']],
    ['a WebRTC leak alone (0.5) is detected', { webrtcLeak: true }, true, 0.5, ['WebRTC IP leak detected']],
    ['datacenter plus timezone mismatch (0.7) is detected', { datacenter: true, timezoneMismatch: true }, true, 0.7, ['Timezone mismatch', 'Datacenter IP detected']],
    ['every signal sums to 1.8, indicators in table order', { timezoneMismatch: true, datacenter: true, vpnBrand: true, webrtcLeak: true }, true, 1.8,
      ['Timezone mismatch', 'Datacenter IP detected', 'Known VPN provider', 'WebRTC IP leak detected']],
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

describe('judgeVpn: from what the lookup knows to the verdict', () => {
  const clean: VpnEvidence = { networkType: 'residential', datacenterWord: false, vpnBrand: false, addressTimezone: 'Europe/Berlin', browserTimezone: undefined, webrtcLeak: false };
  it.each<[string, Partial<VpnEvidence>, number, string[]]>([
    ['a home network with no browser facts', {}, 0, []],
    ["'NordVPN S.A.' on an unlisted ASN: the brand row only, not the datacenter row too", { networkType: 'other', vpnBrand: true }, 0.6, ['Known VPN provider']],
    ['a brand on a hosting network: both rows', { networkType: 'datacenter', vpnBrand: true }, 1, ['Datacenter IP detected', 'Known VPN provider']],
    ['a curated hosting ASN without a hosting word', { networkType: 'datacenter' }, 0.4, ['Datacenter IP detected']],
    ['a hosting word in a name typed otherwise', { networkType: 'business', datacenterWord: true }, 0.4, ['Datacenter IP detected']],
    ['a browser clock of another offset', { browserTimezone: 'America/New_York' }, 0.3, ['Timezone mismatch']],
    ['a browser clock of the same offset', { browserTimezone: 'Europe/Paris' }, 0, []],
    ['no zone for the address: nothing to compare', { addressTimezone: 'Unknown', browserTimezone: 'America/New_York' }, 0, []],
    ['a WebRTC leak', { webrtcLeak: true }, 0.5, ['WebRTC IP leak detected']],
  ])('%s', (_, evidence, confidence, indicators) => {
    const result = judgeVpn({ ...clean, ...evidence });
    expect(result.confidence).toBe(confidence);
    expect(result.indicators).toEqual(indicators);
  });
});
