/**
 * How a network's numbers read on its page (src/pages/AS[asn].astro): counts with the noun
 * that agrees with them, shares that may be tiny, /48 counts that may be a fraction of one,
 * and how old a list is. The words come from the page's copy (content/site/network-pages.json).
 */
import { formatCount, formatShare } from './content/display.ts';

/** A count with its noun: `one` for exactly 1, `other` for any other count, `{count}` filled ('135 prefixes'). */
export function countText(count: number, forms: { one: string; other: string }): string {
  return (count === 1 ? forms.one : forms.other).replace('{count}', formatCount(count));
}

/**
 * A share of the network's space, 0-1: `none` at zero, `under` above zero but below what
 * one decimal of a percent shows (0.05%), else the percent ('12.5%').
 */
export function shareText(share: number, words: { none: string; under: string }): string {
  if (share <= 0) return words.none;
  return share < 0.0005 ? words.under : formatShare(share);
}

/** A count of /48 blocks, whole ('62,462,945'); above zero but under one half, `partOfOne`. */
export function blocksText(blocks: number, partOfOne: string): string {
  return blocks > 0 && blocks < 0.5 ? partOfOne : formatCount(Math.round(blocks));
}

/** The same with its noun: `part` above zero but under one half, else as countText of the whole count. */
export function blocksCountText(blocks: number, forms: { one: string; other: string; part: string }): string {
  return blocks > 0 && blocks < 0.5 ? forms.part : countText(Math.round(blocks), forms);
}

/** A name ending a sentence: without its own final full stop ('Example Sp. z o.o.' → 'Example Sp. z o.o'), so the sentence's is the one. */
export const beforeFullStop = (name: string): string => name.replace(/\.+$/, '');

/** Whole days from a list's date (YYYY-MM-DD, UTC) to `now`; never negative. */
export function daysOld(date: string, now: number): number {
  const then = Date.parse(`${date}T00:00:00Z`);
  return Number.isNaN(then) ? 0 : Math.max(0, Math.floor((now - then) / 86_400_000));
}
