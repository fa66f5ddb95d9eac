/**
 * The answer of `GET /api/data-sources` (src/server/handlers/data-sources-api.ts): each
 * public list source the server fetches, when it was last fetched and whether that is past
 * its age limit. Shared by the server, which writes it, and /trust's list of sources
 * (src/islands/ListSourceAges.tsx), which reads it.
 */
import * as z from 'zod/mini';

export const DataSourceSchema = z.object({
  /** The source's id (content/site/list-sources.json). */
  id: z.string(),
  /** The privacy list it feeds. */
  into: z.string(),
  /** When it was last fetched or confirmed unchanged (ISO 8601), null when never. */
  fetched_at: z.nullable(z.string()),
  /** Past its age limit. */
  stale: z.boolean(),
});

export const DataSourcesSchema = z.object({ sources: z.array(DataSourceSchema) });

export type DataSource = z.infer<typeof DataSourceSchema>;
