/**
 * `$lookup`: the visitor's lookup record and where its loading stands. The page seeds
 * it from the server's record (no request on first view); prerendered pages load it
 * with GET /api/lookup; refresh, GPS and the WebRTC check post their context with
 * POST /api/lookup. Every response is validated and its round trip measured.
 */
import { atom, map } from 'nanostores';
import type { LookupRequest, LookupResponse } from '../lib/record.ts';
import { isLookupResponse } from '../lib/answer-guards.ts';
import { fetchJson, latestWins, type ApiFailure } from './api-fetch.ts';
import { roundTripMs } from '../lib/round-trip.ts';
import { errorMessage } from '../lib/error-message.ts';

export type LookupStatus = 'idle' | 'loading' | 'loaded' | 'error';

export interface LookupState {
  status: LookupStatus;
  /** The last good record; kept while a refresh is in flight or failed. */
  data: LookupResponse | null;
  /** Why the last request failed (for logs; the screen shows the content's message). */
  error: string | null;
}

export const LOOKUP_URL = '/api/lookup';

export const $lookup = atom<LookupState>({ status: 'idle', data: null, error: null });

/** What POST /api/lookup carries besides the browser's own facts: set by the GPS and WebRTC stores. */
export const $lookupContext = map<Pick<LookupRequest, 'browserLocation' | 'webrtc'>>({});

/** Takes the server-rendered record as the current one, unless something newer is there. */
export function seedLookup(data: LookupResponse): void {
  if ($lookup.get().status === 'idle') $lookup.set({ status: 'loaded', data, error: null });
}

const runs = latestWins();
let foreground: Promise<void> | null = null;

/** Times the finished request from its Resource Timing entry (the newest one for the URL). */
async function measureRoundTrip(url: string): Promise<number | null> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const entries = performance.getEntriesByName(url, 'resource') as PerformanceResourceTiming[];
    const entry = entries.at(-1);
    if (entry && entry.responseEnd > 0) return roundTripMs(entry);
    // The entry is queued after the body is read; give the browser a tick to add it.
    await new Promise((r) => setTimeout(r, 20));
  }
  return null;
}

/** Words a failed request for the state's `error` (logs only; the screen words it from content). */
function describeFailure(failure: ApiFailure): string {
  if (failure.kind === 'api') return `${failure.code}: ${failure.message}`;
  return failure.kind === 'network' ? 'The lookup request did not reach the server.' : 'The lookup answer did not have the expected shape.';
}

async function request(init: RequestInit = {}): Promise<LookupResponse> {
  const url = new URL(LOOKUP_URL, location.href).href;
  const result = await fetchJson(url, isLookupResponse, { ...init, cache: 'no-store' });
  if (!result.ok) throw new Error(describeFailure(result.failure));
  const rtt = await measureRoundTrip(url);
  return { ...result.data, data: { ...result.data.data, rtt_ms: rtt ?? result.data.data.rtt_ms } };
}

/** The browser's own facts that POST /api/lookup carries. */
function clientInfo(): NonNullable<LookupRequest['clientInfo']> {
  return { timezone: Intl.DateTimeFormat().resolvedOptions().timeZone, language: navigator.language, userAgent: navigator.userAgent };
}

/**
 * Runs one lookup. A foreground run shows the loading state and, on failure, the error
 * screen; a background run (the WebRTC check) only replaces the record when it succeeds.
 * A newer run makes older answers stale.
 */
async function run(method: 'GET' | 'POST', background: boolean): Promise<void> {
  const current = runs.next();
  if (!background) $lookup.set({ ...$lookup.get(), status: 'loading', error: null });
  try {
    // A quiet update repeats a lookup the server already counted: it says so (analytics skip it).
    const headers: Record<string, string> = background ? { 'content-type': 'application/json', 'x-lookup-update': '1' } : { 'content-type': 'application/json' };
    const init: RequestInit | undefined = method === 'POST'
      ? { method, headers, body: JSON.stringify({ clientInfo: clientInfo(), ...$lookupContext.get() } satisfies LookupRequest) }
      : undefined;
    const data = await request(init);
    if (current()) $lookup.set({ status: 'loaded', data, error: null });
  } catch (error) {
    // A quiet update that fails changes nothing: the WebRTC probe's failure is silent.
    if (!current() || background) return;
    $lookup.set({ ...$lookup.get(), status: 'error', error: errorMessage(error) });
  }
}

function runForeground(method: 'GET' | 'POST'): Promise<void> {
  const current = run(method, false).finally(() => { if (foreground === current) foreground = null; });
  foreground = current;
  return current;
}

/** First load of a page without a server record (prerendered pages): GET, once. */
export function ensureLookup(): void {
  if ($lookup.get().status === 'idle') void runForeground('GET');
}

/** Refresh Data, Try Again and the GPS update: a new lookup with everything the browser knows. */
export function refreshLookup(): Promise<void> {
  return runForeground('POST');
}

/** A quiet update after the WebRTC check: no loading state, no error screen; waits for a visible run. */
export async function updateLookupQuietly(): Promise<void> {
  if (foreground) await foreground;
  return run('POST', true);
}
