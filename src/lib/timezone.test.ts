import { describe, expect, it } from 'vitest';
import { timezonesMatch, utcOffsetMinutes } from './timezone.ts';

const JANUARY = Date.UTC(2026, 0, 15, 12);
const JULY = Date.UTC(2026, 6, 15, 12);

describe('utcOffsetMinutes', () => {
  it.each([
    ['UTC', JANUARY, 0], ['Europe/London', JANUARY, 0], ['Europe/London', JULY, 60], ['America/New_York', JANUARY, -300],
    ['America/New_York', JULY, -240], ['Asia/Kolkata', JANUARY, 330], ['Asia/Kathmandu', JULY, 345], ['Not/AZone', JANUARY, undefined],
  ] as const)('gives %s at %d an offset of %s minutes', (zone, at, offset) => expect(utcOffsetMinutes(zone, at)).toBe(offset));

  it('follows a DST change within the same zone', () => {
    // Europe/Berlin springs forward at 01:00 UTC on 29 March 2026.
    expect(utcOffsetMinutes('Europe/Berlin', Date.UTC(2026, 2, 29, 0, 59))).toBe(60);
    expect(utcOffsetMinutes('Europe/Berlin', Date.UTC(2026, 2, 29, 1, 0))).toBe(120);
  });
});

describe('timezonesMatch', () => {
  it.each([
    ['the same zone', 'Europe/Paris', 'Europe/Paris', JANUARY, true],
    ['neighbours with the same clock', 'Europe/Berlin', 'Europe/Paris', JANUARY, true],
    ['an alias of the same zone', 'Asia/Calcutta', 'Asia/Kolkata', JULY, true],
    ['zones an ocean apart', 'America/New_York', 'Europe/London', JANUARY, false],
    ['zones equal in winter only', 'Europe/London', 'Africa/Abidjan', JANUARY, true],
    ['... and different in summer', 'Europe/London', 'Africa/Abidjan', JULY, false],
    ['a zone against a name that is not a zone', 'Europe/Paris', 'Mars/Olympus', JANUARY, undefined],
    ['a non-zone against itself', 'Mars/Olympus', 'Mars/Olympus', JANUARY, undefined],
  ] as const)('compares %s: %s vs %s', (_, a, b, at, expected) => expect(timezonesMatch(a, b, at)).toBe(expected));
});
