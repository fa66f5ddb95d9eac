/**
 * Per-client rate limits in fixed one-minute windows, counted by a store (memory-store.ts:
 * this process's memory by default; shared-stores.ts: across workers or machines).
 * A client is an IPv4 address or an IPv6 /64 (one host usually owns a /64); an IPv6 client
 * also counts in its /48, which has NETWORK_FACTOR times the budget, so that whoever holds a
 * /48 does not get 65,536 budgets. A request is refused when either count is past its limit.
 * Private and loopback clients (our own proxies and health checks) are exempt.
 * Two limits, each in keys of its own: the API's, wrapped around the handlers it guards
 * (`withRateLimit`; which requests count is the caller's to say, routes.ts), and the pages'
 * (`createPageLimit`, asked by http/app.ts before a page is looked up). Answers carry
 * RateLimit-Limit/-Remaining/-Reset of the tighter count; refusals are 429 with Retry-After.
 * A store that cannot answer lets requests through without the headers (fail open).
 */
import { reservedKind } from '../../lib/ip-address.ts';
import { clientKey, networkKey } from '../../lib/client-key.ts';
import { EXPOSE_HEADERS, firstAnswer, jsonError, mapAnswer, text, type AppRequest, type AppResponse, type Handler } from '../http/handler.ts';
import { WindowCounts, type RateLimitStore, type Verdict } from './memory-store.ts';

/**
 * How many clients' budgets an IPv6 /48 has. A /48 is what one site is given (a business, or
 * a household on many networks): a handful of hosts, each with a /64 of its own. Eight of
 * them at full speed at once is more than such a site asks, while a script that walks the
 * /64s of its /48 gets eight clients' worth, not 65,536.
 */
export const NETWORK_FACTOR = 8;

/** Prefix of the pages' keys, so that they count apart from the API's in the same store. */
const PAGE_SCOPE = 'page ';

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

type Asked = LimitAnswer | undefined | Promise<LimitAnswer | undefined>;

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
      const own = store.hit(scope + req.clientIp, perMinute); // clientKey(address), already printed
      return own instanceof Promise ? own.then((v) => answerOf(countOf(v, perMinute, false), undefined)) : answerOf(countOf(own, perMinute, false), undefined);
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
 * Wraps `handlers` (asked in order) in the limit: a guarded request past the limit is
 * answered 429 without reaching them; otherwise their answer goes out with the
 * RateLimit headers added.
 */
export function withRateLimit(options: RateLimitOptions, handlers: readonly Handler[]): Handler {
  const { perMinute, guards, store = new WindowCounts() } = options;
  const inner: Handler = (req) => firstAnswer(handlers, req);
  if (perMinute === 0) return inner;
  const limit = createLimit(perMinute, store, options.scope ?? '');

  const answer = (req: AppRequest, verdict: LimitAnswer | undefined): ReturnType<Handler> => {
    if (!verdict) return inner(req);
    if (verdict.refused) return jsonError(429, 'rate_limited', `Too many requests: ${atMost(verdict)}. Try again in ${verdict.reset} s.`, verdict.headers);
    // The handler's own headers win where both name one (the expose list).
    return mapAnswer(inner(req), (found) => ({ ...found, headers: { ...verdict.headers, ...found.headers } }));
  };

  return (req) => {
    if (!guards(req)) return inner(req);
    const verdict = limit(req);
    return verdict instanceof Promise ? verdict.then((v) => answer(req, v)) : answer(req, verdict);
  };
}

/** What the page limit says of one page request: the headers to add to the page, or the answer to send instead. */
export interface PageVerdict {
  headers: Record<string, string>;
  /** A short text for whoever reads it in a browser, with the time to wait; undefined when the page may be sent. */
  refusal: AppResponse | undefined;
}

/** The page limit: a verdict per request, a promise only when the store is in another process. */
export type PageLimit = (req: AppRequest) => PageVerdict | undefined | Promise<PageVerdict | undefined>;

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
  if (perMinute === 0) return undefined;
  const limit = createLimit(perMinute, store, PAGE_SCOPE);
  return (req) => {
    const answer = limit(req);
    return answer instanceof Promise ? answer.then(pageVerdict) : pageVerdict(answer);
  };
}
