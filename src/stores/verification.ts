/**
 * `$verification`: the verification card's state. View or search mode; the query and
 * what the city search (GET /api/cities) answered for it, requested 250 ms after the
 * last keystroke, with older answers dropped so fast typing never shows results of an
 * earlier query; the option the arrow keys point at; the toast after choosing (3 s).
 * When the search fails, its one fallback candidate is offered as unverified.
 */
import { map } from 'nanostores';
import { CITY_LIMIT_DEFAULT, CITY_QUERY_MIN, fallbackCandidate, queryLength, type CityCandidate } from '../lib/city-search.ts';
import { isCitySearchResponse } from '../lib/answer-guards.ts';
import { correctionFrom } from '../lib/verification.ts';
import { fetchJson, latestWins, type Ticket } from './api-fetch.ts';
import { saveCorrection, undoCorrection } from './correction.ts';
import { $lookup } from './lookup.ts';

export type SearchStatus = 'empty' | 'short' | 'searching' | 'done';

export interface VerificationState {
  mode: 'view' | 'search';
  query: string;
  status: SearchStatus;
  results: CityCandidate[];
  /** The results are the fallback candidate: the search failed. */
  unverified: boolean;
  /** Index of the option the arrow keys point at; -1 for none. */
  active: number;
  /** The place chosen last, while its toast shows. */
  toast: CityCandidate | null;
  /** Set after an undo, for the screen-reader announcement. */
  undone: boolean;
}

export const CITIES_URL = '/api/cities';
export const DEBOUNCE_MS = 250;
/** The city-correction toast lasts 3 s. */
export const TOAST_MS = 3000;

const CLEARED = { query: '', status: 'empty', results: [], unverified: false, active: -1 } as const;
export const $verification = map<VerificationState>({ mode: 'view', ...CLEARED, results: [], toast: null, undone: false });

const searches = latestWins();
/** The ticket of the search a keystroke may start; cancel() makes it stale. */
let current: Ticket = searches.next();
let timer: ReturnType<typeof setTimeout> | undefined;
let toastTimer: ReturnType<typeof setTimeout> | undefined;
let inFlight: AbortController | undefined;

/** Forgets any search under way: its answer will be dropped. */
function cancel(): void {
  current = searches.next();
  clearTimeout(timer);
  inFlight?.abort();
  inFlight = undefined;
}

/** 'Correct Location' and the common-issue buttons. */
export function openSearch(): void {
  cancel();
  $verification.set({ ...$verification.get(), mode: 'search', ...CLEARED, results: [], undone: false });
}

/** Back, Escape, or after choosing: view mode, query and results cleared. */
export function closeSearch(): void {
  cancel();
  $verification.set({ ...$verification.get(), mode: 'view', ...CLEARED, results: [] });
}

async function search(query: string, isCurrent: Ticket): Promise<void> {
  inFlight = new AbortController();
  const url = `${CITIES_URL}?${new URLSearchParams({ q: query.trim(), limit: String(CITY_LIMIT_DEFAULT) })}`;
  const answer = await fetchJson(url, isCitySearchResponse, { signal: inFlight.signal });
  if (!isCurrent()) return; // a newer query (or leaving the search) made this answer stale
  inFlight = undefined;
  const unverified = !answer.ok;
  const results = answer.ok ? answer.data.results : [fallbackCandidate(query, answer.failure.kind === 'network')];
  $verification.set({ ...$verification.get(), status: 'done', results, unverified, active: -1 });
}

/** Each keystroke: under 3 characters shows the hint; otherwise searches once typing pauses. */
export function setQuery(query: string): void {
  cancel();
  const length = queryLength(query);
  const status: SearchStatus = length === 0 ? 'empty' : length < CITY_QUERY_MIN ? 'short' : 'searching';
  $verification.set({ ...$verification.get(), query, status, results: [], unverified: false, active: -1 });
  if (status !== 'searching') return;
  const ticket = current;
  timer = setTimeout(() => void search(query, ticket), DEBOUNCE_MS);
}

/** Arrow keys: moves the active option, stopping at either end. */
export function moveActive(delta: number): void {
  const { results, active } = $verification.get();
  if (results.length === 0) return;
  $verification.setKey('active', Math.max(0, Math.min(results.length - 1, active + delta)));
}

/** Enter or a click: takes the option as the visitor's place, shows the toast for 3 s and returns to view mode. */
export function choose(index: number): void {
  const { results, unverified } = $verification.get();
  const candidate = results[index];
  const ip = $lookup.get().data?.data.ip;
  if (!candidate || !ip) return;
  saveCorrection(correctionFrom(ip, candidate, !unverified));
  closeSearch();
  clearTimeout(toastTimer);
  $verification.set({ ...$verification.get(), toast: candidate, undone: false });
  toastTimer = setTimeout(() => $verification.setKey('toast', null), TOAST_MS);
}

/** Removes the correction. */
export function undo(): void {
  undoCorrection();
  clearTimeout(toastTimer);
  $verification.set({ ...$verification.get(), toast: null, undone: true });
}
