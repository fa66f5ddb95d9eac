import { describe, expect, it } from 'vitest';
import { formatCompact, formatCount, formatDate, formatKm, formatShare, formatUsd, isoDate } from './display.ts';

describe('content display formats (en-US, UTC)', () => {
  it.each([
    [0, '0'],
    [45200, '45,200'],
    [1234567, '1,234,567'],
  ])('formatCount(%d) reads %j', (n, text) => expect(formatCount(n)).toBe(text));

  it.each([
    [999, '999'],
    [45200, '45.2K'],
    [2240000, '2.2M'],
  ])('formatCompact(%d) reads %j', (n, text) => expect(formatCompact(n)).toBe(text));

  it.each([
    ['2025-01-15', 'January 15, 2025', '2025-01-15'],
    ['2024-12-31', 'December 31, 2024', '2024-12-31'],
  ])('a content date %s reads %j, and %j as an ISO day', (day, long, iso) => {
    const date = new Date(day);
    expect(formatDate(date)).toBe(long);
    expect(isoDate(date)).toBe(iso);
  });

  it.each([
    [3.99, '$3.99'],
    [0, '$0.00'],
    [1200, '$1,200.00'],
  ])('formatUsd(%d) reads %j', (n, text) => expect(formatUsd(n)).toBe(text));

  it.each([
    [0.718, '71.8%'],
    [1, '100.0%'],
    [0.0004, '0.0%'],
  ])('formatShare(%d) reads %j', (share, text) => expect(formatShare(share)).toBe(text));

  it.each([
    [0, '0.0 km'],
    [10.5, '10.5 km'],
    [99.9, '99.9 km'],
    [99.96, '100.0 km'],
    [100, '100 km'],
    [100.4, '100 km'],
    [1229.4, '1,229 km'],
  ])('formatKm(%d) reads %j', (km, text) => expect(formatKm(km)).toBe(text));
});
