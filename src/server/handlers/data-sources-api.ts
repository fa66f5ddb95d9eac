/**
 * `GET /api/data-sources`: each public list source the server fetches (Tor exits, Private
 * Relay, VPN and hosting ranges), when it was last fetched and whether that is stale, from
 * the refresher's state files (src/server/data-update/freshness.ts). /trust shows each
 * source's age from it (src/islands/ListSourceAges.tsx); the shape is src/lib/data-sources.ts.
 * The same for everyone and cheap; kept by the browser for a minute.
 */
import type { DataSource } from '../../lib/data-sources.ts';
import { listFreshness } from '../data-update/freshness.ts';
import { json, methodNotAllowed, type Handler } from '../http/handler.ts';

const HEADERS = { 'cache-control': 'private, max-age=60' };

/** The handler, reading the states under `listsDir` (the privacy lists' folder). */
export function createDataSourcesApi(listsDir: string): Handler {
  // Asked for its path only (its route row, routes.ts).
  return (req) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return methodNotAllowed('GET, HEAD');
    const sources: DataSource[] = listFreshness(listsDir, Date.now()).map(({ id, into, state, stale }) => ({
      id, into, fetched_at: state.fetchedAt === undefined ? null : new Date(state.fetchedAt).toISOString(), stale,
    }));
    return json(200, { sources }, HEADERS);
  };
}
