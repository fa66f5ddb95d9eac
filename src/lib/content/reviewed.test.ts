import { describe, expect, it } from 'vitest';
import { reviewOverdue } from './reviewed.ts';

describe('reviewOverdue', () => {
  const reviewed = new Date('2026-11-23');
  it.each<[string, string, boolean]>([
    ['the day of the review', '2026-11-23T00:00:00Z', false],
    ['later the same day', '2026-11-23T23:59:59Z', false],
    ['364 days later', '2027-11-22T12:00:00Z', false],
    ['exactly 365 days later, the last valid day', '2027-11-23T12:00:00Z', false],
    ['366 days later', '2027-11-24T00:00:00Z', true],
    ['two years later', '2028-11-23T00:00:00Z', true],
    ['a review dated tomorrow (a typo, not a review)', '2026-11-22T12:00:00Z', true],
  ])('%s: overdue %s', (_, today, overdue) => {
    expect(reviewOverdue(reviewed, new Date(today))).toBe(overdue);
  });
});
