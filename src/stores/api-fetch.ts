/**
 * Requests to our own API from the browser, with every answer validated: a typed value,
 * or a failure the island can word (the API's own message, the network, a malformed reply).
 * The checks are src/lib/answer-guards.ts's, which leave zod out of the page.
 */
import { isApiError } from '../lib/answer-guards.ts';
import type { Guard } from '../lib/guard.ts';

/** Why a request did not give the expected data. */
export type ApiFailure =
  | { kind: 'api'; status: number; code: string; message: string }
  | { kind: 'network' }
  | { kind: 'invalid' };

export type ApiResult<T> = { ok: true; data: T } | { ok: false; failure: ApiFailure };

const NETWORK: ApiResult<never> = { ok: false, failure: { kind: 'network' } };
const INVALID: ApiResult<never> = { ok: false, failure: { kind: 'invalid' } };

async function failureOf(res: Response): Promise<ApiResult<never>> {
  const body: unknown = await res.json().catch(() => null);
  if (!isApiError(body)) return INVALID;
  const { code, message } = body.error;
  return { ok: false, failure: { kind: 'api', status: res.status, code, message } };
}

/** Fetches JSON and checks it with `guard`; a 4xx/5xx body is read as the API's error shape. */
export async function fetchJson<T>(url: string, guard: Guard<T>, init: RequestInit = {}): Promise<ApiResult<T>> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, headers: { accept: 'application/json', ...init.headers } });
  } catch {
    return NETWORK;
  }
  if (!res.ok) return failureOf(res);
  const body: unknown = await res.json().catch(() => undefined);
  return guard(body) ? { ok: true, data: body } : INVALID;
}

/** Fetches a text body (CSV, plain-text endpoints); errors are read as the API's error shape. */
export async function fetchText(url: string, init: RequestInit = {}): Promise<ApiResult<string>> {
  let res: Response;
  try {
    res = await fetch(url, init);
    if (res.ok) return { ok: true, data: await res.text() };
  } catch {
    return NETWORK;
  }
  return failureOf(res);
}

/** Tells whether the request it was handed for is still the newest (see latestWins). */
export type Ticket = () => boolean;

/**
 * "Latest request wins" for a store: each `next()` hands out a ticket and makes every
 * earlier one stale, so an answer that arrives after a newer request began (or after the
 * store moved on) is dropped rather than shown over the newer one.
 */
export function latestWins(): { next(): Ticket } {
  let latest = 0;
  return {
    next() {
      const id = ++latest;
      return () => id === latest;
    },
  };
}
