/**
 * Bulk lookup: the pasted-text parser and the response shape of POST /api/lookup/bulk.
 * Shared by the bulk store (browser) and, if it wants, the server's handler.
 */
import * as z from 'zod/mini';
import { IpInfoSchema } from './record.ts';

/** Most addresses one bulk request may carry; the API answers 400 `too_many` past it. */
export const BULK_LIMIT = 100;

/** One row of the bulk answer: the looked-up record, or why this input could not be looked up. */
export const BulkResultSchema = z.union([
  z.object({ input: z.string(), data: IpInfoSchema }),
  z.object({ input: z.string(), error: z.object({ code: z.string(), message: z.string() }) }),
]);
export type BulkResult = z.infer<typeof BulkResultSchema>;

/** Response of POST /api/lookup/bulk: one result per input, in input order. */
export const BulkResponseSchema = z.object({
  count: z.number(),
  results: z.array(BulkResultSchema),
});
export type BulkResponse = z.infer<typeof BulkResponseSchema>;

/** Pasted text split into the addresses to send. */
export interface BulkInput {
  /** Distinct entries in first-seen order: what is sent and what the table shows. */
  ips: string[];
  /** Entries dropped because they repeat an earlier one. */
  duplicates: number;
  /** True when more than BULK_LIMIT distinct entries were pasted (nothing is sent then). */
  tooMany: boolean;
}

/**
 * Splits pasted text on newlines, commas, semicolons and any whitespace; blank pieces are
 * ignored. Exact repeats are removed (a repeated address adds a row with nothing new and
 * would spend the 100-address budget). Bad entries are kept: the API reports them per row.
 */
export function parseBulkInput(text: string): BulkInput {
  const seen = new Set<string>();
  let duplicates = 0;
  for (const piece of text.split(/[\s,;]+/)) {
    if (piece === '') continue;
    if (seen.has(piece)) duplicates++;
    else seen.add(piece);
  }
  const ips = [...seen];
  return { ips, duplicates, tooMany: ips.length > BULK_LIMIT };
}
