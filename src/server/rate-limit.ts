/**
 * Per-client rate limit for the API and the command-line endpoints: a fixed one-minute
 * window keyed by address (IPv6 by /64, as one host usually owns a /64), held in memory
 * only. Private and loopback clients (our own proxies and health checks) are exempt.
 * Answers carry RateLimit-Limit/-Remaining/-Reset; refusals are 429 with Retry-After.
 */
import { reservedKind, type ParsedIp } from '../lib/ip-address.ts';
import { jsonError, type Handler } from './app.ts';
import { CORS_HEADERS, EXPOSE_HEADERS } from './api.ts';
import { TEXT_PATHS } from './text-endpoints.ts';

const WINDOW_MS = 60_000;
/** Past this many distinct clients in one window the table is cleared (memory bound). */
const MAX_KEYS = 200_000;

/** The client's bucket: the address for IPv4, its /64 for IPv6; none for reserved addresses. */
function clientKey(text: string, address: ParsedIp | undefined): string | undefined {
  if (!address || reservedKind(address)) return undefined;
  return address.version === 4 ? text : (address.value >> 64n).toString(16);
}

/** Creates the limiter; `perMinute` 0 turns it off. */
export function createRateLimit(perMinute: number, now: () => number = Date.now): Handler {
  const counts = new Map<string, number>();
  let windowStart = now();
  return (req) => {
    if (perMinute === 0) return undefined;
    if (!req.path.startsWith('/api/') && !TEXT_PATHS.has(req.path)) return undefined;
    const key = clientKey(req.clientIp, req.clientAddress);
    if (key === undefined) return undefined;
    const t = now();
    if (t - windowStart >= WINDOW_MS || counts.size > MAX_KEYS) {
      counts.clear();
      windowStart = t;
    }
    const used = (counts.get(key) ?? 0) + 1;
    counts.set(key, used);
    const reset = Math.max(1, Math.ceil((windowStart + WINDOW_MS - t) / 1000));
    const headers = {
      ...EXPOSE_HEADERS,
      'ratelimit-limit': String(perMinute),
      'ratelimit-remaining': String(Math.max(0, perMinute - used)),
      'ratelimit-reset': String(reset),
    };
    if (used > perMinute) {
      return jsonError(429, 'rate_limited', `Too many requests: at most ${perMinute} a minute. Try again in ${reset} s.`,
        { ...CORS_HEADERS, ...headers, 'retry-after': String(reset) });
    }
    req.responseHeaders = req.responseHeaders ? Object.assign(req.responseHeaders, headers) : headers;
    return undefined;
  };
}
