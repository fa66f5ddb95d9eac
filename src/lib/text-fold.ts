/**
 * The one rule that folds letters for comparison and for URLs: case and accents go
 * ('São' and 'sao' are one), compatibility forms become their plain letters ('Ｔｏｋｙｏ',
 * 'ﬁ'), and letters that Unicode does not decompose are spelled out ('ß' → 'ss', 'ø' → 'o',
 * 'ł' → 'l'). The city search folds names and queries with it (server/cities/fold.ts), and
 * city page slugs are made with it (lib/content/slug.ts), so `Łódź` is `lodz` in both.
 * What is not a letter is left for each caller to treat: words for the search, hyphens in a slug.
 */

/** Letters NFKD leaves whole, and what they fold to. */
const SPELLED: Readonly<Record<string, string>> = {
  ß: 'ss', ẞ: 'ss', æ: 'ae', Æ: 'ae', œ: 'oe', Œ: 'oe', ø: 'o', Ø: 'o', ł: 'l', Ł: 'l',
  đ: 'd', Đ: 'd', ð: 'd', Ð: 'd', þ: 'th', Þ: 'th', ı: 'i', ħ: 'h', Ħ: 'h', ŧ: 't', Ŧ: 't',
  ĸ: 'k', ſ: 's', ŋ: 'n', Ŋ: 'n',
};
const SPELLED_RE = new RegExp(`[${Object.keys(SPELLED).join('')}]`, 'g');
const MARKS_RE = /\p{M}+/gu;

/** `text` with its letters folded (NFKD, marks removed, undecomposed letters spelled out, lower case); other characters kept. */
export function foldLetters(text: string): string {
  return text
    .normalize('NFKD')
    .replace(MARKS_RE, '')
    .replace(SPELLED_RE, (c) => SPELLED[c]!)
    .toLowerCase();
}
