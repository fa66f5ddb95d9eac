import { afterEach, describe, expect, it, vi } from 'vitest';
import { timezonesMatch, utcOffsetMinutes } from './timezone.ts';

const JANUARY = Date.UTC(2026, 0, 15, 12);
const JULY = Date.UTC(2026, 6, 15, 12);
// Liberia kept Monrovia Mean Time, 44 min 30 s behind UTC, until 1972.
const MONROVIA_1970 = Date.UTC(1970, 0, 15, 12);

/** A new copy of the module, with none of the offsets the other tests memoised. */
async function freshTimezone() {
  vi.resetModules();
  return import('./timezone.ts');
}

afterEach(() => {
  vi.restoreAllMocks();
});

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

  it('reads no offset that is not whole minutes, rather than cut it (Monrovia, 1970: GMT-00:44:30)', () => {
    expect(utcOffsetMinutes('Africa/Monrovia', MONROVIA_1970)).toBeUndefined();
  });

  it("reads a bare 'GMT', as engines whose ICU drops '+00:00' write a zero offset, as 0", async () => {
    const real = Intl.DateTimeFormat.prototype.formatToParts;
    vi.spyOn(Intl.DateTimeFormat.prototype, 'formatToParts').mockImplementation(function (this: Intl.DateTimeFormat, at) {
      return real.call(this, at).map((part) => (part.type === 'timeZoneName' && part.value === 'GMT+00:00' ? { ...part, value: 'GMT' } : part));
    });
    const { utcOffsetMinutes: offsetOf } = await freshTimezone();
    expect(offsetOf('UTC', JANUARY)).toBe(0);
    expect(offsetOf('Europe/London', JANUARY)).toBe(0);
    expect(offsetOf('Europe/London', JULY)).toBe(60);
  });

  // Offsets are kept per quarter hour; two zones changed theirs inside one.
  it.each([
    ['Pacific/Kiritimati', 'went from -10:40 to -10:00 at 10:40 UTC on 1 October 1979', Date.UTC(1979, 9, 1, 10, 30), -640, Date.UTC(1979, 9, 1, 10, 40), -600],
    ['Africa/Monrovia', 'left GMT-00:44:30 for GMT at 00:44:30 UTC on 7 January 1972', Date.UTC(1972, 0, 7, 0, 40), undefined, Date.UTC(1972, 0, 7, 0, 44, 40), 0],
    // Its offset after the change is the one it has in 1970.
    ['America/Phoenix', 'left war time (-06:00) for -07:00 at 06:01 UTC on 1 January 1944', Date.UTC(1944, 0, 1, 6, 0, 30), -360, Date.UTC(1944, 0, 1, 6, 5), -420],
  ] as const)('gives %s (which %s) the same answers whichever instant is asked first', async (zone, _, before, offsetBefore, after, offsetAfter) => {
    for (const first of [before, after]) {
      const { utcOffsetMinutes: offsetOf } = await freshTimezone();
      offsetOf(zone, first);
      expect([offsetOf(zone, before), offsetOf(zone, after)]).toEqual([offsetBefore, offsetAfter]);
    }
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
    ['a name that is not a zone against a zone', 'Mars/Olympus', 'Europe/Paris', JANUARY, undefined],
    ['a zone against itself when its offset cannot be read', 'Africa/Monrovia', 'Africa/Monrovia', MONROVIA_1970, true],
    ['a zone whose offset cannot be read against another', 'Africa/Monrovia', 'Africa/Abidjan', MONROVIA_1970, undefined],
    ['a non-zone against itself', 'Mars/Olympus', 'Mars/Olympus', JANUARY, undefined],
  ] as const)('compares %s: %s vs %s', (_, a, b, at, expected) => expect(timezonesMatch(a, b, at)).toBe(expected));
});
