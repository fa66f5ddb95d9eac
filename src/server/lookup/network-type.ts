/**
 * network_type of an address from its ASN and organisation name: the curated ASN lists in
 * network-types.json first, then organisation-name keywords (the VPN score's datacenter
 * words, plus the JSON's), else 'other'. A VPN brand does not make a network 'datacenter'
 * here: the VPN score weighs the brand on its own row (src/lib/vpn-score.ts says why).
 * Reserved addresses are 'private' before any of this (engine.ts).
 */
import type { IpInfo } from '../../lib/record.ts';
import { DATACENTER_KEYWORDS, orgMentionsDatacenter, orgMentionsVpnBrand } from '../../lib/vpn-score.ts';
import table from './network-types.json' with { type: 'json' };

export type NetworkType = IpInfo['network_type'];
type Classified = Exclude<NetworkType, 'private' | 'other'>;

/** Keyword lists in the order they are tried. */
const KEYWORDS: ReadonlyArray<readonly [Classified, readonly string[]]> = [
  ['datacenter', [...DATACENTER_KEYWORDS, ...table.keywords.datacenter]],
  ['mobile', table.keywords.mobile],
  ['business', table.keywords.business],
  ['residential', table.keywords.residential],
];

const BY_ASN = new Map<number, Classified>();
for (const [type, asns] of Object.entries(table.asns) as [Classified, Record<string, string>][]) {
  for (const asn of Object.keys(asns)) if (/^\d+$/.test(asn)) BY_ASN.set(Number(asn), type);
}

/** The first keyword list with a word in the (lower-cased) name, and that word. */
function keywordOf(lower: string): [Classified, string] | undefined {
  for (const [type, words] of KEYWORDS) {
    const word = words.find((w) => lower.includes(w));
    if (word !== undefined) return [type, word];
  }
  return undefined;
}

/** network_type from the organisation name alone. */
export function networkTypeOfOrg(org: string): NetworkType {
  return keywordOf(org.toLowerCase())?.[0] ?? 'other';
}

/** A network's type and what decided it: the curated ASN list, a word of its name (`word`), or nothing. */
export interface TypeReason { type: NetworkType; by: 'asn' | 'name' | null; word: string }

/** network_type for an ASN and its organisation name, as a lookup gives it, with its reason (a network's page says why). */
export function networkTypeWithReason(asn: number, org: string): TypeReason {
  const listed = BY_ASN.get(asn);
  if (listed) return { type: listed, by: 'asn', word: '' };
  const found = keywordOf(org.toLowerCase());
  return found ? { type: found[0], by: 'name', word: found[1] } : { type: 'other', by: null, word: '' };
}

const TYPES: readonly NetworkType[] = ['datacenter', 'mobile', 'business', 'residential', 'other'];
const DATACENTER_WORD = 8;
const VPN_BRAND = 16;

/**
 * What the organisation names in the ASN table say, worked out once per name on first
 * use (the hot path must not lowercase and scan a name per lookup).
 */
export class OrgTraits {
  private readonly orgs: readonly string[];
  // Per organisation: 0 = not yet seen; else 1 + index in TYPES, plus the flag bits.
  private readonly traits: Uint8Array;

  constructor(orgs: readonly string[]) {
    this.orgs = orgs;
    this.traits = new Uint8Array(orgs.length);
  }

  private of(orgId: number): number {
    let t = this.traits[orgId]!;
    if (t === 0) {
      const org = this.orgs[orgId] ?? '';
      t = (TYPES.indexOf(networkTypeOfOrg(org)) + 1)
        | (orgMentionsDatacenter(org) ? DATACENTER_WORD : 0)
        | (orgMentionsVpnBrand(org) ? VPN_BRAND : 0);
      this.traits[orgId] = t;
    }
    return t;
  }

  /** network_type for an ASN and its organisation (curated ASN list first). */
  networkType(asn: number, orgId: number): NetworkType {
    return BY_ASN.get(asn) ?? TYPES[(this.of(orgId) & 7) - 1]!;
  }

  /**
   * How the network is known to be a hosting one: 'asn' from the curated ASN list, 'name'
   * from hosting words in its name (as network_type or the VPN score's keywords), else null.
   */
  hostingBy(asn: number, orgId: number): 'asn' | 'name' | null {
    const type = this.networkType(asn, orgId);
    if (type === 'datacenter' && BY_ASN.has(asn)) return 'asn';
    return type === 'datacenter' || this.datacenterWord(orgId) ? 'name' : null;
  }

  /** Whether the name holds one of the VPN score's datacenter keywords. */
  datacenterWord(orgId: number): boolean {
    return (this.of(orgId) & DATACENTER_WORD) !== 0;
  }

  /** Whether the name holds a known VPN brand. */
  vpnBrand(orgId: number): boolean {
    return (this.of(orgId) & VPN_BRAND) !== 0;
  }
}
