/**
 * What a stored analytics row holds, in words: content/site/kept-fields.json names every
 * field of a stored lookup and correction (src/server/storage/event.ts makes the rows;
 * tests/kept-fields.test.ts checks the list against them both ways), and this joins a row's
 * labels into the one sentence the footer, /trust, the privacy guide and the analytics tab
 * all show, so none of them can list less than is kept.
 */

/** Which stored row an entry describes. */
export type KeptRow = 'lookup' | 'correction';

/** One entry of content/site/kept-fields.json: the row's fields it covers and their words. */
export interface KeptField {
  row: KeptRow;
  fields: readonly string[];
  label: string;
}

/** The labels of `row`'s entries in file order, joined: 'a', 'a and b', 'a, b and c'. */
export function keptList(entries: readonly KeptField[], row: KeptRow): string {
  const labels = entries.filter((e) => e.row === row).map((e) => e.label);
  if (labels.length < 2) return labels[0] ?? '';
  return `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}`;
}
