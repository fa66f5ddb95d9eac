import { describe, expect, it } from 'vitest';
import { roundTripMs } from './round-trip.ts';

describe('roundTripMs', () => {
  it.each([
    [{ requestStart: 100, responseStart: 160, serverTiming: [{ name: 'lookup', duration: 12 }] }, 48],
    [{ requestStart: 100, responseStart: 160.6, serverTiming: [{ name: 'db', duration: 1 }, { name: 'lookup', duration: 0 }] }, 61],
    // Clock granularity can make the server look slower than the whole exchange.
    [{ requestStart: 100, responseStart: 105, serverTiming: [{ name: 'lookup', duration: 7 }] }, 0],
    // A response in the same millisecond as the request is a round trip of 0 ...
    [{ requestStart: 100, responseStart: 100, serverTiming: [{ name: 'lookup', duration: 0 }] }, 0],
    // ... one before the request is a broken entry, not a measurement.
    [{ requestStart: 100, responseStart: 99.9, serverTiming: [{ name: 'lookup', duration: 0 }] }, null],
    [{ requestStart: 100, responseStart: 160, serverTiming: [] }, null],
    [{ requestStart: 100, responseStart: 160 }, null],
    // Cross-origin without Timing-Allow-Origin zeroes the timestamps.
    [{ requestStart: 0, responseStart: 0, serverTiming: [{ name: 'lookup', duration: 3 }] }, null],
  ])('measures %j as %s ms', (entry, ms) => expect(roundTripMs(entry)).toBe(ms));
});
