import { describe, expect, it } from 'vitest';
import { dnsLeakVerdict, verdictText, type VerdictCaller, type VerdictResolver } from './dns-leak-verdict.ts';

const resolver = (asn: number | null, more: Partial<VerdictResolver> = {}): VerdictResolver =>
  ({ asn, asName: asn === null ? null : `NET-${asn}`, operator: null, countryName: null, networkType: 'datacenter', ...more });
const vpn: VerdictCaller = { asn: 9009, vpn: true };
const home: VerdictCaller = { asn: 7922, vpn: false };
const cloudflare = resolver(13335, { operator: 'Cloudflare', countryName: 'Germany' });
const comcast = resolver(7922, { asName: 'COMCAST-7922', networkType: 'residential' });
const telekom = resolver(3320, { asName: 'Deutsche Telekom AG', networkType: 'mobile' });
const office = resolver(64500, { asName: 'Example Corp', networkType: 'business' });
const unknown = resolver(null, { networkType: 'other' });

describe('dnsLeakVerdict', () => {
  it.each<[string, VerdictCaller, VerdictResolver[], string, string, VerdictResolver | undefined]>([
    ['no resolver yet: waiting, whoever asks', vpn, [], 'waiting', 'waiting', undefined],
    ['no resolver yet, caller unknown: still waiting', { asn: null, vpn: true }, [], 'waiting', 'waiting', undefined],
    ['caller network unknown: not conclusive', { asn: null, vpn: true }, [cloudflare], 'not_conclusive', 'unknown', undefined],
    ['VPN, every resolver in its network: no leak, the first named', vpn, [resolver(9009), resolver(9009, { asName: 'second' })], 'no_leak', 'vpnOwnNetwork', resolver(9009)],
    ['VPN, a public resolver: a leak naming it', vpn, [resolver(9009), cloudflare], 'leak', 'vpnOther', cloudflare],
    ['VPN, an internet provider (residential): the provider sentence', vpn, [cloudflare, comcast], 'leak', 'vpnProvider', comcast],
    ['VPN, a mobile network counts as a provider', vpn, [telekom], 'leak', 'vpnProvider', telekom],
    ['VPN, a business network counts as a provider', vpn, [office], 'leak', 'vpnProvider', office],
    ['VPN, a hosting network that is no named resolver: the other sentence, not the provider one', vpn, [resolver(16509, { asName: 'AMAZON-02' })],
      'leak', 'vpnOther', resolver(16509, { asName: 'AMAZON-02' })],
    ['VPN, a named public resolver in a provider-typed network is named as itself', vpn, [resolver(15169, { operator: 'Google Public DNS', networkType: 'business' })],
      'leak', 'vpnOther', resolver(15169, { operator: 'Google Public DNS', networkType: 'business' })],
    ['VPN, a resolver whose network is unknown: not conclusive', vpn, [cloudflare, unknown], 'not_conclusive', 'unknown', undefined],
    ['VPN, an unknown resolver inside nothing known: not conclusive', vpn, [unknown], 'not_conclusive', 'unknown', undefined],
    ['no VPN, the own provider: no leak', home, [comcast], 'no_leak', 'ownProvider', comcast],
    ['no VPN, a public resolver: no leak, named', home, [comcast, cloudflare], 'no_leak', 'other', cloudflare],
    ['no VPN, a resolver of unknown network: not conclusive', home, [unknown], 'not_conclusive', 'unknown', undefined],
  ])('%s', (_, caller, resolvers, state, which, named) => {
    const verdict = dnsLeakVerdict(caller, resolvers);
    expect(verdict).toEqual(named ? { state, case: which, resolver: named } : { state, case: which });
  });
});

const WORDS = {
  waiting: 'Waiting.',
  vpnOwnNetwork: 'VPN {name} {asn}.',
  vpnProvider: 'Provider {name}.',
  vpnOther: 'To {name} ({asn}){place}, not the VPN.',
  ownProvider: 'Own {name}.',
  other: 'Other {name} ({asn}){place}.',
  unknown: 'Unknown.',
  place: ' in {country}',
};

describe('verdictText', () => {
  it.each<[string, Parameters<typeof verdictText>[0], string]>([
    ['an operator is named by its name, its country after', { state: 'leak', case: 'vpnOther', resolver: cloudflare }, 'To Cloudflare (AS13335) in Germany, not the VPN.'],
    ['no operator: the network name', { state: 'leak', case: 'vpnProvider', resolver: comcast }, 'Provider COMCAST-7922.'],
    ['no country: no place', { state: 'no_leak', case: 'other', resolver: resolver(64501) }, 'Other NET-64501 (AS64501).'],
    ['no name at all: the number', { state: 'no_leak', case: 'other', resolver: resolver(64502, { asName: null }) }, 'Other AS64502 (AS64502).'],
    ['every final full stop of a name goes', { state: 'no_leak', case: 'ownProvider', resolver: resolver(1, { asName: 'Example Inc..' }) }, 'Own Example Inc.'],
    ['a resolver without a number or name: both blank', { state: 'no_leak', case: 'other', resolver: resolver(null) }, 'Other  ().'],
    ["a name's final full stop gives way to the sentence's", { state: 'no_leak', case: 'ownProvider', resolver: resolver(1, { asName: 'Example Sp. z o.o.' }) }, 'Own Example Sp. z o.o.'],
    ['no resolver: the sentence as written', { state: 'waiting', case: 'waiting' }, 'Waiting.'],
    ['a name holding a placeholder is not filled again', { state: 'no_leak', case: 'vpnOwnNetwork', resolver: resolver(5, { asName: '{asn}' }) }, 'VPN {asn} AS5.'],
  ])('%s', (_, verdict, text) => {
    expect(verdictText(verdict, WORDS)).toBe(text);
  });

  it('writes the content file\'s sentences for the examples the API documents', async () => {
    const { verdicts } = (await import('../../content/site/dns-leak-verdicts.json', { with: { type: 'json' } })).default;
    expect(verdictText({ state: 'leak', case: 'vpnOther', resolver: cloudflare }, verdicts))
      .toBe("Your DNS queries go to Cloudflare (AS13335) in Germany, not to your VPN's network.");
    expect(verdictText({ state: 'leak', case: 'vpnProvider', resolver: resolver(7922, { asName: 'Comcast' }) }, verdicts))
      .toBe('Your DNS queries go to your internet provider (Comcast) although your address is a VPN\'s: your provider can see the sites you visit.');
  });
});
