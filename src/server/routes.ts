/**
 * The route handlers the server mounts before static files, and the on-demand pages
 * (`/`, `/ip-2`, `/lookup/{ip}`) with their locals.
 * The wiring only: which handlers exist, in which order, and which of them the rate
 * limit guards.
 */
import type { AppRequest, Handler } from './http.ts';
import type { Config } from './config.ts';
import { createApi } from './api.ts';
import { createTextEndpoints, TEXT_PATHS } from './text-endpoints.ts';
import { createEngine, type Engine } from './lookup/engine.ts';
import { withRateLimit } from './rate-limit.ts';
import { createLookupRedirect, isLookupPage, lookupPageLocals } from './lookup-page.ts';

export interface Routes {
  engine: Engine;
  handlers: Handler[];
  /** The on-demand pages: `/` and `/ip-2` (the visitor's record) and each address's `/lookup/{ip}`. */
  isPage: (path: string) => boolean;
  pageLocals: (req: AppRequest) => App.Locals;
}

/** The requests the rate limit counts: the API and the command-line endpoints. */
export const isLimited = (req: AppRequest): boolean => req.path.startsWith('/api/') || TEXT_PATHS.has(req.path);

/** Loads the databases and creates the handlers for a configuration. */
export async function createRoutes(config: Config, distDir: string): Promise<Routes> {
  const engine = await createEngine({ geoipCityDb: config.geoipCityDb, distDir, dataDir: config.dataDir, lists: config.lists });
  return {
    engine,
    handlers: [
      withRateLimit({ perMinute: config.rateLimit, guards: isLimited }, [
        createTextEndpoints(engine),
        createApi(engine, config.client),
      ]),
      createLookupRedirect(),
    ],
    isPage: (path) => path === '/' || path === '/ip-2' || isLookupPage(path),
    pageLocals: (req) => isLookupPage(req.path) ? lookupPageLocals(engine, config.client, req) : {
      clientIp: req.clientIp,
      lookup: engine.lookup(req.clientIp, { headers: req.headers }),
      clientConfig: config.client,
    },
  };
}
