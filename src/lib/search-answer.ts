/**
 * The answer of a search endpoint (`GET /api/cities`, `GET /api/asn`), one shape for every
 * kind of result: the trimmed query, how many were found, and the results, best first.
 */
import * as z from 'zod/mini';

export const searchAnswerOf = <T extends z.ZodMiniType>(result: T) => z.object({
  query: z.string(),
  count: z.number(),
  results: z.array(result),
});
