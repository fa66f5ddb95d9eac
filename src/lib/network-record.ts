/**
 * A network (autonomous system) as `GET /api/asn/{n}` answers it and its page `/AS{n}`
 * shows it, and the search's answer (`GET /api/asn?q=`). Field names are the API's
 * contract (docs/api.md, "Cities and networks"). What an AS number is and the
 * path of a network's page: asn.ts.
 */
import * as z from 'zod/mini';
import { searchAnswerOf } from './search-answer.ts';
import { NETWORK_TYPES } from './record.ts';

/** The privacy lists a network's space is checked against (src/server/data/privacy-lists.ts). */
export const NETWORK_LISTS = ['tor', 'vpn', 'proxy', 'hosting', 'relay'] as const;

const PlaceShare = {
  country_code: z.string(),
  /** English country name. */
  country: z.string(),
  /** How many of the network's addresses (or /48s: `places.unit`) are there. */
  count: z.number(),
  /** That count over all the network's placed ones, 0-1. */
  share: z.number(),
};

/** What one privacy list holds of the network's space; null in `privacy` when the list is not loaded. */
export const ListShareSchema = z.object({
  /** Share of its IPv4 addresses on the list, 0-1; null when it has none. */
  ipv4_share: z.nullable(z.number()),
  /** Share of its IPv6 space (in /48s) on the list, 0-1; null when it has none. */
  ipv6_share: z.nullable(z.number()),
  /** The list file's date, YYYY-MM-DD. */
  list_date: z.string(),
});

export const NetworkRecordSchema = z.object({
  asn: z.number(),
  /** 'AS15169'. */
  as: z.string(),
  name: z.string(),
  /** Where most of its placed addresses are; null when none is placed. */
  country_code: z.nullable(z.string()),
  country: z.nullable(z.string()),
  /** As a lookup's network_type (src/server/lookup/network-type.ts); never 'private'. */
  network_type: z.enum(NETWORK_TYPES),
  /** What decided it: our curated list of networks, a word of its name, or nothing ('other'). */
  network_type_reason: z.object({ by: z.nullable(z.enum(['asn_list', 'name'])), word: z.nullable(z.string()) }),
  ipv4: z.object({ addresses: z.number(), prefixes: z.number() }),
  /** IPv6 space in /48s (a part of one counts as its fraction). */
  ipv6: z.object({ prefixes: z.number(), blocks_48: z.number() }),
  places: z.object({
    /** What the counts count: its IPv4 addresses, or its IPv6 /48s when it has no IPv4; null when none is placed. */
    unit: z.nullable(z.enum(['ipv4_addresses', 'ipv6_48s'])),
    /** How many have a known country (the shares' denominator). */
    placed: z.number(),
    /** The top countries and cities, most first (at most 10 each). */
    countries: z.array(z.object(PlaceShare)),
    cities: z.array(z.object({ city: z.string(), region: z.string(), latitude: z.number(), longitude: z.number(), ...PlaceShare })),
  }),
  privacy: z.record(z.enum(NETWORK_LISTS), z.nullable(ListShareSchema)),
  /** Every prefix (its ranges as CIDRs), in address order. */
  prefixes: z.object({ ipv4: z.array(z.string()), ipv6: z.array(z.string()) }),
  /** The data it is built from (the packages' versions). */
  data_version: z.string(),
});
export type NetworkRecord = z.infer<typeof NetworkRecordSchema>;

/** A network a search or a ranking lists. */
export const NetworkSummarySchema = z.object({
  asn: z.number(),
  as: z.string(),
  name: z.string(),
  country_code: z.nullable(z.string()),
  ipv4_addresses: z.number(),
  ipv6_blocks_48: z.number(),
});
export type NetworkSummaryRecord = z.infer<typeof NetworkSummarySchema>;

/** `GET /api/asn?q=…&limit=…`: the trimmed query, how many were found, best first. */
export const NetworkSearchResponseSchema = /* @__PURE__ */ searchAnswerOf(NetworkSummarySchema);
export type NetworkSearchResponse = z.infer<typeof NetworkSearchResponseSchema>;

/** Longest search query (characters); longer is a 400. */
export const NETWORK_QUERY_MAX = 100;
/** A name query needs this many characters (an AS number any); fewer gives no results. */
export const NETWORK_QUERY_MIN = 2;
export const NETWORK_LIMIT_DEFAULT = 10;
export const NETWORK_LIMIT_MAX = 50;

/** What a network's page renders (its locals' `network`): the network, or why there is none. */
export type NetworkPage =
  | { kind: 'network'; record: NetworkRecord }
  | { kind: 'invalid'; query: string }
  | { kind: 'unknown'; asn: number }
  | { kind: 'unavailable' };

/** What `/networks` renders from (its locals' `networks`). */
export interface NetworkDirectory {
  /** The largest networks overall, by IPv4 addresses, then /48s. */
  largest(limit: number): NetworkSummaryRecord[];
  /** The networks with the most IPv4 addresses in a country (ISO code), with that count. */
  largestIn(countryCode: string, limit: number): Array<NetworkSummaryRecord & { in_country: number }>;
  search(q: string, limit: number): NetworkSearchResponse;
}
