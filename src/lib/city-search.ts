/**
 * The city search's contract, shared by `GET /api/cities` (which answers it) and the
 * verification card's store (which validates what it fetches): limits, the candidate's
 * shape, and the fallback candidate offered when the search cannot answer.
 */
import * as z from 'zod/mini';
import { searchAnswerOf } from './search-answer.ts';

/** A query needs this many characters after trimming; fewer gives an empty list. */
export const CITY_QUERY_MIN = 3;
/** Longest query accepted (characters); longer is a 400. No place name comes near it. */
export const CITY_QUERY_MAX = 100;
export const CITY_LIMIT_DEFAULT = 5;
export const CITY_LIMIT_MAX = 20;
/** Every candidate the index finds: GeoNames knows the place and where it is. */
export const CITY_CONFIDENCE = 0.9;
/** Region of a candidate whose region GeoNames does not name. */
export const UNKNOWN_REGION = 'Unknown Region';

export const CityCandidateSchema = z.object({
  city: z.string(),
  /** 'Unknown Region' when none is known. */
  region: z.string(),
  /** English country name ('Germany'); 'Unknown' in the fallback. */
  country: z.string(),
  /** ISO 3166-1 alpha-2 ('DE'); 'Unknown' in the fallback. */
  country_code: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  confidence: z.number(),
  /** GeoNames population; null in the fallback, which knows none. */
  population: z.nullable(z.number()),
});
export type CityCandidate = z.infer<typeof CityCandidateSchema>;

/** `GET /api/cities?q=…&limit=…`: the trimmed query, how many were found, best first. */
export const CitySearchResponseSchema = /* @__PURE__ */ searchAnswerOf(CityCandidateSchema);
export type CitySearchResponse = z.infer<typeof CitySearchResponseSchema>;

/** Characters in the trimmed query, counted as the visitor sees them (an emoji is one). */
export function queryLength(query: string): number {
  return [...query.trim()].length;
}

/**
 * The one candidate offered when the search fails, from what the visitor typed: the
 * text before the first comma when the server answered with an error (confidence 0.5),
 * the whole text when it could not be reached (0.3). Nothing vouches for it, so the card
 * labels it unverified and it carries no coordinates worth showing (0, 0).
 */
export function fallbackCandidate(query: string, unreachable: boolean): CityCandidate {
  const text = query.trim();
  return {
    city: unreachable ? text : text.split(',')[0]!.trim(),
    region: UNKNOWN_REGION,
    country: 'Unknown',
    country_code: 'Unknown',
    latitude: 0,
    longitude: 0,
    confidence: unreachable ? 0.3 : 0.5,
    population: null,
  };
}
