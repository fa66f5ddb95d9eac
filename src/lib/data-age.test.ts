import { describe, expect, it } from 'vitest';
import { ageText, ageTextUntil } from './data-age.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

describe('ageText', () => {
  it.each<[number, string]>([
    [-5 * MIN, 'just now'],
    [Number.NaN, 'just now'],
    [0, 'just now'],
    [MIN - 1, 'just now'],
    [MIN, '1 minute ago'],
    [2 * MIN - 1, '1 minute ago'],
    [2 * MIN, '2 minutes ago'],
    [12 * MIN + 59_999, '12 minutes ago'],
    [HOUR - 1, '59 minutes ago'],
    [HOUR, '1 hour ago'],
    [2 * HOUR, '2 hours ago'],
    [2 * DAY - 1, '47 hours ago'],
    [2 * DAY, '2 days ago'],
    [35 * DAY + HOUR, '35 days ago'],
  ])('%d ms old reads "%s"', (ms, text) => {
    expect(ageText(ms)).toBe(text);
  });
});

describe('ageTextUntil', () => {
  it.each<[number, number]>([
    [-5 * MIN, MIN],
    [Number.NaN, MIN],
    [0, MIN],
    [MIN - 1, MIN],
    [MIN, 2 * MIN],
    [2 * MIN - 1, 2 * MIN],
    [12 * MIN + 59_999, 13 * MIN],
    [HOUR - 1, HOUR],
    [HOUR, 2 * HOUR],
    [2 * HOUR + 1, 3 * HOUR],
    [2 * DAY - 1, 2 * DAY],
    [2 * DAY, 3 * DAY],
    [35 * DAY + HOUR, 36 * DAY],
  ])('%d ms old keeps its words until %d ms', (ms, until) => {
    expect(ageTextUntil(ms)).toBe(until);
    // The words change there, and not a millisecond before.
    expect(ageText(until)).not.toBe(ageText(ms));
    expect(ageText(until - 1)).toBe(ageText(Number.isNaN(ms) ? 0 : Math.max(ms, 0)));
  });
});
