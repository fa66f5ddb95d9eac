/**
 * Per-client rate limit, wrapped around the handlers it guards: fixed one-minute windows
 * keyed by address (IPv6 by /64, as one host usually owns a /64), counted by a store
 * (rate-limit-store.ts: this process's memory by default; rate-limit-shared.ts: across
 * workers or machines). Private and loopback clients (our own proxies and health checks)
 * are exempt. Which requests count is the caller's to say (routes.ts). Answers carry
 * RateLimit-Limit/-Remaining/-Reset; refusals are 429 with Retry-After. A store that
 * cannot answer lets requests through without the headers (fail open).
 */
import { reservedKind, type ParsedIp } from '../lib/ip-address.ts';
import { EXPOSE_HEADERS, firstAnswer, jsonError, mapAnswer, type AppRequest, type Handler } from './http.ts';
import { WindowCounts, type RateLimitStore, type Verdict } from './rate-limit-store.ts';

/** The client's bucket: the address for IPv4, its /64 for IPv6; none for reserved addresses. */
function clientKey(text: string, address: ParsedIp | undefined): string | undefined {
  if (!address || reservedKind(address)) return undefined;
  return address.version === 4 ? text : (address.value >> 64n).toString(16);
}

export interface RateLimitOptions {
  /** Requests a minute per client; 0 turns the limit off. */
  perMinute: number;
  /** Whether a request counts against the limit. */
  guards: (req: AppRequest) => boolean;
  /** Where the counts live (default: this process's memory). */
  store?: RateLimitStore;
}

/**
 * Wraps `handlers` (asked in order) in the limit: a guarded request past the limit is
 * answered 429 without reaching them; otherwise their answer goes out with the
 * RateLimit headers added.
 */
export function withRateLimit(options: RateLimitOptions, handlers: readonly Handler[]): Handler {
  const { perMinute, guards, store = new WindowCounts({ perMinute }) } = options;
  const inner: Handler = (req) => firstAnswer(handlers, req);
  if (perMinute === 0) return inner;

  const answer = (req: AppRequest, verdict: Verdict | undefined): ReturnType<Handler> => {
    if (!verdict) return inner(req);
    const reset = Math.max(1, Math.ceil(verdict.resetMs / 1000));
    const headers = {
      ...EXPOSE_HEADERS,
      'ratelimit-limit': String(perMinute),
      'ratelimit-remaining': String(Math.max(0, perMinute - verdict.used)),
      'ratelimit-reset': String(reset),
    };
    if (verdict.used > perMinute) {
      return jsonError(429, 'rate_limited', `Too many requests: at most ${perMinute} a minute. Try again in ${reset} s.`,
        { ...headers, 'retry-after': String(reset) });
    }
    // The handler's own headers win where both name one (the expose list).
    return mapAnswer(inner(req), (found) => ({ ...found, headers: { ...headers, ...found.headers } }));
  };

  return (req) => {
    if (!guards(req)) return inner(req);
    const key = clientKey(req.clientIp, req.clientAddress);
    if (key === undefined) return inner(req);
    const verdict = store.hit(key);
    return verdict instanceof Promise ? verdict.then((v) => answer(req, v)) : answer(req, verdict);
  };
}
