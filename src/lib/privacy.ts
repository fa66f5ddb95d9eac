/**
 * The named privacy flags of an address, like ipinfo's: `vpn`, `proxy`, `tor`, `relay`
 * (iCloud Private Relay), `hosting`, the service's name when known, and for every flag the
 * reason in words. Flags come from lists (src/server/data/privacy-lists.ts: Tor exits,
 * Apple's Private Relay egress ranges, VPN, open-proxy and hosting ranges) and from the
 * network's name and ASN. A flag whose list is not loaded is `null`, never `false`: its
 * reason says the check was not available, so a missing list never reads as "clean".
 * Pure and shared by server and browser; privacy.test.ts holds a row per case.
 *
 * | flag    | true when                                              | null when                                 |
 * |---------|--------------------------------------------------------|-------------------------------------------|
 * | tor     | the address is in the Tor exit list                    | that list is not loaded                   |
 * | relay   | it is in Apple's Private Relay egress ranges           | that list is not loaded                   |
 * | vpn     | it is in the VPN list, or the network's name is a VPN  | the list is not loaded and the name is no |
 * |         | brand (src/lib/vpn-score.ts VPN_BRANDS)                | VPN brand                                 |
 * | proxy   | it is in the open-proxy list                           | that list is not loaded                   |
 * | hosting | it is in the hosting list, or its ASN or name is a     | neither the list nor the network data     |
 * |         | hosting network (network_type 'datacenter')            | is loaded                                 |
 */
import type { Privacy } from './record.ts';
import { UNKNOWN } from './record.ts';
import { ageText } from './data-age.ts';

/** The flags that come from lists, in the order the card shows them. */
export const PRIVACY_FLAGS = ['tor', 'relay', 'vpn', 'proxy', 'hosting'] as const;
export type PrivacyFlag = (typeof PRIVACY_FLAGS)[number];

/** One loaded list's answer for an address. */
export interface ListCheck {
  listed: boolean;
  /** The service the list names for the address's range ('' when it names none). */
  service: string;
  /** When the list was last written (YYYY-MM-DD), so the reason says how fresh it is. */
  updated: string;
  /** The list's source in words ("the Tor Project's exit list"), when the refresher fetched it. */
  source?: string;
  /** When that source was fetched (ms since 1970): the reason then gives its age instead of the date. */
  fetchedAt?: number;
}

/** What a lookup knows that bears on the flags. */
export interface PrivacyEvidence {
  /** Per list, its answer; absent when the list is not loaded. */
  lists: Partial<Record<PrivacyFlag, ListCheck>>;
  /** The network's name ('Unknown' when the ASN data has none for the address). */
  org: string;
  /** The network's name holds a VPN brand. */
  vpnBrand: boolean;
  /** How the network data types the address: 'asn' (curated ASN list) or 'name' (hosting words) when hosting. */
  hostingNetwork: 'asn' | 'name' | null;
  /** Whether the ASN data is loaded at all (else the name and ASN checks could not run). */
  networkData: boolean;
  /** The time of the lookup (ms since 1970), which a fetched list's age is counted to. */
  now?: number;
}

/** Service names of the lists that imply one. */
const TOR_SERVICE = 'Tor';
const RELAY_SERVICE = 'iCloud Private Relay';

/** A list's freshness: its source and age when it was fetched, else its file's date. */
const since = (check: ListCheck, now?: number) => (check.source && check.fetchedAt !== undefined && now !== undefined
  ? `${check.source}, fetched ${ageText(now - check.fetchedAt)}`
  : `updated ${check.updated}`);
const network = (org: string) => (org === UNKNOWN ? 'the network' : org);
const capitalised = (text: string) => `${text[0]!.toUpperCase()}${text.slice(1)}`;

function torReason(check: ListCheck | undefined, now?: number): string {
  if (!check) return 'Tor check not available: the list of Tor exits is not loaded.';
  return check.listed
    ? `Listed in the Tor Project's list of exit relays (${since(check, now)}): traffic from this address comes out of the Tor network.`
    : `Not in the Tor Project's list of exit relays (${since(check, now)}).`;
}

function relayReason(check: ListCheck | undefined, now?: number): string {
  if (!check) return "iCloud Private Relay check not available: Apple's list of egress ranges is not loaded.";
  return check.listed
    ? `In Apple's iCloud Private Relay egress ranges${check.service ? ` for users near ${check.service}` : ''} (${since(check, now)}): Safari traffic of an iCloud+ subscriber leaves Apple's relay here.`
    : `Not in Apple's iCloud Private Relay egress ranges (${since(check, now)}).`;
}

function vpnReason(check: ListCheck | undefined, e: PrivacyEvidence): string {
  if (check?.listed) return `In the list of VPN ranges${check.service ? ` as ${check.service}` : ''} (${since(check, e.now)}).`;
  if (e.vpnBrand) return `The network's name, ${e.org}, is a VPN provider's.`;
  const name = !e.networkData ? 'the network is unknown'
    : e.org === UNKNOWN ? "the network has no name to compare with VPN providers'" : `the network's name (${e.org}) is no VPN provider's`;
  return check
    ? `Not in the list of VPN ranges (${since(check, e.now)}), and ${name}.`
    : `VPN range check not available: no list of VPN ranges is loaded; ${name}.`;
}

function proxyReason(check: ListCheck | undefined, now?: number): string {
  if (!check) return 'Open proxy check not available: no list of open proxies is loaded.';
  return check.listed ? `In the list of open proxies (${since(check, now)}).` : `Not in the list of open proxies (${since(check, now)}).`;
}

function hostingReason(check: ListCheck | undefined, e: PrivacyEvidence): string {
  if (check?.listed) return `In the list of hosting ranges${check.service ? ` as ${check.service}` : ''} (${since(check, e.now)}).`;
  if (e.hostingNetwork === 'asn') return `${capitalised(network(e.org))} is a hosting, cloud or relay network (by its AS number).`;
  if (e.hostingNetwork === 'name') return `The network's name, ${e.org}, says hosting or cloud.`;
  if (!e.networkData && !check) return 'Hosting check not available: neither the network data nor a list of hosting ranges is loaded.';
  const byNetwork = e.networkData ? `${network(e.org)} is not a hosting or cloud network by its AS number or name` : 'the network is unknown';
  return check ? `Not in the list of hosting ranges (${since(check, e.now)}), and ${byNetwork}.` : `${capitalised(byNetwork)} (no list of hosting ranges is loaded).`;
}

/** A list's flag: true or false from a loaded list, null when it is not loaded. */
const listed = (check: ListCheck | undefined): boolean | null => (check ? check.listed : null);

/** The flags and their reasons for one address. */
export function privacyOf(e: PrivacyEvidence): Privacy {
  const { tor, relay, vpn, proxy, hosting } = e.lists;
  const vpnFlag = vpn?.listed || e.vpnBrand ? true : listed(vpn);
  const hostingFlag = hosting?.listed || e.hostingNetwork !== null ? true : hosting || e.networkData ? false : null;
  const service = tor?.listed ? TOR_SERVICE
    : relay?.listed ? RELAY_SERVICE
    : vpn?.listed && vpn.service ? vpn.service
    : e.vpnBrand ? e.org
    : proxy?.listed && proxy.service ? proxy.service
    : null;
  return {
    vpn: vpnFlag,
    proxy: listed(proxy),
    tor: listed(tor),
    relay: listed(relay),
    hosting: hostingFlag,
    service,
    reasons: {
      vpn: vpnReason(vpn, e),
      proxy: proxyReason(proxy, e.now),
      tor: torReason(tor, e.now),
      relay: relayReason(relay, e.now),
      hosting: hostingReason(hosting, e),
    },
  };
}

/** The flags of a special-purpose address (private, loopback, ...): no list holds one. */
export function reservedPrivacy(kind: string): Privacy {
  const reason = `A ${kind.toLowerCase()} address is not on the public internet.`;
  return {
    vpn: false, proxy: false, tor: false, relay: false, hosting: false, service: null,
    reasons: { vpn: reason, proxy: reason, tor: reason, relay: reason, hosting: reason },
  };
}
