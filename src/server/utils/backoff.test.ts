import { describe, expect, it } from 'vitest';
import { backoffMs } from './backoff.ts';

describe('backoffMs', () => {
  it.each([
    // [failures, first, max, wait]
    [0, 1000, 60_000, 0],
    [-1, 1000, 60_000, 0],
    [1, 1000, 60_000, 1000],
    [2, 1000, 60_000, 2000],
    [3, 1000, 60_000, 4000],
    [6, 1000, 60_000, 32_000],
    [7, 1000, 60_000, 60_000],
    [50, 1000, 60_000, 60_000],
    [2000, 1000, 60_000, 60_000],
    [2000, 0, 60_000, 0],
    [1, 250, 100, 100],
    [53, 1, Number.MAX_VALUE, 2 ** 52],
    [54, 1, Number.MAX_VALUE, 2 ** 52],
  ])('after %i failures (first %i ms, at most %i ms) waits %i ms', (failures, first, max, wait) => {
    expect(backoffMs(failures, first, max)).toBe(wait);
  });
});
