/**
 * The answer of a search endpoint (`GET /api/cities`, `GET /api/asn`), one shape for every
 * kind of result: the trimmed query, how many were found, and the results, best first.
 * Callers mark the call with a `@__PURE__` annotation: a module-level call is otherwise kept by the
 * bundler, and zod with it, in the islands that import its module for a constant
 * (tests/js-budget.test.ts keeps zod off `/`).
 */
import * as z from 'zod/mini';

export const searchAnswerOf = <T extends z.ZodMiniType>(result: T) => z.object({
  query: z.string(),
  count: z.number(),
  results: z.array(result),
});
