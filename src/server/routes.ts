/**
 * The route handlers the server mounts before static files, and the locals of `/`.
 * The wiring only: which handlers exist, in which order, and which of them the rate
 * limit guards.
 */
import type { AppRequest, Handler } from './http.ts';
import type { Config } from './config.ts';
import { createApi } from './api.ts';
import { createTextEndpoints, TEXT_PATHS } from './text-endpoints.ts';
import { createEngine, type Engine } from './lookup/engine.ts';
import { withRateLimit } from './rate-limit.ts';
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

/** The requests the rate limit counts: the API and the command-line endpoints. */
export const isLimited = (req: AppRequest): boolean => req.path.startsWith('/api/') || TEXT_PATHS.has(req.path);

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
      withRateLimit({ perMinute: config.rateLimit, guards: isLimited }, [
        createTextEndpoints(engine),
        createCitiesApi(cities),
        createCorrectionsApi(engine, corrections),
        createApi(engine, config.client),
      ]),
    ],
    pageLocals: (req) => ({
      clientIp: req.clientIp,
      lookup: engine.lookup(req.clientIp, { headers: req.headers }),
      clientConfig: config.client,
    }),
  };
}
