import { describe, expect, it } from 'vitest';
import { isoDuration, minutesOf } from './duration.ts';

describe('isoDuration', () => {
  it.each([
    ['5 minutes', 'PT5M'],
    ['1 minute', 'PT1M'],
    ['15 min', 'PT15M'],
    ['10-15 minutes', 'PT15M'],
    ['1 hour', 'PT1H'],
    ['2 hours', 'PT2H'],
    ['1 hour 30 minutes', 'PT1H30M'],
    ['90 minutes', 'PT1H30M'],
    ['1.5 hours', 'PT1H30M'],
    ['30', 'PT30M'],
    ['0 minutes', 'PT0M'],
    // Decimals with more than one digit, on either end of a range.
    ['1.25 hours', 'PT1H15M'],
    ['1-1.25 hours', 'PT1H15M'],
    ['1-1.5 hours', 'PT1H30M'],
    // Each unit spelling, short or long, singular or plural.
    ['1 hr', 'PT1H'],
    ['2 hrs', 'PT2H'],
    ['1 h', 'PT1H'],
    ['1 min', 'PT1M'],
    ['5 m', 'PT5M'],
    // A unit glued to its number ends that part: what follows the dash is another part.
    ['1h+10-15m', 'PT1H15M'],
    // A range whose ends both carry a unit still counts its upper bound, not their sum.
    ['10 min - 15 min', 'PT15M'],
    ['10min-15min', 'PT15M'],
    ['1 hour - 2 hours', 'PT2H'],
    ['1h-2h', 'PT2H'],
    ['1 hour – 90 minutes', 'PT1H30M'],
    ['45 min-1 hour', 'PT1H'],
  ])('turns %j into %s', (text, iso) => {
    expect(isoDuration(text)).toBe(iso);
  });

  it('has no duration for text without digits', () => {
    expect(isoDuration('a few minutes')).toBeUndefined();
    expect(minutesOf('')).toBeUndefined();
  });
});
