/**
 * The route handlers the server mounts before static files, and the locals of `/`.
 */
import type { AppRequest, Handler } from './app.ts';
import type { Config } from './config.ts';
import { createApi } from './api.ts';
import { createTextEndpoints } from './text-endpoints.ts';
import { createEngine, type Engine } from './lookup/engine.ts';
import { createRateLimit } from './rate-limit.ts';
import { createCitiesApi } from './cities-api.ts';
import { createCorrectionsApi } from './corrections-api.ts';
import { loadCityIndex, type CityIndexHandle } from './cities/load.ts';
import { MemoryCorrections } from './corrections/memory-recorder.ts';

export interface Routes {
  engine: Engine;
  /** The city search index (loading in the background at first). */
  cities: CityIndexHandle;
  /** Where visitors' corrections go: in memory until the analytics store implements CorrectionRecorder. */
  corrections: MemoryCorrections;
  handlers: Handler[];
  pageLocals: (req: AppRequest) => App.Locals;
}

/** Loads the databases and creates the handlers for a configuration. */
export async function createRoutes(config: Config, distDir: string): Promise<Routes> {
  const engine = await createEngine({ geoipCityDb: config.geoipCityDb, distDir });
  const cities = loadCityIndex({ distDir });
  const corrections = new MemoryCorrections();
  return {
    engine,
    cities,
    corrections,
    handlers: [
      createRateLimit(config.rateLimit),
      createTextEndpoints(engine),
      createCitiesApi(cities),
      createCorrectionsApi(engine, corrections),
      createApi(engine, config.client),
    ],
    pageLocals: (req) => ({
      clientIp: req.clientIp,
      lookup: engine.lookup(req.clientIp, { headers: req.headers }),
      clientConfig: config.client,
    }),
  };
}
