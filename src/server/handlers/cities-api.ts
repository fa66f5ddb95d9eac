/**
 * `GET /api/cities?q=…&limit=…`: the offline city search behind the verification card
 * (src/server/cities/). Answers `{ query, count, results }` (src/lib/city-search.ts), best
 * first; a query under 3 characters after trimming gives no results. Bad parameters are
 * 400s in the API's error shape; any text at all (emoji, control characters, 10 kB) is
 * either searched or refused with a 400, never a 5xx (tests/cities-api.test.ts). Results
 * do not depend on the caller, so the visitor's browser may keep them for an hour, and the
 * last 4,096 answers asked more than once are kept here too (bench/cities.mjs measures the
 * search with and without them).
 */
import {
  CITY_CONFIDENCE, CITY_LIMIT_DEFAULT, CITY_LIMIT_MAX, CITY_QUERY_MAX, CITY_QUERY_MIN, UNKNOWN_REGION,
  queryLength,
} from '../../lib/city-search.ts';
import { jsonError, jsonText, methodNotAllowed, type AppResponse, type Handler } from '../http/handler.ts';
import { SecondHitMemo } from '../utils/bounded-map.ts';
import type { CityIndex, CityMatch } from '../cities/city-index.ts';
import type { CityIndexHandle } from '../cities/load.ts';
import { countryName } from '../lookup/merge-place.ts';

/** Answers kept per query and limit: typing visitors ask the same prefixes ('lon', 'lond') again and again. */
const MEMO_SIZE = 4096;
/**
 * The same for everyone, but the answer carries the caller's RateLimit-* headers: the
 * visitor's browser may keep it for an hour (typing back over a prefix asks nothing), a
 * shared cache may not.
 */
const HEADERS = { 'cache-control': 'private, max-age=3600' };
const bad = (code: string, message: string): AppResponse => jsonError(400, code, message);

/** The query and limit, or the 400 that says what is wrong with them. */
function readParams(query: URLSearchParams): { q: string; limit: number } | AppResponse {
  const qs = query.getAll('q');
  if (qs.length === 0) return bad('missing_query', 'Add ?q= with the start of a city name, e.g. /api/cities?q=lon.');
  if (qs.length > 1) return bad('invalid_query', 'Give q once.');
  const q = qs[0]!.trim();
  if (queryLength(q) > CITY_QUERY_MAX) return bad('query_too_long', `q is at most ${CITY_QUERY_MAX} characters.`);
  const limits = query.getAll('limit');
  if (limits.length > 1) return bad('invalid_limit', 'Give limit once.');
  const raw = limits[0];
  const limit = raw === undefined ? CITY_LIMIT_DEFAULT : /^\d{1,3}$/.test(raw) ? Number(raw) : NaN;
  if (!(limit >= 1 && limit <= CITY_LIMIT_MAX)) {
    return bad('invalid_limit', `limit is a whole number from 1 to ${CITY_LIMIT_MAX}; "${String(raw).slice(0, 20)}" is not.`);
  }
  return { q, limit };
}

/** A place as a candidate in the answer's JSON (CityCandidate, its fields in order). */
function candidateJson(m: CityMatch): string {
  return `{"city":${JSON.stringify(m.name)},"region":${JSON.stringify(m.region || UNKNOWN_REGION)},`
    + `"country":${JSON.stringify(countryName(m.countryCode))},"country_code":${JSON.stringify(m.countryCode)},`
    + `"latitude":${m.latitude},"longitude":${m.longitude},"confidence":${CITY_CONFIDENCE},"population":${m.population}}`;
}

/**
 * The answer's JSON (CitySearchResponse), written from each place's JSON, which is kept
 * per place: the same bytes as JSON.stringify of the candidates (tests/cities-api.test.ts
 * holds them to it), without building and serializing two objects per place for every
 * answer the memo does not keep. join() writes one flat string, not a rope of pieces.
 */
function body(q: string, matches: readonly CityMatch[], places: Map<number, string>): string {
  const results = matches.map((m) => {
    let json = places.get(m.id);
    if (json === undefined) places.set(m.id, (json = candidateJson(m)));
    return json;
  });
  return [`{"query":${JSON.stringify(q)},"count":${matches.length},"results":[`, results.join(','), ']}\n'].join('');
}

/** Creates the handler over an index that may still be loading (the first requests wait for it). */
export function createCitiesApi(cities: CityIndexHandle): Handler {
  // Kept from a query's second ask: queries asked once (most of a spread of distinct ones)
  // do not push out those typed again and again.
  const memo = new SecondHitMemo<string, string>(MEMO_SIZE);
  // At most one entry per place of the index (135k, about 13 MB if every place were asked for).
  const places = new Map<number, string>();

  function answer(index: CityIndex | Error, q: string, limit: number): AppResponse {
    if (index instanceof Error) {
      return jsonError(503, 'cities_unavailable', 'The city search is unavailable on this server: its place data could not be read.');
    }
    const key = `${limit} ${q}`;
    let text = memo.get(key);
    if (text === undefined) {
      text = body(q, index.search(q, limit), places);
      memo.offer(key, text);
    }
    return jsonText(200, text, HEADERS);
  }

  return (req) => {
    // Asked for its path only (its route row, routes.ts); the API's preflight answers OPTIONS.
    if (req.method === 'OPTIONS') return undefined;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return methodNotAllowed('GET, HEAD', 'Use GET here.');
    }
    const params = readParams(req.query);
    if (!('q' in params)) return params;
    if (queryLength(params.q) < CITY_QUERY_MIN) return jsonText(200, body(params.q, [], places), HEADERS);
    const index = cities.current();
    return index ? answer(index, params.q, params.limit) : cities.ready.then((ready) => answer(ready, params.q, params.limit));
  };
}
