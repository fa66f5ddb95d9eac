/**
 * The DNS leak test's verdict: the resolvers that asked for a visitor's names compared with
 * the visitor's own network. On a VPN, a resolver outside the VPN's network is a leak (one
 * in an internet provider's network the worst: that provider sees the sites visited);
 * without a VPN there is no tunnel to leak from. What cannot be compared (an address or a
 * resolver whose network is unknown) is not conclusive. The words come from
 * content/site/dns-leak-verdicts.json; GET /api/dns-leak/{token} answers both.
 */
import type { NETWORK_TYPES } from './record.ts';

type NetworkType = (typeof NETWORK_TYPES)[number];

export const VERDICT_STATES = ['waiting', 'no_leak', 'leak', 'not_conclusive'] as const;
export type VerdictState = (typeof VERDICT_STATES)[number];

/** Which sentence a verdict reads (the keys of the content file's `verdicts`). */
export type VerdictCase = 'waiting' | 'vpnOwnNetwork' | 'vpnProvider' | 'vpnOther' | 'ownProvider' | 'other' | 'unknown';

/** The visitor, as the verdict compares it. */
export interface VerdictCaller {
  asn: number | null;
  /** Whether the visitor's address looks like a VPN's (or a proxy's). */
  vpn: boolean;
}

/** A resolver, as the verdict compares and names it. */
export interface VerdictResolver {
  asn: number | null;
  asName: string | null;
  /** A named public resolver ('Cloudflare'), or null. */
  operator: string | null;
  countryName: string | null;
  networkType: NetworkType;
}

export interface Verdict {
  state: VerdictState;
  case: VerdictCase;
  /** The resolver the sentence names, if any. */
  resolver?: VerdictResolver;
}

/** Networks that are someone's internet access: a resolver there is an internet provider's. */
const PROVIDER_TYPES: ReadonlySet<NetworkType> = new Set(['residential', 'mobile', 'business']);

/** The verdict for the resolvers seen so far (in the order they first asked). */
export function dnsLeakVerdict(caller: VerdictCaller, resolvers: readonly VerdictResolver[]): Verdict {
  if (resolvers.length === 0) return { state: 'waiting', case: 'waiting' };
  if (caller.asn === null) return { state: 'not_conclusive', case: 'unknown' };
  const outside = resolvers.filter((r) => r.asn !== caller.asn);
  if (outside.length === 0) return { state: 'no_leak', case: caller.vpn ? 'vpnOwnNetwork' : 'ownProvider', resolver: resolvers[0] };
  const known = outside.filter((r) => r.asn !== null);
  if (known.length < outside.length) return { state: 'not_conclusive', case: 'unknown' };
  if (!caller.vpn) return { state: 'no_leak', case: 'other', resolver: known[0] };
  const provider = known.find((r) => r.operator === null && PROVIDER_TYPES.has(r.networkType));
  return provider ? { state: 'leak', case: 'vpnProvider', resolver: provider } : { state: 'leak', case: 'vpnOther', resolver: known[0] };
}

/** The sentence of a verdict: `{name}` the operator, else the network's name, else its number; `{asn}` 'AS13335'; `{place}` ' in Germany' or nothing. */
export function verdictText(verdict: Verdict, words: Record<VerdictCase | 'place', string>): string {
  const r = verdict.resolver;
  const asn = r && r.asn !== null ? `AS${r.asn}` : '';
  const values: Record<string, string> = {
    name: (r?.operator ?? r?.asName ?? asn).replace(/\.+$/, ''),
    asn,
    place: r?.countryName ? words.place.replace('{country}', r.countryName) : '',
  };
  // One pass: a name that happens to hold '{asn}' stays as it is.
  return words[verdict.case].replace(/\{(name|asn|place)\}/g, (_, key: string) => values[key]!);
}
