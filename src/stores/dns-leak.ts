/**
 * `$dnsLeak`: the DNS leak test. POST /api/dns-leak hands out a token and a few names under
 * the zone our DNS responder answers for; the browser loads each name, which makes the
 * visitor's resolver (or its upstream) ask our responder, since no cache can know a name
 * never used before; then GET /api/dns-leak/{token} is polled until every name was seen or
 * the window closes, and shows which resolvers asked and the server's verdict.
 *
 * A name is loaded with `fetch('https://<name>/', { mode: 'no-cors' })`: the browser must
 * resolve it to connect, and the request carries nothing of the visitor's (no cookies, no
 * referrer; the page's CSP allows `connect-src https:`). Whether the connection then
 * succeeds does not matter (the answer is opaque and never read): the query has been made.
 * An image would resolve the name too, but sends the page's origin as its referrer and
 * cannot be given a deadline.
 */
import { atom } from 'nanostores';
import { DNS_LEAK_TOKEN, type DnsLeakResult } from '../lib/dns-leak-record.ts';
import { isDnsLeakResult, isDnsLeakStart } from '../lib/answer-guards.ts';
import type { Guard } from '../lib/guard.ts';
import { fetchJson, latestWins, type ApiFailure, type ApiResult } from './api-fetch.ts';

export const DNS_LEAK_URL = '/api/dns-leak';
/** How long the page waits for the names to be seen, from the moment it starts loading them. */
export const DNS_LEAK_WINDOW_MS = 5000;
/** Pause between two polls of the token's result. */
export const DNS_LEAK_POLL_MS = 500;
/** How long one API request, or one name's load, may take. */
export const DNS_LEAK_REQUEST_MS = 4000;

/** Why the test could not run: the API's own error, the network, a malformed answer, or no answer in time. */
export type DnsLeakFailure = ApiFailure | { kind: 'timeout' };

export type DnsLeakState =
  | { status: 'idle' }
  /** Names loading, the result polled: `result` is null until the first poll answers. */
  | { status: 'running'; result: DnsLeakResult | null }
  /** Every name seen, or the window closed: the last result, its verdict included. */
  | { status: 'done'; result: DnsLeakResult }
  | { status: 'failed'; failure: DnsLeakFailure };

export const $dnsLeak = atom<DnsLeakState>({ status: 'idle' });

/** Makes the browser resolve one name; settles when the load ends, whatever its outcome. */
export type NameLoader = (name: string) => Promise<unknown>;

/** An abort signal that fires after `ms` (through setTimeout, so a test's fake clock drives it too). */
function deadline(ms: number): { signal: AbortSignal; clear(): void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}

const loadName: NameLoader = async (name) => {
  const { signal, clear } = deadline(DNS_LEAK_REQUEST_MS);
  await fetch(`https://${name}/`, { mode: 'no-cors', credentials: 'omit', referrerPolicy: 'no-referrer', cache: 'no-store', signal })
    .catch(() => undefined)
    .finally(clear);
};

/** fetchJson with a deadline: a request that does not answer in time is a `timeout`, not a network failure. */
async function request<T>(url: string, guard: Guard<T>, init: RequestInit = {}): Promise<ApiResult<T> | { ok: false; failure: { kind: 'timeout' } }> {
  const { signal, clear } = deadline(DNS_LEAK_REQUEST_MS);
  const answer = await fetchJson(url, guard, { ...init, signal });
  clear();
  return !answer.ok && signal.aborted ? { ok: false, failure: { kind: 'timeout' } } : answer;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const runs = latestWins();

/**
 * Runs the test (36 names with `extended`). A run started while another is under way
 * replaces it: the older run's answers are dropped. `load` makes the browser resolve a name
 * (tests pass their own).
 */
export async function startDnsLeakTest({ extended = false, load = loadName }: { extended?: boolean; load?: NameLoader } = {}): Promise<void> {
  const isCurrent = runs.next();
  $dnsLeak.set({ status: 'running', result: null });
  const started = await request(`${DNS_LEAK_URL}${extended ? '?extended=1' : ''}`, isDnsLeakStart, { method: 'POST' });
  if (!isCurrent()) return;
  if (!started.ok) return $dnsLeak.set({ status: 'failed', failure: started.failure });
  const { token, names } = started.data;
  // The token goes into the poll's path: anything but 32 hex digits is not an answer of ours.
  if (!DNS_LEAK_TOKEN.test(token)) return $dnsLeak.set({ status: 'failed', failure: { kind: 'invalid' } });
  const deadline = Date.now() + DNS_LEAK_WINDOW_MS;
  for (const name of names) void load(name);
  for (;;) {
    await wait(DNS_LEAK_POLL_MS);
    if (!isCurrent()) return;
    const polled = await request(`${DNS_LEAK_URL}/${token}`, isDnsLeakResult);
    if (!isCurrent()) return;
    if (!polled.ok) return $dnsLeak.set({ status: 'failed', failure: polled.failure });
    const result = polled.data;
    const finished = result.names_seen >= result.names_total || Date.now() >= deadline;
    $dnsLeak.set(finished ? { status: 'done', result } : { status: 'running', result });
    if (finished) return;
  }
}
