/**
 * Every worker's state on /healthz, whichever worker answers: each worker sends the cluster
 * primary its first word and its parts' states every REPORT_MS, and the primary sends every
 * worker the whole table each time one arrives (over the workers' IPC channel, as
 * dns-leak/notes-shared.ts does). A worker then lists each one (`worker 2: ok, 1 s ago`), and
 * /healthz says `degraded` when any worker is, or has not reported for STALE_MS (its event
 * loop stuck). A worker that exits leaves the table.
 */
import cluster, { type Worker } from 'node:cluster';
import type { Health } from './health.ts';

const CHANNEL = 'whatismyip:health';
/** How often a worker reports, ms. */
export const REPORT_MS = 2_000;
/** Past this without a report, a worker counts as degraded, ms. */
export const STALE_MS = 10_000;

/** One worker's last report. */
export interface WorkerReport { id: number; status: string; parts: Record<string, string>; at: number }

interface Report { channel: typeof CHANNEL; status: string; parts: Record<string, string> }
interface Table { channel: typeof CHANNEL; workers: WorkerReport[] }

const isReport = (m: unknown): m is Report => (m as Report | undefined)?.channel === CHANNEL && typeof (m as Report).status === 'string';
const isTable = (m: unknown): m is Table => (m as Table | undefined)?.channel === CHANNEL && Array.isArray((m as Table).workers);

/** In the primary: keeps each worker's last report and sends the table to every worker. */
export function serveClusterHealth(now: () => number = Date.now): void {
  const table = new Map<number, WorkerReport>();
  const broadcast = () => {
    const message: Table = { channel: CHANNEL, workers: [...table.values()] };
    for (const worker of Object.values(cluster.workers ?? {})) if (worker?.isConnected()) worker.send(message);
  };
  cluster.on('message', (worker: Worker, message: unknown) => {
    if (!isReport(message)) return;
    table.set(worker.id, { id: worker.id, status: message.status, parts: message.parts, at: now() });
    broadcast();
  });
  cluster.on('exit', (worker) => { table.delete(worker.id); broadcast(); });
}

/** The lines of a table and whether it degrades the whole, as worker `self` sees it at `now`. */
export function describeWorkers(workers: readonly WorkerReport[], self: number, now: number): { degraded: boolean; lines: string[] } {
  let degraded = false;
  const lines = [...workers].sort((a, b) => a.id - b.id).map((w) => {
    const age = Math.max(0, Math.round((now - w.at) / 1000));
    const stale = now - w.at > STALE_MS;
    const down = Object.entries(w.parts).filter(([, state]) => state !== 'ok' && state !== 'off').map(([name]) => name);
    if (stale || w.status !== 'ok') degraded = true;
    const state = stale ? `degraded, no report for ${age} s` : `${w.status}${down.length ? ` (${down.join(', ')})` : ''}, ${age} s ago`;
    return `worker ${w.id}${w.id === self ? ' (this one)' : ''}: ${state}`;
  });
  return { degraded, lines };
}

/** In a worker: reports this worker's health to the primary, and shows every worker's on /healthz. */
export function joinClusterHealth(health: Health, now: () => number = Date.now): void {
  if (!cluster.isWorker || !process.send) return;
  const self = cluster.worker!.id;
  let workers: WorkerReport[] = [];
  process.on('message', (message: unknown) => { if (isTable(message)) workers = message.workers; });
  const report = () => {
    const { status, parts } = health.summary();
    process.send?.({ channel: CHANNEL, status, parts } satisfies Report);
  };
  report();
  setInterval(report, REPORT_MS).unref();
  health.cluster(() => describeWorkers(workers, self, now()));
}
