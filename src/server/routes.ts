/**
 * The route handlers the server mounts before static files, and the locals of `/`.
 */
import type { AppRequest, Handler } from './app.ts';
import type { Config } from './config.ts';
import { createApi } from './api.ts';
import { createTextEndpoints } from './text-endpoints.ts';
import { createEngine, type Engine } from './lookup/engine.ts';
import { createRateLimit } from './rate-limit.ts';

export interface Routes {
  engine: Engine;
  handlers: Handler[];
  pageLocals: (req: AppRequest) => App.Locals;
}

/** Loads the databases and creates the handlers for a configuration. */
export async function createRoutes(config: Config, distDir: string): Promise<Routes> {
  const engine = await createEngine({ geoipCityDb: config.geoipCityDb, distDir });
  return {
    engine,
    handlers: [
      createRateLimit(config.rateLimit),
      createTextEndpoints(engine),
      createApi(engine, config.client),
    ],
    pageLocals: (req) => ({
      clientIp: req.clientIp,
      lookup: engine.lookup(req.clientIp, { headers: req.headers }),
      clientConfig: config.client,
    }),
  };
}
