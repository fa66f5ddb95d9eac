/**
 * How old a piece of data is, in the words a privacy reason uses ("fetched 12 minutes
 * ago"): minutes under an hour, hours under two days, then days. Rounded down to
 * the unit. Pure; the table in data-age.test.ts holds a row per edge.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const count = (n: number, unit: string): string => `${n} ${unit}${n === 1 ? '' : 's'}`;

/** `ms` of age in words: 'just now' under a minute (or for a clock that went backwards), else 'N units ago'. */
export function ageText(ms: number): string {
  if (!(ms >= MINUTE)) return 'just now';
  if (ms < HOUR) return `${count(Math.floor(ms / MINUTE), 'minute')} ago`;
  if (ms < 2 * DAY) return `${count(Math.floor(ms / HOUR), 'hour')} ago`;
  return `${count(Math.floor(ms / DAY), 'day')} ago`;
}

/**
 * The age at which `ageText`'s words for `ms` next change: the end of the minute, hour or
 * day they count ('just now' lasts until a minute). What is worded from an age can be kept
 * until then and no longer (src/server/lookup/privacy-memo.ts).
 */
export function ageTextUntil(ms: number): number {
  if (!(ms >= MINUTE)) return MINUTE;
  const unit = ms < HOUR ? MINUTE : ms < 2 * DAY ? HOUR : DAY;
  return (Math.floor(ms / unit) + 1) * unit;
}
