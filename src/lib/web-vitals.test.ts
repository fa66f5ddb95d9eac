import { describe, expect, it } from 'vitest';
import { formatVitalValue, vitalsPhase, type VitalName } from './web-vitals.ts';

describe('formatVitalValue', () => {
  it.each<[VitalName, number, string]>([
    ['LCP', 1234.5, '1235'],
    ['LCP', 1234.49, '1234'],
    ['FCP', 0.4, '0'],
    ['TTFB', 87.6, '88'],
    ['INP', 200, '200'],
    ['CLS', 0.12345, '0.123'],
    ['CLS', 0.0005, '0.001'],
    ['CLS', 0, '0.000'],
    ['CLS', 1.5, '1.500'],
  ])('%s %d is written %j', (name, value, text) => expect(formatVitalValue(name, value)).toBe(text));
});

describe('vitalsPhase', () => {
  it.each([
    [0, false, 'measuring'],
    [0, true, 'measuring'],
    [1, false, 'measuring'],
    [2, false, 'measuring'],
    [1, true, 'live'],
    [2, true, 'live'],
    [3, false, 'live'],
    [5, false, 'live'],
    [5, true, 'live'],
  ])('%i readings, timer elapsed %s: %s', (count, elapsed, phase) => expect(vitalsPhase(count, elapsed)).toBe(phase));
});
