/**
 * A network as the API and its page give it (src/lib/network-record.ts): what the index
 * holds of it, its type by the lookup's rule with the reason, and the share of its space
 * on each privacy list, worked out from the lists loaded now (they change while the
 * process runs; the ASN and place data do not).
 */
import { NETWORK_LISTS, type NetworkRecord, type NetworkSummaryRecord } from '../../lib/network-record.ts';
import { countryName } from '../lookup/merge-place.ts';
import { networkTypeWithReason } from '../lookup/network-type.ts';
import type { PrivacyLists } from '../data/privacy-lists.ts';
import type { Network, NetworkIndex, NetworkSummary } from './network-index.ts';

/** A share, 0-1, as it is: a list may hold one /48 of millions (rounded, it would read as none or as twice that). */
const share = (part: number, whole: number): number => part / whole;

/** The privacy lists' shares of a network's space; every list null when none is configured. */
function listShares(index: NetworkIndex, network: Network, lists: PrivacyLists | undefined): NetworkRecord['privacy'] {
  const coverage = lists?.coverage(index.ranges4(network.slot), index.ranges6(network.slot)) ?? {};
  const out = {} as NetworkRecord['privacy'];
  for (const kind of NETWORK_LISTS) {
    const found = coverage[kind];
    out[kind] = found ? {
      ipv4_share: network.v4Addresses > 0 ? share(found.v4, network.v4Addresses) : null,
      ipv6_share: network.v6Blocks > 0 ? share(found.v6, network.v6Blocks) : null,
      list_date: found.updated,
    } : null;
  }
  return out;
}

/**
 * The network's record, with at most `prefixLimit` prefixes of each family (the page lists
 * the first ones; the API and the downloads all of them).
 */
export function networkRecord(index: NetworkIndex, network: Network, lists: PrivacyLists | undefined, prefixLimit = Infinity): NetworkRecord {
  const type = networkTypeWithReason(network.asn, network.name);
  const main = network.countries[0];
  const round = (n: number) => Math.round(n * 1000) / 1000;
  return {
    asn: network.asn,
    as: `AS${network.asn}`,
    name: network.name,
    country_code: main?.countryCode ?? null,
    country: main ? countryName(main.countryCode) : null,
    network_type: type.type,
    network_type_reason: { by: type.by === 'asn' ? 'asn_list' : type.by, word: type.by === 'name' ? type.word : null },
    ipv4: { addresses: network.v4Addresses, prefixes: network.v4Prefixes },
    ipv6: { prefixes: network.v6Prefixes, blocks_48: round(network.v6Blocks) },
    places: {
      unit: network.placeUnit === 'ipv4' ? 'ipv4_addresses' : network.placeUnit === 'ipv6' ? 'ipv6_48s' : null,
      placed: round(network.placed),
      countries: network.countries.map((c) => ({ country_code: c.countryCode, country: countryName(c.countryCode), count: round(c.count), share: share(c.count, network.placed) })),
      cities: network.cities.map((c) => ({
        city: c.city, region: c.region, latitude: c.latitude, longitude: c.longitude,
        country_code: c.countryCode, country: countryName(c.countryCode), count: round(c.count), share: share(c.count, network.placed),
      })),
    },
    privacy: listShares(index, network, lists),
    prefixes: { ipv4: index.prefixes(network.slot, 4, prefixLimit), ipv6: index.prefixes(network.slot, 6, prefixLimit) },
    data_version: index.version,
  };
}

/** A network in a search's or a ranking's list. */
export function summaryRecord(s: NetworkSummary): NetworkSummaryRecord {
  return {
    asn: s.asn, as: `AS${s.asn}`, name: s.name, country_code: s.countryCode || null,
    ipv4_addresses: s.v4Addresses, ipv6_blocks_48: Math.round(s.v6Blocks * 1000) / 1000,
  };
}
