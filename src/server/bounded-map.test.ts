import { describe, expect, it } from 'vitest';
import { AdaptiveMemo } from './bounded-map.ts';

/** A memo over windows of 8 lookups that wants 2 hits (25%) and rests for 5 requests. */
const memo = () => new AdaptiveMemo<string, number>(100, { minHitRate: 0.25, window: 8, rest: 5 });

/** Runs one window with `hits` hits, then reports whether a kept value is still found. */
function afterWindow(hits: number): boolean {
  const m = memo();
  m.set('kept', 1);
  for (let i = 0; i < 8; i++) m.get(i < hits ? 'kept' : `miss-${i}`);
  return m.get('kept') === 1;
}

describe('AdaptiveMemo', () => {
  it.each([
    [0, false], [1, false], [2, true], [3, true], [8, true],
  ])('after a window with %i hits out of 8 (at least 2 wanted), looks up: %s', (hits, looksUp) => {
    expect(afterWindow(hits)).toBe(looksUp);
  });

  it('keeps nothing while standing aside, and serves again once the rest is over', () => {
    const m = memo();
    for (let i = 0; i < 8; i++) m.get(`miss-${i}`);
    m.set('during', 1); // resting: not kept
    for (let i = 0; i < 4; i++) expect(m.get('during')).toBeUndefined();
    expect(m.get('during')).toBeUndefined(); // the 5th request ends the rest
    m.set('after', 2);
    expect(m.get('after')).toBe(2);
    expect(m.get('during')).toBeUndefined();
  });
});
