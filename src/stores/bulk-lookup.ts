/**
 * `$bulkText`, `$bulkInput`, `$bulkLookup`: the bulk lookup tool. The pasted text is parsed
 * as it is typed (so the page can say "too many" before sending); a submit posts the
 * parsed list, and the CSV comes from the API's own CSV export of the same list.
 */
import { atom, computed } from 'nanostores';
import { parseBulkInput, type BulkResponse } from '../lib/bulk.ts';
import { isBulkResponse } from '../lib/answer-guards.ts';
import { fetchJson, fetchText, latestWins, type ApiFailure, type ApiResult } from './api-fetch.ts';

export type BulkLookupState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'done'; ips: string[]; response: BulkResponse }
  | { status: 'failed'; failure: ApiFailure };

export const $bulkText = atom('');
export const $bulkInput = computed($bulkText, parseBulkInput);
export const $bulkLookup = atom<BulkLookupState>({ status: 'idle' });

const requests = latestWins();

function post(ips: string[], format?: 'csv'): RequestInit & { url: string } {
  return {
    url: format ? `/api/lookup/bulk?format=${format}` : '/api/lookup/bulk',
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ips }),
  };
}

/** Sends the parsed list; does nothing when it is empty or over the limit (the page says why). */
export async function runBulkLookup(): Promise<void> {
  const { ips, tooMany } = $bulkInput.get();
  if (ips.length === 0 || tooMany) return;
  const current = requests.next();
  $bulkLookup.set({ status: 'loading' });
  const { url, ...init } = post(ips);
  const answer = await fetchJson(url, isBulkResponse, init);
  if (!current()) return;
  $bulkLookup.set(answer.ok ? { status: 'done', ips, response: answer.data } : { status: 'failed', failure: answer.failure });
}

/** The CSV of the last finished lookup's addresses, from POST /api/lookup/bulk?format=csv. */
export async function fetchBulkCsv(): Promise<ApiResult<string>> {
  const state = $bulkLookup.get();
  if (state.status !== 'done') return { ok: false, failure: { kind: 'invalid' } };
  const { url, ...init } = post(state.ips, 'csv');
  return fetchText(url, { ...init, headers: { ...init.headers, accept: 'text/csv' } });
}
