/**
 * Per-client rate limits in fixed one-minute windows, counted by a store (memory-store.ts:
 * this process's memory by default; shared-stores.ts: across workers or machines).
 * A client is an IPv4 address or an IPv6 /64 (one host usually owns a /64); an IPv6 client
 * also counts in its /48, which has NETWORK_FACTOR times the budget, so that whoever holds a
 * /48 does not get 65,536 budgets. A request is refused when either count is past its limit.
 * Private and loopback clients (our own proxies and health checks) are exempt.
 * Each class of classes.ts counts in keys of its own (`createLimitClasses`): which requests a
 * class counts, the route table says (http/route-table.ts: a row names its classes); an
 * endpoint's class answers 429 in the API's JSON, a page's a short text, asked by
 * http/app.ts before the page is looked up. Answers carry
 * RateLimit-Limit/-Remaining/-Reset of the tighter count; refusals are 429 with Retry-After.
 * A store that cannot answer lets requests through without the headers (fail open).
 */
import { reservedKind } from '../../lib/ip-address.ts';
import { clientKey, networkKey } from '../../lib/client-key.ts';
import { EXPOSE_HEADERS, firstAnswer, jsonError, mapAnswer, text, type AppRequest, type Handler } from '../http/handler.ts';
import type { PageVerdict, RouteLimit, RouteLimits } from '../http/route-table.ts';
import { andThen, type MaybePromise } from '../utils/maybe-promise.ts';
import { LIMIT_CLASSES, type LimitClass, type LimitSettings } from './classes.ts';
import { WindowCounts, type RateLimitStore, type Verdict } from './memory-store.ts';

/**
 * How many clients' budgets an IPv6 /48 has. A /48 is what one site is given (a business, or
 * a household on many networks): a handful of hosts, each with a /64 of its own. Eight of
 * them at full speed at once is more than such a site asks, while a script that walks the
 * /64s of its /48 gets eight clients' worth, not 65,536.
 */
export const NETWORK_FACTOR = 8;

/** What a limit says of one request, from the tighter of the client's counts. */
export interface LimitAnswer {
  /** Whether the request is refused: one of its counts is past its limit. */
  refused: boolean;
  /** The tighter count's limit, and whether that count is the client's IPv6 /48. */
  limit: number;
  network: boolean;
  /** Whole seconds until the tighter count starts again (at least 1). */
  reset: number;
  /** RateLimit-Limit/-Remaining/-Reset, Retry-After when refused, and the CORS list that exposes them. */
  headers: Record<string, string>;
}

type Asked = MaybePromise<LimitAnswer | undefined>;

/** One count of a request, as the headers will say it. */
interface Count { limit: number; network: boolean; used: number; remaining: number; reset: number }

const countOf = (verdict: Verdict | undefined, limit: number, network: boolean): Count | undefined => verdict && {
  limit, network, used: verdict.used, remaining: Math.max(0, limit - verdict.used), reset: Math.max(1, Math.ceil(verdict.resetMs / 1000)),
};

/**
 * Whether the /48's count is the tighter: fewer requests left, or as many and a later start
 * again (when one refuses, Retry-After is then the time after which the next request can
 * pass both, not only the first to reset).
 */
const networkIsTighter = (own: Count, network: Count) =>
  network.remaining < own.remaining || (network.remaining === own.remaining && network.reset > own.reset);

/** The answer for the counts that answered (none: the store is down, fail open), with the tighter one's headers. */
function answerOf(own: Count | undefined, network: Count | undefined): LimitAnswer | undefined {
  const shown = own && network ? (networkIsTighter(own, network) ? network : own) : own ?? network;
  if (!shown) return undefined;
  const refused = (own !== undefined && own.used > own.limit) || (network !== undefined && network.used > network.limit);
  const headers: Record<string, string> = {
    ...EXPOSE_HEADERS,
    'ratelimit-limit': String(shown.limit),
    'ratelimit-remaining': String(shown.remaining),
    'ratelimit-reset': String(shown.reset),
  };
  if (refused) headers['retry-after'] = String(shown.reset);
  return { refused, limit: shown.limit, network: shown.network, reset: shown.reset, headers };
}

/**
 * Counts a request in `store` under `scope`: once for an IPv4 client, twice for an IPv6 one
 * (its /64 and its /48); nothing for a reserved or unknown address. Synchronous with a
 * synchronous store: the memory store's hot path takes no promise.
 */
function createLimit(perMinute: number, store: RateLimitStore, scope: string): (req: AppRequest) => Asked {
  const networkLimit = perMinute * NETWORK_FACTOR;
  return (req) => {
    const address = req.clientAddress;
    if (!address || reservedKind(address)) return undefined;
    if (address.version === 4) {
      // clientKey(address), already printed
      return andThen(store.hit(scope + req.clientIp, perMinute), (v) => answerOf(countOf(v, perMinute, false), undefined));
    }
    // The /64 as 16 hex digits, its /48 as their first 12 (lib/client-key.ts): apart by their
    // length (an IPv4 key has dots), with one BigInt printed, and no suffix to join (a string
    // joined to another is flattened again when the store hashes it: about 200 ns a request).
    const hex = clientKey(address);
    const own = store.hit(scope + hex, perMinute);
    const network = store.hit(scope + networkKey(hex), networkLimit);
    if (own instanceof Promise || network instanceof Promise) {
      return Promise.all([own, network]).then(([o, n]) => answerOf(countOf(o, perMinute, false), countOf(n, networkLimit, true)));
    }
    return answerOf(countOf(own, perMinute, false), countOf(network, networkLimit, true));
  };
}

/** "at most 300 a minute", naming the /48 when its count is the one shown. */
const atMost = (answer: LimitAnswer) => `at most ${answer.limit} a minute${answer.network ? ' from your IPv6 /48 network' : ''}`;

/** An endpoint's answer once the limit has spoken: the 429, or `inner`'s answer with the RateLimit headers (none when the store is down). */
function limitedAnswer(verdict: LimitAnswer | undefined, inner: () => ReturnType<Handler>): ReturnType<Handler> {
  if (!verdict) return inner();
  if (verdict.refused) return jsonError(429, 'rate_limited', `Too many requests: ${atMost(verdict)}. Try again in ${verdict.reset} s.`, verdict.headers);
  // The handler's own headers win where both name one (the expose list).
  return mapAnswer(inner(), (found) => ({ ...found, headers: { ...verdict.headers, ...found.headers } }));
}

/** A count as a route applies it: to an endpoint's answer, or to a page. */
const routeLimit = (count: (req: AppRequest) => Asked): RouteLimit => ({
  answer: (req, inner) => andThen(count(req), (verdict) => limitedAnswer(verdict, inner)),
  page: (req) => andThen(count(req), pageVerdict),
});

/**
 * Each class's limit as the route table applies it, counted in `store` in keys of its own;
 * undefined for a class that is off (0 a minute).
 */
export function createLimitClasses(settings: LimitSettings, store: RateLimitStore = new WindowCounts()): RouteLimits {
  const limits: Partial<Record<LimitClass, RouteLimit>> = {};
  for (const [name, { perMinute, scope }] of Object.entries(LIMIT_CLASSES) as [LimitClass, (typeof LIMIT_CLASSES)[LimitClass]][]) {
    const n = perMinute(settings);
    if (n > 0) limits[name] = routeLimit(createLimit(n, store, scope));
  }
  return limits;
}

export interface RateLimitOptions {
  /** Requests a minute per client; 0 turns the limit off. */
  perMinute: number;
  /** Whether a request counts against the limit. */
  guards: (req: AppRequest) => boolean;
  /** Where the counts live (default: this process's memory). */
  store?: RateLimitStore;
  /** Prefix of this limit's keys, so that it counts apart from another in the same store ('' by default: the API's). */
  scope?: string;
}

/**
 * One limit around `handlers` (asked in order), for a caller without a route table (benches,
 * tests of the limit itself): a guarded request past the limit is answered 429 without
 * reaching them; otherwise their answer goes out with the RateLimit headers added.
 */
export function withRateLimit(options: RateLimitOptions, handlers: readonly Handler[]): Handler {
  const { perMinute, guards, store = new WindowCounts() } = options;
  const inner: Handler = (req) => firstAnswer(handlers, req);
  if (perMinute === 0) return inner;
  const limit = routeLimit(createLimit(perMinute, store, options.scope ?? ''));
  return (req) => (guards(req) ? limit.answer(req, () => inner(req)) : inner(req));
}

/** The page limit: a verdict per request, a promise only when the store is in another process. */
export type PageLimit = (req: AppRequest) => MaybePromise<PageVerdict | undefined>;

const pageVerdict = (answer: LimitAnswer | undefined): PageVerdict | undefined => answer && {
  headers: answer.headers,
  refusal: answer.refused
    ? { ...text(429, `Too many pages asked: ${atMost(answer)}. Try again in ${answer.reset} s.`, answer.headers), cors: false }
    : undefined,
};

/**
 * The on-demand pages' limit, counted apart from the API's (in keys of their own); undefined
 * when `perMinute` is 0 (off).
 */
export function createPageLimit({ perMinute, store = new WindowCounts() }: { perMinute: number; store?: RateLimitStore | undefined }): PageLimit | undefined {
  return perMinute === 0 ? undefined : routeLimit(createLimit(perMinute, store, LIMIT_CLASSES.page.scope)).page;
}
