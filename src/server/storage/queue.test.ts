/**
 * The write-behind queue on a clock the test moves (tests/support/manual-clock.ts) and a
 * store that fails on demand: when batches are written, how they are cut, the backoff
 * after failures and its cap, the order of rows across retries, the bound, and what
 * flush and close leave. The queue behind a real database is tested in
 * tests/analytics-outage.test.ts and tests/analytics-api.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock, settle } from '../../../tests/support/manual-clock.ts';
import { RecordingQueue, SYSTEM_CLOCK, type QueueOptions } from './queue.ts';
import type { Batch, CorrectionRow, LookupRow } from './types.ts';

/** A lookup row told apart by its `at`. */
const lookup = (at: number): LookupRow => ({
  at, network: 1, ipPrefix: '198.51.100.0/24', ipVersion: 'ipv4', countryCode: 'US', countryName: 'United States',
  region: '', city: '', asn: 'AS64500', networkType: 'isp', vpnDetected: false, riskLevel: 'low', locationSource: 'ip', accuracyTier: 'medium',
});
/** A correction row told apart by its `at`. */
const correction = (at: number): CorrectionRow =>
  ({ at, distance_km: 1, country_code: 'US', network_type: 'isp', nearer_source: 'tie', ipPrefix: '198.51.100.0/24', asn: 'AS64500', networkMin: 1, networkMax: 1 });

/** Each write the queue tried: when, which batch, which rows (lookups' `at`, then corrections' as `c<at>`). */
interface Attempt { time: number; id: string; rows: (number | string)[]; ok: boolean }

/**
 * A store that fails while `down`, with `error` (an Error by default), and otherwise keeps
 * every row; `hold()` makes the next write wait until the test lets it end.
 */
function testStore(clock: ManualClock) {
  const attempts: Attempt[] = [];
  const kept: (number | string)[] = [];
  let held: { promise: Promise<void>; release: () => void } | undefined;
  const store = {
    down: false,
    error: new Error('connection refused') as unknown,
    attempts,
    kept,
    /** Times of the attempts. */
    times: () => attempts.map((a) => a.time),
    /** The next write waits for `release()`. */
    hold() {
      let release!: () => void;
      const promise = new Promise<void>((resolve) => { release = resolve; });
      held = { promise, release };
      return release;
    },
    async write(batch: Batch) {
      const rows = [...batch.lookups.map((r) => r.at), ...batch.corrections.map((r) => `c${r.at}`)];
      const attempt = { time: clock.now(), id: batch.id, rows, ok: false };
      attempts.push(attempt);
      if (held) { const { promise } = held; held = undefined; await promise; }
      if (store.down) throw store.error;
      attempt.ok = true;
      kept.push(...rows);
    },
  };
  return store;
}

function setUp(options: QueueOptions = {}) {
  const clock = new ManualClock(1_000_000);
  const store = testStore(clock);
  const queue = new RecordingQueue(store, { clock, ...options });
  return { clock, store, queue, start: clock.now() };
}

describe('when batches are written', () => {
  it('waits intervalMs after the first row, not after the last, and writes every row then in one batch', async () => {
    const { clock, store, queue, start } = setUp({ intervalMs: 250 });
    queue.pushLookup(lookup(1));
    await clock.advance(200);
    queue.pushLookup(lookup(2));
    await clock.advance(49);
    expect(store.attempts).toEqual([]);
    await clock.advance(1);
    expect(store.attempts.map((a) => [a.time - start, a.rows])).toEqual([[250, [1, 2]]]);
    expect(queue.state()).toEqual({ state: 'ok', queued: 0, dropped: 0, written: 2, lastError: null });
  });

  it.each([
    { name: 'one row short of batchSize waits for intervalMs', rows: 2, first: 250 },
    { name: 'exactly batchSize rows are written at once', rows: 3, first: 0 },
  ])('$name', async ({ rows, first }) => {
    const { clock, store, queue, start } = setUp({ batchSize: 3, intervalMs: 250 });
    for (let i = 1; i <= rows; i++) queue.pushLookup(lookup(i));
    await clock.advance(250);
    expect(store.attempts.map((a) => a.time - start)).toEqual([first]);
  });

  it('cuts rows into batches of batchSize: a full one goes at once, the rest after intervalMs', async () => {
    const { clock, store, queue, start } = setUp({ batchSize: 3, intervalMs: 250 });
    for (let i = 1; i <= 7; i++) queue.pushLookup(lookup(i));
    await clock.advance(1000);
    expect(store.attempts.map((a) => [a.time - start, a.rows])).toEqual([[0, [1, 2, 3]], [0, [4, 5, 6]], [250, [7]]]);
  });

  it('writes a second full batch at once when exactly batchSize rows are left after the first', async () => {
    const { clock, store, queue, start } = setUp({ batchSize: 3, intervalMs: 250 });
    for (let i = 1; i <= 3; i++) queue.pushLookup(lookup(i));
    for (let i = 4; i <= 6; i++) queue.pushCorrection(correction(i));
    await clock.advance(1000);
    expect(store.attempts.map((a) => [a.time - start, a.rows])).toEqual([[0, [1, 2, 3]], [0, ['c4', 'c5', 'c6']]]);
  });

  it('fills a batch with corrections after its lookups, and writes corrections alone', async () => {
    const { clock, store, queue } = setUp({ batchSize: 3, intervalMs: 250 });
    queue.pushLookup(lookup(1));
    queue.pushCorrection(correction(2));
    queue.pushLookup(lookup(3));
    queue.pushCorrection(correction(4));
    await clock.advance(1000);
    expect(store.attempts.map((a) => a.rows)).toEqual([[1, 3, 'c2'], ['c4']]);
    queue.pushCorrection(correction(5));
    await clock.advance(250);
    expect(store.attempts.map((a) => a.rows)).toEqual([[1, 3, 'c2'], ['c4'], ['c5']]);
    expect(queue.state().written).toBe(5);
  });

  it('counts corrections toward batchSize', async () => {
    const { clock, store, queue, start } = setUp({ batchSize: 2, intervalMs: 250 });
    queue.pushLookup(lookup(1));
    queue.pushCorrection(correction(2));
    await clock.advance(0);
    expect(store.attempts.map((a) => [a.time - start, a.rows])).toEqual([[0, [1, 'c2']]]);
  });
});

describe('after a failed write', () => {
  // Times between attempts while the store stays down: backoffMs doubled each time, up to maxBackoffMs.
  it.each([
    { name: 'the defaults: 250 ms doubling up to 5 s', options: {}, gaps: [250, 500, 1000, 2000, 4000, 5000, 5000] },
    { name: 'a cap reached exactly', options: { backoffMs: 100, maxBackoffMs: 400 }, gaps: [100, 200, 400, 400] },
    { name: 'a cap between two doublings', options: { backoffMs: 100, maxBackoffMs: 399 }, gaps: [100, 200, 399, 399] },
  ])('backs off: $name', async ({ options, gaps }) => {
    const { clock, store, queue } = setUp({ intervalMs: 250, ...options });
    store.down = true;
    queue.pushLookup(lookup(1));
    await clock.advance(250);
    for (const [i, gap] of gaps.entries()) {
      await clock.advance(gap - 1);
      expect(store.attempts).toHaveLength(i + 1);
      await clock.advance(1);
    }
    const times = store.times();
    expect(times.slice(1).map((t, i) => t - times[i]!)).toEqual(gaps);
  });

  it('backs off from backoffMs again after a write succeeds', async () => {
    const { clock, store, queue } = setUp({ intervalMs: 250, backoffMs: 100 });
    store.down = true;
    queue.pushLookup(lookup(1));
    await clock.advance(250 + 100 + 200);
    store.down = false;
    await clock.advance(400);
    store.down = true;
    queue.pushLookup(lookup(2));
    await clock.advance(250 + 100);
    const times = store.times();
    expect(times.slice(1).map((t, i) => t - times[i]!)).toEqual([100, 200, 400, 250, 100]);
    expect(store.attempts.map((a) => a.ok)).toEqual([false, false, false, true, false, false]);
  });

  it('does not write a full batch at once while it backs off', async () => {
    const { clock, store, queue, start } = setUp({ batchSize: 2, intervalMs: 250, backoffMs: 1000 });
    store.down = true;
    queue.pushLookup(lookup(1));
    await clock.advance(250);
    for (let i = 2; i <= 5; i++) queue.pushLookup(lookup(i));
    await clock.advance(999);
    expect(store.times().map((t) => t - start)).toEqual([250]);
    await clock.advance(1);
    expect(store.times().map((t) => t - start)).toEqual([250, 1250]);
  });

  it('retries the same batch, with the same id, and keeps every row in the order it came', async () => {
    const { clock, store, queue } = setUp({ batchSize: 2, intervalMs: 250, backoffMs: 100 });
    store.down = true;
    queue.pushLookup(lookup(1));
    queue.pushLookup(lookup(2));
    await clock.advance(0);
    queue.pushLookup(lookup(3));
    queue.pushLookup(lookup(4));
    queue.pushLookup(lookup(5));
    await clock.advance(100 + 200);
    store.down = false;
    await clock.advance(400 + 250);
    expect(store.attempts.map((a) => [a.rows, a.ok])).toEqual([
      [[1, 2], false], [[1, 2], false], [[1, 2], false], [[1, 2], true], [[3, 4], true], [[5], true],
    ]);
    expect(new Set(store.attempts.slice(0, 4).map((a) => a.id)).size).toBe(1);
    expect(new Set(store.attempts.map((a) => a.id)).size).toBe(3);
    expect(store.kept).toEqual([1, 2, 3, 4, 5]);
    expect(queue.state()).toEqual({ state: 'ok', queued: 0, dropped: 0, written: 5, lastError: null });
  });

  it.each([
    { name: 'an Error: its message', error: new Error('the database is down'), lastError: 'the database is down' },
    { name: 'anything else: as text', error: 'ECONNRESET', lastError: 'ECONNRESET' },
  ])('says it is retrying, and why, until a write succeeds; the error is $name', async ({ error, lastError }) => {
    const { clock, store, queue } = setUp({ intervalMs: 250, backoffMs: 100 });
    store.down = true;
    store.error = error;
    queue.pushLookup(lookup(1));
    await clock.advance(250);
    expect(queue.state()).toEqual({ state: 'retrying', queued: 1, dropped: 0, written: 0, lastError });
    store.down = false;
    await clock.advance(100);
    expect(queue.state()).toEqual({ state: 'ok', queued: 0, dropped: 0, written: 1, lastError: null });
  });
});

describe('the bound', () => {
  it('counts the lookups and the corrections of the batch being retried', async () => {
    const { clock, store, queue } = setUp({ limit: 3, batchSize: 2, intervalMs: 250 });
    store.down = true;
    queue.pushLookup(lookup(1));
    queue.pushCorrection(correction(2));
    await clock.advance(0);
    expect(store.attempts.map((a) => a.rows)).toEqual([[1, 'c2']]);
    expect(queue.state()).toMatchObject({ queued: 2 });
    expect([queue.pushLookup(lookup(3)), queue.pushLookup(lookup(4))]).toEqual([true, false]);
  });

  it('holds limit rows, the batch being retried included, and refuses and counts the one past it', async () => {
    const { clock, store, queue } = setUp({ limit: 4, batchSize: 2, intervalMs: 250 });
    store.down = true;
    expect([queue.pushLookup(lookup(1)), queue.pushLookup(lookup(2))]).toEqual([true, true]);
    await clock.advance(0);
    expect(store.attempts).toHaveLength(1);
    expect([queue.pushCorrection(correction(3)), queue.pushLookup(lookup(4))]).toEqual([true, true]);
    expect(queue.state()).toMatchObject({ queued: 4, dropped: 0 });
    expect([queue.pushLookup(lookup(5)), queue.pushCorrection(correction(6))]).toEqual([false, false]);
    expect(queue.state()).toMatchObject({ queued: 4, dropped: 2 });
    store.down = false;
    await clock.advance(10_000);
    expect(store.kept).toEqual([1, 2, 4, 'c3']);
    expect(queue.state()).toEqual({ state: 'ok', queued: 0, dropped: 2, written: 4, lastError: null });
    expect(queue.pushLookup(lookup(7))).toBe(true);
  });
});

describe('flush', () => {
  it('writes everything held at once and says the queue is empty', async () => {
    const { clock, store, queue, start } = setUp({ batchSize: 2, intervalMs: 250 });
    for (let i = 1; i <= 3; i++) queue.pushLookup(lookup(i));
    await settle();
    expect(await queue.flush()).toBe(true);
    expect(store.attempts.map((a) => [a.time - start, a.rows])).toEqual([[0, [1, 2]], [0, [3]]]);
    await clock.advance(1000);
    expect(store.attempts).toHaveLength(2);
  });

  it('retries with the backoff until its deadline, then says rows are left, and the queue goes on writing them', async () => {
    const { clock, store, queue, start } = setUp({ intervalMs: 250, backoffMs: 100 });
    store.down = true;
    queue.pushLookup(lookup(1));
    const flushed = queue.flush(start + 1000);
    await clock.advance(1000);
    expect(await flushed).toBe(false);
    // 0, then 100, 200, 400 later; the last wait is cut to the deadline (1000), where it stops.
    expect(store.times().map((t) => t - start)).toEqual([0, 100, 300, 700]);
    expect(queue.state()).toMatchObject({ state: 'retrying', queued: 1 });
    store.down = false;
    await clock.advance(250);
    expect(store.kept).toEqual([1]);
  });

  it('hands the retries back to the background once it gives up, which backs off on', async () => {
    const { clock, store, queue, start } = setUp({ intervalMs: 250, backoffMs: 100, maxBackoffMs: 100 });
    store.down = true;
    queue.pushLookup(lookup(1));
    const flushed = queue.flush(start + 250);
    await clock.advance(250);
    expect(await flushed).toBe(false);
    await clock.advance(250 + 100 + 100);
    // The flush's own tries (0, 100, 200), then the background's: 250 after it, then every 100.
    expect(store.times().map((t) => t - start)).toEqual([0, 100, 200, 500, 600, 700]);
  });

  it('gives up after 5 s by default', async () => {
    const { clock, store, queue, start } = setUp({ intervalMs: 250, backoffMs: 1000, maxBackoffMs: 1000 });
    store.down = true;
    queue.pushLookup(lookup(1));
    const flushed = queue.flush();
    await clock.advance(5000);
    expect(await flushed).toBe(false);
    expect(store.times().map((t) => t - start)).toEqual([0, 1000, 2000, 3000, 4000]);
  });
});

describe('close', () => {
  it('writes what is held and drops nothing when the store answers', async () => {
    const { queue, store } = setUp({ batchSize: 2 });
    for (let i = 1; i <= 3; i++) queue.pushLookup(lookup(i));
    expect(await queue.close()).toEqual({ state: 'ok', queued: 0, dropped: 0, written: 3, lastError: null });
    expect(store.kept).toEqual([1, 2, 3]);
  });

  it('counts what it could not write by its deadline as dropped, and every row pushed after it', async () => {
    const { clock, store, queue, start } = setUp({ batchSize: 2, backoffMs: 100 });
    store.down = true;
    for (let i = 1; i <= 3; i++) queue.pushLookup(lookup(i));
    const closed = queue.close(start + 500);
    await clock.advance(500);
    expect(await closed).toEqual({ state: 'retrying', queued: 0, dropped: 3, written: 0, lastError: 'connection refused' });
    expect([queue.pushLookup(lookup(4)), queue.pushCorrection(correction(5))]).toEqual([false, false]);
    expect(queue.state()).toMatchObject({ queued: 0, dropped: 5 });
    store.down = false;
    await clock.advance(10_000);
    expect(store.kept).toEqual([]);
  });

  it('waits for the write in flight: its rows count as written, not dropped', async () => {
    const { clock, store, queue, start } = setUp({ intervalMs: 250 });
    queue.pushLookup(lookup(1));
    const release = store.hold();
    await clock.advance(250);
    expect(store.attempts).toHaveLength(1);
    const closed = queue.close(start + 250);
    await settle();
    release();
    expect(await closed).toEqual({ state: 'ok', queued: 0, dropped: 0, written: 1, lastError: null });
  });
});

describe('the real clock', () => {
  it('runs a timer after its time, not once cleared, and sleeps', async () => {
    const ran: string[] = [];
    const before = SYSTEM_CLOCK.now();
    expect(Math.abs(before - Date.now())).toBeLessThan(50);
    SYSTEM_CLOCK.clearTimer(SYSTEM_CLOCK.setTimer(() => ran.push('cleared'), 1));
    SYSTEM_CLOCK.setTimer(() => ran.push('ran'), 1);
    await SYSTEM_CLOCK.sleep(20);
    expect(ran).toEqual(['ran']);
    expect(SYSTEM_CLOCK.now() - before).toBeGreaterThanOrEqual(19);
  });
});
