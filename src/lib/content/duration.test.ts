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
  ])('turns %j into %s', (text, iso) => {
    expect(isoDuration(text)).toBe(iso);
  });

  it('has no duration for text without digits', () => {
    expect(isoDuration('a few minutes')).toBeUndefined();
    expect(minutesOf('')).toBeUndefined();
  });
});
