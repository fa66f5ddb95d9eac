/**
 * Worker thread that owns the SQLite connection (sqlite-store.ts starts it): node:sqlite
 * is synchronous, so writes, lock waits and dashboard queries happen here, never on the
 * thread that answers requests. One message in, one answer out, in order.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SqliteAnalytics } from './sqlite-db.ts';
import { errorMessage } from '../../lib/error-message.ts';

export type SqliteRequest = { id: number; op: 'write' | 'figures' | 'latest' | 'check' | 'purge' | 'close'; args: unknown[] };
export type SqliteAnswer = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };

const port = parentPort!;
let db: SqliteAnalytics;
try {
  db = new SqliteAnalytics((workerData as { file: string }).file);
  port.postMessage({ id: 0, ok: true, value: null } satisfies SqliteAnswer);
} catch (error) {
  port.postMessage({ id: 0, ok: false, error: errorMessage(error) } satisfies SqliteAnswer);
  process.exit(1);
}

port.on('message', async ({ id, op, args }: SqliteRequest) => {
  try {
    const ops: Record<SqliteRequest['op'], () => unknown> = {
      write: () => db.write(args[0] as Parameters<SqliteAnalytics['write']>[0]),
      figures: () => db.figures(args[0] as Parameters<SqliteAnalytics['figures']>[0]),
      latest: () => db.latest(args[0] as Parameters<SqliteAnalytics['latest']>[0], args[1] as number),
      check: () => db.checkCorrection(args[0] as Parameters<SqliteAnalytics['checkCorrection']>[0]),
      purge: () => db.purge(args[0] as number),
      close: () => db.close(),
    };
    port.postMessage({ id, ok: true, value: await ops[op]() } satisfies SqliteAnswer);
  } catch (error) {
    port.postMessage({ id, ok: false, error: errorMessage(error) } satisfies SqliteAnswer);
  }
});
