import { describe, expect, it } from 'vitest';
import { formatBucket, formatCount, formatCountChange, formatKm, formatPercent, formatPoints } from './analytics-format.ts';

describe('analytics formats', () => {
  it.each([[0, '0'], [999, '999'], [1000, '1,000'], [1234567, '1,234,567']])('count %d is %s', (n, text) => {
    expect(formatCount(n)).toBe(text);
  });
  it.each([[0, '0%'], [0.25, '25%'], [0.1234, '12.3%'], [1, '100%']])('share %d is %s', (x, text) => {
    expect(formatPercent(x)).toBe(text);
  });
  it.each([[0.5, '+50%'], [0, '0%'], [-0.25, '-25%'], [0.0004, '0%'], [0.0006, '+0.1%']])('count change %d is %s', (x, text) => {
    expect(formatCountChange(x)).toBe(text);
  });
  it.each([[0.023, '+2.3'], [-0.05, '-5'], [0, '0']])('rate change %d is %s points', (x, text) => {
    expect(formatPoints(x)).toBe(text);
  });
  it.each([[12.345, '12.3'], [0, '0'], [1500, '1,500']])('distance %d km is %s', (km, text) => {
    expect(formatKm(km)).toBe(text);
  });
  it.each<[string, 'hour' | 'day', string]>([
    ['2026-03-09T00:00:00.000Z', 'day', 'Mar 9'],
    ['2026-03-09T00:00:00.000Z', 'hour', '00:00'],
    ['2026-03-09T23:00:00.000Z', 'hour', '23:00'],
  ])('bucket %s by %s is %s', (iso, unit, text) => {
    expect(formatBucket(iso, unit)).toBe(text);
  });
});
