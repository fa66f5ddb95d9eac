/**
 * The default analytics store: SQLite in `DATA_DIR/analytics.sqlite`, created on first
 * start with no setup. The connection lives in a worker thread (sqlite-worker.ts); this
 * side only posts messages, so a slow disk or a second process holding the write lock
 * never holds up a lookup.
 */
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { PeriodWindow } from '../../lib/analytics.ts';
import { ANALYTICS_FILE } from '../data/layout.ts';
import type { SqliteAnswer, SqliteRequest } from './sqlite-worker.ts';
import type { AnalyticsStore, Batch, CorrectionCheck, CorrectionRow, PeriodFigures, StoredLookup } from './types.ts';

/** Opens (creating if needed) the database in `dataDir`; rejects when it cannot. */
export function openSqliteStore(dataDir: string): Promise<AnalyticsStore> {
  const file = path.join(dataDir, ANALYTICS_FILE);
  const worker = new Worker(new URL('./sqlite-worker.ts', import.meta.url), { workerData: { file } });
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let next = 1;
  let failure: Error | undefined;

  // The thread keeps the process alive only while an answer is awaited (a flush at exit).
  worker.unref();
  worker.on('message', (answer: SqliteAnswer) => {
    const call = waiting.get(answer.id);
    if (!call) return;
    waiting.delete(answer.id);
    if (waiting.size === 0) worker.unref();
    if (answer.ok) call.resolve(answer.value);
    else call.reject(new Error(answer.error));
  });
  const fail = (error: Error) => {
    failure = error;
    for (const call of waiting.values()) call.reject(error);
    waiting.clear();
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`the SQLite thread exited (${code})`)));

  const call = <T>(op: SqliteRequest['op'], ...args: unknown[]): Promise<T> => {
    if (failure) return Promise.reject(failure);
    const id = next++;
    if (waiting.size === 0) worker.ref();
    return new Promise<T>((resolve, reject) => {
      waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      worker.postMessage({ id, op, args } satisfies SqliteRequest);
    });
  };

  const store: AnalyticsStore = {
    kind: 'sqlite',
    write: (batch: Batch) => call<void>('write', batch),
    figures: (window: PeriodWindow) => call<PeriodFigures>('figures', window),
    latest: (window: PeriodWindow, limit: number) => call<StoredLookup[]>('latest', window, limit),
    checkCorrection: (row: CorrectionRow) => call<CorrectionCheck>('check', row),
    purge: (before: number) => call<number>('purge', before),
    close: async () => {
      if (!failure) await call('close').catch(() => undefined);
      await worker.terminate();
    },
  };
  // The thread answers id 0 once the database is open and migrated.
  worker.ref();
  return new Promise((resolve, reject) => {
    waiting.set(0, { resolve: () => resolve(store), reject: (error) => { void worker.terminate(); reject(error); } });
  });
}
