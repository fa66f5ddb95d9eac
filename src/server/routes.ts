/**
 * The route handlers the server mounts before static files, and what the shell pages
 * need per request. The wiring only: which handlers exist, in which order, which of
 * them the rate limit guards, and which values each page fills in.
 */
import type { AppRequest, Handler } from './http.ts';
import type { Config } from './config.ts';
import { createApi } from './api.ts';
import { createTextEndpoints, TEXT_PATHS } from './text-endpoints.ts';
import { createEngine, type Engine } from './lookup/engine.ts';
import { DEVICE_HEADERS } from './lookup/device.ts';
import { withRateLimit } from './rate-limit.ts';
import type { PageValues } from './pages.ts';

export interface Routes {
  engine: Engine;
  handlers: Handler[];
  /** Per shell page (dist/shells), the values only a request knows. */
  pages: Record<string, PageValues>;
}

/** The requests the rate limit counts: the API and the command-line endpoints. */
export const isLimited = (req: AppRequest): boolean => req.path.startsWith('/api/') || TEXT_PATHS.has(req.path);

/** Loads the databases and creates the handlers for a configuration. */
export async function createRoutes(config: Config, distDir: string): Promise<Routes> {
  const engine = await createEngine({ geoipCityDb: config.geoipCityDb, distDir });
  return {
    engine,
    handlers: [
      withRateLimit({ perMinute: config.rateLimit, guards: isLimited }, [
        createTextEndpoints(engine),
        createApi(engine, config.client),
      ]),
    ],
    pages: {
      '/': {
        values: (req) => ({ lookup: engine.lookup(req.clientIp, { headers: req.headers }) }),
        // The record depends on the address and, for `device`, on these headers (lookup/device.ts).
        key: (req) => [req.clientIp, ...DEVICE_HEADERS.map((name) => req.headers.get(name) ?? '')].join('\n'),
      },
    },
  };
}
