/**
 * Folding of place names and queries into one comparable form, so that what a visitor
 * types finds the name however it is written: case and accents go ('São Paulo' and
 * 'sao paulo' are one), letters that Unicode does not decompose are spelled out
 * ('ß' → 'ss', 'ø' → 'o', 'ł' → 'l'), and everything that is not a letter or digit
 * (hyphens, apostrophes, dots, emoji, control characters) becomes one space between
 * words. Used on both sides of the city search: the names when the index is built, the
 * query when it is asked (src/server/cities/fold.test.ts).
 */

/** Letters NFKD leaves whole, and what they fold to. */
const SPELLED: Readonly<Record<string, string>> = {
  ß: 'ss', ẞ: 'ss', æ: 'ae', Æ: 'ae', œ: 'oe', Œ: 'oe', ø: 'o', Ø: 'o', ł: 'l', Ł: 'l',
  đ: 'd', Đ: 'd', ð: 'd', Ð: 'd', þ: 'th', Þ: 'th', ı: 'i', ħ: 'h', Ħ: 'h', ŧ: 't', Ŧ: 't',
  ŀ: 'l', Ŀ: 'l', ĸ: 'k', ſ: 's', ŋ: 'n', Ŋ: 'n',
};
const SPELLED_RE = new RegExp(`[${Object.keys(SPELLED).join('')}]`, 'g');
const MARKS_RE = /\p{M}+/gu;
const SEPARATORS_RE = /[^\p{L}\p{N}]+/gu;
/** Names that are plain ASCII words (most of them) need only lower-casing. */
const PLAIN_RE = /^[A-Za-z0-9]+(?: [A-Za-z0-9]+)*$/;

/** The folded form of a name or query: lower-case letters and digits, single spaces, trimmed. */
export function foldName(text: string): string {
  if (PLAIN_RE.test(text)) return text.toLowerCase();
  return text
    .normalize('NFKD')
    .replace(MARKS_RE, '')
    .replace(SPELLED_RE, (c) => SPELLED[c]!)
    .toLowerCase()
    .replace(SEPARATORS_RE, ' ')
    .trim();
}
