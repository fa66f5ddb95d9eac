/** URL slugs for content: the city rule (name → `/ip-lookup/{slug}`) and its check. */
import { foldLetters } from '../text-fold.ts';

/**
 * The slug of a city page: the name's letters folded as the city search folds them
 * (lib/text-fold.ts: `São Paulo` → `sao-paulo`, `Łódź` → `lodz`, `Straße` → `strasse`),
 * punctuation removed, spaces turned to hyphens (`St. Louis` → `st-louis`).
 */
export function citySlug(name: string): string {
  return foldLetters(name)
    .replace(/[^a-z0-9\s-]/g, '')
    .trim()
    .replace(/[\s-]+/g, '-');
}
