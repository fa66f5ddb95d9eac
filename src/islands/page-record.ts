/**
 * The visitor's record, carried once by a page. `/` renders the record in five islands;
 * given to each as a prop, Astro would serialize it into each island's `props` (2.5 KB,
 * five times: a fifth of the page). Instead the page writes it once, as a JSON data block
 * before the first island (PageRecordData.astro), and hands each island a PageRecord.
 * Astro serializes an object's own enumerable fields only, so the islands' props carry
 * the marker `{"from":"page"}` while the server renders from the record it holds. An island
 * hydrating finds the marker and reads the block, so its first render is the server's.
 */
import type { LookupResponse } from '../lib/record.ts';

/** The id of the page's data block. */
export const PAGE_RECORD_ID = 'page-record';

export class PageRecord {
  /** What the island's props carry: the only own enumerable field. */
  readonly from = 'page';
  readonly #record: LookupResponse;

  constructor(record: LookupResponse) {
    this.#record = record;
  }

  get record(): LookupResponse {
    return this.#record;
  }
}

/** What an island takes as its first record: the record, the page's (a PageRecord, or its marker once hydrating), or none. */
export type InitialRecord = LookupResponse | PageRecord | { from: 'page' } | null | undefined;

/**
 * The record as the data block's text: JSON with every `<` escaped (`\u003c`, the same
 * string to JSON.parse), so no text in the record can end the element or open a comment.
 */
export function pageRecordJson(record: LookupResponse): string {
  const json = JSON.stringify(record);
  return json.includes('<') ? json.replace(/</g, '\\u003c') : json;
}

/** Each data block parsed once. */
const parsed = new WeakMap<Element, LookupResponse>();

/** The record an island starts from: its own, the page's, or null. */
export function initialRecord(initial: InitialRecord): LookupResponse | null {
  if (!initial) return null;
  if (initial instanceof PageRecord) return initial.record;
  if (!('from' in initial)) return initial;
  const block = typeof document === 'undefined' ? null : document.getElementById(PAGE_RECORD_ID);
  if (!block) return null;
  let record = parsed.get(block);
  if (!record) {
    record = JSON.parse(block.textContent ?? 'null') as LookupResponse;
    parsed.set(block, record);
  }
  return record;
}
