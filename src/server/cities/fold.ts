/**
 * Folding of place names and queries into one comparable form, so that what a visitor
 * types finds the name however it is written: case and accents go ('São Paulo' and
 * 'sao paulo' are one), letters that Unicode does not decompose are spelled out
 * ('ß' → 'ss', 'ø' → 'o', 'ł' → 'l'), and everything that is not a letter or digit
 * (hyphens, apostrophes, dots, emoji, control characters) becomes one space between
 * words. Used on both sides of the city search: the names when the index is built, the
 * query when it is asked (src/server/cities/fold.test.ts). The letters fold by the rule
 * city page slugs are made with too (src/lib/text-fold.ts).
 */
import { foldLetters } from '../../lib/text-fold.ts';

const SEPARATORS_RE = /[^\p{L}\p{N}]+/gu;
/** Names that are plain ASCII words (most of them) need only lower-casing. */
const PLAIN_RE = /^[A-Za-z0-9]+(?: [A-Za-z0-9]+)*$/;

/** The folded form of a name or query: lower-case letters and digits, single spaces, trimmed. */
export function foldName(text: string): string {
  if (PLAIN_RE.test(text)) return text.toLowerCase();
  return foldLetters(text).replace(SEPARATORS_RE, ' ').trim();
}
