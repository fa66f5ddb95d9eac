import { describe, expect, it } from 'vitest';
import { beforeFullStop, blocksCountText, blocksText, countText, daysOld, shareText } from './network-format.ts';

const WORDS = { none: 'none', under: 'under 0.1%' };

describe('shareText', () => {
  it.each<[number, string]>([
    [0, 'none'],
    [-0.1, 'none'],
    [1e-9, 'under 0.1%'],
    [0.000499, 'under 0.1%'],
    [0.0005, '0.1%'],
    [0.125, '12.5%'],
    [1, '100.0%'],
  ])('words a share of %d as %j', (share, text) => {
    expect(shareText(share, WORDS)).toBe(text);
  });
});

describe('blocksText', () => {
  it.each<[number, string]>([
    [0, '0'],
    [0.0001, 'part of one'],
    [0.4999, 'part of one'],
    [0.5, '1'],
    [1, '1'],
    [574286.4, '574,286'],
  ])('words %d /48s as %j', (blocks, text) => {
    expect(blocksText(blocks, 'part of one')).toBe(text);
  });
});

describe('daysOld', () => {
  const NOW = Date.parse('2026-11-26T15:00:00Z');
  it.each<[string, number]>([
    ['2026-11-26', 0],
    ['2026-11-25', 1],
    ['2026-10-27', 30],
    ['2026-11-27', 0],
    ['not a date', 0],
  ])('counts %s as %i days before 2026-11-26 15:00 UTC', (date, days) => {
    expect(daysOld(date, NOW)).toBe(days);
  });

  it('turns a day at midnight UTC', () => {
    expect(daysOld('2026-11-25', Date.parse('2026-11-26T00:00:00Z'))).toBe(1);
    expect(daysOld('2026-11-25', Date.parse('2026-11-25T23:59:59Z'))).toBe(0);
  });
});

describe('countText', () => {
  const FORMS = { one: '{count} prefix', other: '{count} prefixes' };
  it.each<[number, string]>([
    [0, '0 prefixes'],
    [1, '1 prefix'],
    [2, '2 prefixes'],
    [9550, '9,550 prefixes'],
  ])('words %i as %j', (count, text) => {
    expect(countText(count, FORMS)).toBe(text);
  });
});

describe('blocksCountText', () => {
  const FORMS = { one: '{count} /48 block', other: '{count} /48 blocks', part: 'part of one /48 block' };
  it.each<[number, string]>([
    [0, '0 /48 blocks'],
    [0.0001, 'part of one /48 block'],
    [0.4999, 'part of one /48 block'],
    [0.5, '1 /48 block'],
    [1.4, '1 /48 block'],
    [2, '2 /48 blocks'],
    [574286.4, '574,286 /48 blocks'],
  ])('words %d /48s as %j', (blocks, text) => {
    expect(blocksCountText(blocks, FORMS)).toBe(text);
  });
});

describe('beforeFullStop', () => {
  it.each<[string, string]>([
    ['IPMEDIA Sp. z o.o.', 'IPMEDIA Sp. z o.o'],
    ['Cloudflare, Inc.', 'Cloudflare, Inc'],
    ['Google LLC', 'Google LLC'],
    ['A...', 'A'],
    ['', ''],
    ['.Net.Work', '.Net.Work'],
  ])('ends %j as %j before a full stop', (name, text) => {
    expect(beforeFullStop(name)).toBe(text);
  });
});
