/**
 * `$portCheck`: the "Is my port open?" tool. One check at a time; an answer that arrives
 * after a newer check started is dropped, so the result always matches the last port asked.
 */
import { atom } from 'nanostores';
import type { PortCheck } from '../lib/record.ts';
import { isPortCheck } from '../lib/answer-guards.ts';
import { fetchJson, latestWins, type ApiFailure } from './api-fetch.ts';

export type PortCheckState =
  | { status: 'idle' }
  | { status: 'checking'; port: string }
  | { status: 'done'; result: PortCheck }
  | { status: 'failed'; port: string; failure: ApiFailure };

export const $portCheck = atom<PortCheckState>({ status: 'idle' });

const checks = latestWins();

/** Asks GET /port/{n} whether `port` of the visitor's own address is reachable; the server judges the port. */
export async function checkPort(port: string): Promise<void> {
  const current = checks.next();
  const asked = port.trim();
  $portCheck.set({ status: 'checking', port: asked });
  const answer = await fetchJson(`/port/${encodeURIComponent(asked)}`, isPortCheck, { cache: 'no-store' });
  if (!current()) return;
  $portCheck.set(answer.ok ? { status: 'done', result: answer.data } : { status: 'failed', port: asked, failure: answer.failure });
}
