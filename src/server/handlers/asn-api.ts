/**
 * The networks (autonomous systems): `GET /api/asn/{n}` (a network's record as JSON, its
 * prefixes as CSV with `?format=csv` or `Accept: text/csv`, as the bulk lookup's), `GET /api/asn?q=…`
 * (search by name or number, best first), the pages `/AS{n}` and `/networks` (the locals Astro
 * renders them with: src/pages/AS[asn].astro, src/pages/networks.astro; their paths are route
 * rows in routes.ts), and the redirects to a page's one address (`/as/15169`, `/as15169`,
 * `/AS015169` → `/AS15169`). What is
 * not an AS number is a 400, an AS number the data does not hold a 404, on the API and the
 * page alike (tests/asn-api.test.ts). Until the network index is loaded, they wait for it.
 */
import type { ClientConfig } from '../../lib/client-config.ts';
import { networkPath, parseAsNumber } from '../../lib/asn.ts';
import { asksForCsv, csvDocument, CSV_CONTENT_TYPE } from '../../lib/csv.ts';
import {
  NETWORK_LIMIT_DEFAULT, NETWORK_LIMIT_MAX, NETWORK_QUERY_MAX, NETWORK_QUERY_MIN,
  type NetworkDirectory, type NetworkPage, type NetworkRecord, type NetworkSearchResponse,
} from '../../lib/network-record.ts';
import { exposedTiming, json, jsonError, methodNotAllowed, text, type AppRequest, type AppResponse, type Handler } from '../http/handler.ts';
import type { PrivacyLists } from '../data/privacy-lists.ts';
import { networkRecord, summaryRecord } from '../networks/facts.ts';
import type { NetworkIndexHandle } from '../networks/load.ts';
import type { NetworkIndex } from '../networks/network-index.ts';

const API = '/api/asn';
const PAGE_PREFIX = '/AS';
/** Prefixes of each family a network's page lists; the rest are in its downloads. */
export const PAGE_PREFIXES = 100;
/**
 * The same for everyone, but an API answer carries the caller's RateLimit-* headers: the
 * caller's browser may keep it for an hour (the privacy lists, the fastest-changing part of
 * it, are refreshed hourly at most), a shared cache may not.
 */
const API_CACHE = { 'cache-control': 'private, max-age=3600' };

const notANumber = (input: string) => jsonError(400, 'invalid_asn',
  `"${input.slice(0, 64)}" is not an AS number: a whole number from 0 to 4294967295, like 15169 or AS15169.`);
const unknown = (asn: number) => jsonError(404, 'unknown_asn', `AS${asn} is not in our data: no address range of it is announced.`);
const unavailable = () => jsonError(503, 'networks_unavailable', 'The network data is unavailable on this server.');

const timing = (started: number): Record<string, string> => exposedTiming('asn', performance.now() - started, 'Network');

/** Runs `answer` on the index, waiting for it while it loads. */
function withIndex<T>(networks: NetworkIndexHandle, answer: (index: NetworkIndex | Error) => T): T | Promise<T> {
  const index = networks.current();
  return index ? answer(index) : networks.ready.then(answer);
}

/** The search's query and limit, or the 400 that says what is wrong with them (as /api/cities). */
function readSearch(query: URLSearchParams): { q: string; limit: number } | AppResponse {
  const qs = query.getAll('q');
  if (qs.length === 0) return jsonError(400, 'missing_query', 'Add ?q= with a network name or AS number, e.g. /api/asn?q=comcast.');
  if (qs.length > 1) return jsonError(400, 'invalid_query', 'Give q once.');
  const q = qs[0]!.trim();
  if ([...q].length > NETWORK_QUERY_MAX) return jsonError(400, 'query_too_long', `q is at most ${NETWORK_QUERY_MAX} characters.`);
  const limits = query.getAll('limit');
  if (limits.length > 1) return jsonError(400, 'invalid_limit', 'Give limit once.');
  const raw = limits[0];
  const limit = raw === undefined ? NETWORK_LIMIT_DEFAULT : /^\d{1,3}$/.test(raw) ? Number(raw) : NaN;
  if (!(limit >= 1 && limit <= NETWORK_LIMIT_MAX)) {
    return jsonError(400, 'invalid_limit', `limit is a whole number from 1 to ${NETWORK_LIMIT_MAX}; "${String(raw).slice(0, 20)}" is not.`);
  }
  return { q, limit };
}

/** The search over an index: a name needs NETWORK_QUERY_MIN characters, a number any. */
function search(index: NetworkIndex, q: string, limit: number): NetworkSearchResponse {
  const found = parseAsNumber(q, true) !== undefined || [...q].length >= NETWORK_QUERY_MIN ? index.search(q, limit) : [];
  return { query: q, count: found.length, results: found.map(summaryRecord) };
}

/** A network's prefixes as CSV (RFC 4180): one row per prefix, IPv4 first. */
function prefixesCsv(record: NetworkRecord): string {
  return csvDocument([['prefix', 'ip_version'], ...record.prefixes.ipv4.map((prefix) => [prefix, 4]), ...record.prefixes.ipv6.map((prefix) => [prefix, 6])]);
}

/** `/api/asn` and `/api/asn/{n}`. */
export function createAsnApi(networks: NetworkIndexHandle, lists: PrivacyLists | undefined): Handler {
  function one(req: AppRequest, input: string): AppResponse | Promise<AppResponse> {
    const started = performance.now();
    const asn = parseAsNumber(input, true);
    if (asn === undefined) return notANumber(input);
    const formats = req.query.getAll('format');
    const format = formats.length === 0 ? 'json' : formats.length === 1 ? formats[0] : undefined;
    if (format !== 'json' && format !== 'csv') return jsonError(400, 'invalid_format', 'format is json or csv, given once.');
    return withIndex(networks, (index) => {
      if (index instanceof Error) return unavailable();
      const network = index.get(asn);
      if (!network) return unknown(asn);
      const record = networkRecord(index, network, lists);
      // The answer depends on Accept too, so a cache keeps the JSON and the CSV apart.
      if (!asksForCsv(format, req.headers.get('accept'))) return json(200, record, { ...API_CACHE, vary: 'accept', ...timing(started) });
      return {
        status: 200,
        headers: {
          'content-type': CSV_CONTENT_TYPE, 'content-disposition': `attachment; filename="AS${asn}-prefixes.csv"`,
          ...API_CACHE, vary: 'accept', ...timing(started),
        },
        body: prefixesCsv(record),
      };
    });
  }

  return (req) => {
    if (!(req.path === API || req.path.startsWith(API + '/')) || req.method === 'OPTIONS') return undefined;
    if (req.method !== 'GET' && req.method !== 'HEAD') return methodNotAllowed('GET, HEAD', 'Use GET here.');
    if (req.path !== API) {
      const input = req.path.slice(API.length + 1);
      return input.includes('/') ? undefined : one(req, input);
    }
    const params = readSearch(req.query);
    if (!('q' in params)) return params;
    const started = performance.now();
    return withIndex(networks, (index) => index instanceof Error
      ? unavailable()
      : json(200, search(index, params.q, params.limit), { ...API_CACHE, ...timing(started) }));
  };
}

/**
 * 301 to a network page's one address: `/as/15169`, `/AS/AS15169`, `/as15169` and
 * `/AS015169` → `/AS15169`. Anything that is not an AS number is left to the page's 400.
 */
export function createNetworkRedirects(): Handler {
  return (req) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return undefined;
    const match = /^\/as(\/?)(.+)$/i.exec(req.path);
    if (!match) return undefined;
    const [, slash, rest] = match as unknown as [string, string, string];
    const asn = parseAsNumber(rest, slash === '/');
    if (asn === undefined || req.path === networkPath(asn)) return undefined;
    const q = req.query.toString();
    const location = networkPath(asn) + (q ? `?${q}` : '');
    return text(301, `Moved to ${location}`, { location, 'cache-control': 'public, max-age=86400' });
  };
}

/** The locals of a network's page: the network, or why there is none. */
export function networkPageLocals(networks: NetworkIndexHandle, lists: PrivacyLists | undefined, clientConfig: ClientConfig,
  req: AppRequest): App.Locals | Promise<App.Locals> {
  // The page shows the lists' shares and their ages in days: it changes with them and with the date.
  const cacheKey = `${lists?.generation ?? 0} ${new Date().toISOString().slice(0, 10)}`;
  const locals = (network: NetworkPage): App.Locals => ({ clientIp: req.clientIp, lookup: null, clientConfig, network, cacheKey });
  const input = req.path.slice(PAGE_PREFIX.length);
  const asn = parseAsNumber(input);
  if (asn === undefined) return locals({ kind: 'invalid', query: input.slice(0, 64) });
  return withIndex(networks, (index) => {
    if (index instanceof Error) return locals({ kind: 'unavailable' });
    const network = index.get(asn);
    return locals(network ? { kind: 'network', record: networkRecord(index, network, lists, PAGE_PREFIXES) } : { kind: 'unknown', asn });
  });
}

/** The directory `/networks` renders from: the largest networks, per country, and a search. */
function directory(index: NetworkIndex): NetworkDirectory {
  return {
    largest: (limit) => index.largest(limit).map(summaryRecord),
    largestIn: (countryCode, limit) => index.largestIn(countryCode, limit).map((s) => ({ ...summaryRecord(s), in_country: s.inCountry })),
    search: (q, limit) => search(index, q, limit),
  };
}

/** The locals of `/networks` (`?q=` searches): the directory, undefined when the network data is unavailable. */
export function networksHubLocals(networks: NetworkIndexHandle, clientConfig: ClientConfig, req: AppRequest): App.Locals | Promise<App.Locals> {
  const q = req.query.get('q')?.trim().slice(0, NETWORK_QUERY_MAX) ?? '';
  return withIndex(networks, (index) => ({
    clientIp: req.clientIp, lookup: null, clientConfig, query: q, networks: index instanceof Error ? undefined : directory(index),
    // It shows the index only, which does not change while the server runs.
    cacheKey: 'index',
  }));
}
