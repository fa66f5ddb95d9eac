import { describe, expect, it } from 'vitest';
import { ageText } from './data-age.ts';

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
