/**
 * How long a landing file's facts stay trusted: a file whose `reviewed` date is more than
 * a year old fails tests/content.test.ts, so company and market facts are rechecked
 * before they go stale on the page.
 */

/** Days a review stays valid. */
export const REVIEW_VALID_DAYS = 365;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Whether facts reviewed on `reviewed` need another review on `today`: true past
 * REVIEW_VALID_DAYS whole days, and for a date in the future (a typo, not a review).
 */
export function reviewOverdue(reviewed: Date, today: Date): boolean {
  const days = Math.floor((Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()) - reviewed.getTime()) / DAY_MS);
  return days < 0 || days > REVIEW_VALID_DAYS;
}
