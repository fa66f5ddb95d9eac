// The per-source packet budget: the bucket's edges on a moved clock, which addresses share
// a bucket, and the bound on tracked sources.
import { describe, expect, it } from 'vitest';
import { SourceBudget } from './source-budget.ts';

/** A budget of 20 a second with a burst of 40 (one packet costs 50 ms), on a clock the test sets. */
function budget(maxSources = 1000) {
  const clock = { t: 0 };
  return { clock, budget: new SourceBudget({ perSecond: 20, burst: 40, maxSources, now: () => clock.t }) };
}

const times = (count: number, at: number) => Array<number>(count).fill(at);

describe('SourceBudget: one source', () => {
  it.each<[string, number[], number]>([
    ['40 at once: the whole burst passes', times(40, 0), 40],
    ['41 at once: the 41st is dropped', times(41, 0), 40],
    ['41 at once, then one at 49 ms: not yet refilled', [...times(41, 0), 49], 40],
    ['41 at once, then one at 50 ms: one packet refilled', [...times(41, 0), 50], 41],
    ['40 at once, then 40 at 1999 ms: one short of a full bucket', [...times(40, 0), ...times(40, 1999)], 79],
    ['40 at once, then 40 at 2000 ms: full again', [...times(40, 0), ...times(40, 2000)], 80],
    ['40 at once, then 41 a minute later: full, never more than full', [...times(40, 0), ...times(41, 60_000)], 80],
    ['one every 50 ms for 10 s: the steady rate always passes', Array.from({ length: 200 }, (_, i) => i * 50), 200],
    ['10,000 within one second: the burst and 19 more', Array.from({ length: 10_000 }, (_, i) => Math.floor(i / 10)), 59],
  ])('%s', (_, at, passed) => {
    const { clock, budget: b } = budget();
    let count = 0;
    for (const t of at) {
      clock.t = t;
      if (b.take('203.0.113.9')) count++;
    }
    expect(count).toBe(passed);
  });
});

describe('SourceBudget: which sources share a bucket', () => {
  it.each<[string, string, boolean]>([
    ['203.0.113.9', '203.0.113.9', true],
    ['203.0.113.9', '203.0.113.10', false],
    ['::ffff:203.0.113.9', '203.0.113.9', true],
    ['2001:db8:1:2::1', '2001:db8:1:2:ffff:ffff:ffff:ffff', true],
    ['2001:db8:1:2::1', '2001:db8:1:3::1', false],
    ['2001:db8:1:2::1', '2001:db8:1:1:ffff:ffff:ffff:ffff', false],
    ['fe80::1%eth0', 'fe80::2%lo', true],
  ])('%s and %s: shared %s', (a, b, shared) => {
    const { budget: bucket } = budget();
    for (let i = 0; i < 40; i++) expect(bucket.take(a)).toBe(true);
    expect(bucket.take(b)).toBe(!shared);
  });
});

describe('SourceBudget: bounded memory', () => {
  it('never tracks more than maxSources, whatever the number of sources', () => {
    const { budget: b } = budget(4);
    for (let i = 0; i < 1000; i++) {
      b.take(`198.51.${i >> 8}.${i & 255}`);
      expect(b.size).toBeLessThanOrEqual(4);
    }
    expect(b.size).toBe(4);
  });

  it.each<[string, number, boolean]>([
    ['with exactly maxSources sources, an exhausted one is remembered', 3, false],
    ['one source more, and the oldest is forgotten: it gets a fresh burst', 4, true],
  ])('%s', (_, others, fresh) => {
    const { budget: b } = budget(4);
    for (let i = 0; i < 40; i++) b.take('203.0.113.9');
    for (let i = 1; i <= others; i++) b.take(`198.51.100.${i}`);
    expect(b.take('203.0.113.9')).toBe(fresh);
  });
});
