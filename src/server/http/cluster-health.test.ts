import { describe, expect, it } from 'vitest';
import { describeWorkers, STALE_MS, type WorkerReport } from './cluster-health.ts';
import { Health } from './health.ts';

const NOW = 1_800_000_000_000;
const report = (id: number, status: string, agoMs: number, parts: Record<string, string> = { analytics: status === 'ok' ? 'ok' : 'down' }): WorkerReport => ({ id, status, parts, at: NOW - agoMs });

describe('describeWorkers: every worker\'s line, as one worker shows them', () => {
  it.each<[string, WorkerReport[], boolean, string[]]>([
    ['two ok, in order, this one marked', [report(2, 'ok', 1500), report(1, 'ok', 400)], false, ['worker 1 (this one): ok, 0 s ago', 'worker 2: ok, 2 s ago']],
    ['one degraded, naming its parts that are down', [report(1, 'ok', 0), report(2, 'degraded', 1000, { analytics: 'down', databases: 'degraded', off: 'off' })], true, ['worker 1 (this one): ok, 0 s ago', 'worker 2: degraded (analytics, databases), 1 s ago']],
    ['one silent past the limit', [report(1, 'ok', 0), report(2, 'ok', STALE_MS + 1)], true, ['worker 1 (this one): ok, 0 s ago', 'worker 2: degraded, no report for 10 s']],
    ['one silent exactly the limit', [report(1, 'ok', 0), report(2, 'ok', STALE_MS)], false, ['worker 1 (this one): ok, 0 s ago', 'worker 2: ok, 10 s ago']],
    ['none yet', [], false, []],
  ])('%s', (_, workers, degraded, lines) => {
    expect(describeWorkers(workers, 1, NOW)).toEqual({ degraded, lines });
  });
});

describe('Health in a cluster', () => {
  it('lists the workers first and is degraded when any worker is, while its own summary stays its own', () => {
    let table = { degraded: false, lines: ['worker 1 (this one): ok, 0 s ago'] };
    const health = new Health().register('analytics', () => ({ state: 'ok' })).note(() => ['data asn: ok']).cluster(() => table);
    expect(health.reply(null).body).toBe('ok\nworker 1 (this one): ok, 0 s ago\ndata asn: ok\n');
    table = { degraded: true, lines: ['worker 1 (this one): ok, 0 s ago', 'worker 2: degraded (analytics), 1 s ago'] };
    expect(health.reply(null).body).toBe('degraded\nworker 1 (this one): ok, 0 s ago\nworker 2: degraded (analytics), 1 s ago\ndata asn: ok\n');
    expect(health.summary()).toEqual({ status: 'ok', parts: { analytics: 'ok' } });
  });
});
