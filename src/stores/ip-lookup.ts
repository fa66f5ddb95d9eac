/**
 * `$ipLookup`: the "look up any IP" tool. One lookup at a time; an answer that arrives
 * after a newer request started is dropped, so the card always matches the last submit.
 */
import { atom } from 'nanostores';
import type { LookupResponse } from '../lib/record.ts';
import { isLookupResponse } from '../lib/answer-guards.ts';
import { fetchJson, latestWins, type ApiFailure } from './api-fetch.ts';

export type IpLookupState =
  | { status: 'idle' }
  | { status: 'loading'; query: string }
  | { status: 'done'; query: string; result: LookupResponse }
  | { status: 'failed'; query: string; failure: ApiFailure };

export const $ipLookup = atom<IpLookupState>({ status: 'idle' });

const requests = latestWins();

/** Looks up `query` through GET /api/lookup/{ip}; the API judges whether it is an address. */
export async function lookupIp(query: string): Promise<void> {
  const current = requests.next();
  const ip = query.trim();
  $ipLookup.set({ status: 'loading', query: ip });
  const answer = await fetchJson(`/api/lookup/${encodeURIComponent(ip)}`, isLookupResponse);
  if (!current()) return;
  $ipLookup.set(answer.ok
    ? { status: 'done', query: ip, result: answer.data }
    : { status: 'failed', query: ip, failure: answer.failure });
}
