/**
 * `$portCheck`: the "Is my port open?" tool. One check at a time; an answer that arrives
 * after a newer check started is dropped, so the result always matches the last port asked.
 */
import { atom } from 'nanostores';
import type { PortCheck } from '../lib/record.ts';
import { isPortCheck } from '../lib/answer-guards.ts';
import { fetchJson, latestRequest, type ApiFailure } from './api-fetch.ts';

export type PortCheckState =
  | { status: 'idle' }
  | { status: 'checking'; port: string }
  | { status: 'done'; result: PortCheck }
  | { status: 'failed'; port: string; failure: ApiFailure };

export const $portCheck = atom<PortCheckState>({ status: 'idle' });

const run = latestRequest($portCheck);

/** Asks GET /port/{n} whether `port` of the visitor's own address is reachable; the server judges the port. */
export function checkPort(port: string): Promise<void> {
  const asked = port.trim();
  return run({ status: 'checking', port: asked }, () => fetchJson(`/port/${encodeURIComponent(asked)}`, isPortCheck, { cache: 'no-store' }),
    (answer) => (answer.ok ? { status: 'done', result: answer.data } : { status: 'failed', port: asked, failure: answer.failure }));
}
