/**
 * The route handlers the server mounts before static files, and the locals of `/`.
 * The wiring only: which handlers exist, in which order, and which of them the rate
 * limit guards.
 */
import type { AppRequest, Handler } from './http.ts';
import type { Config } from './config.ts';
import { createApi } from './api.ts';
import { answersCommandLine, createTextEndpoints } from './text-endpoints.ts';
import { createEngine, type Engine } from './lookup/engine.ts';
import { withRateLimit } from './rate-limit.ts';
import { createCitiesApi } from './cities-api.ts';
import { createCorrectionsApi } from './corrections-api.ts';
import { loadCityIndex, type CityIndexHandle } from './cities/load.ts';
import { MemoryCorrections } from './corrections/memory-recorder.ts';
import { createRateLimitStore } from './rate-limit-shared.ts';

export interface Routes {
  engine: Engine;
  /** The city search index (loading in the background at first). */
  cities: CityIndexHandle;
  /** Where visitors' corrections go: in memory until the analytics store implements CorrectionRecorder. */
  corrections: MemoryCorrections;
  handlers: Handler[];
  pageLocals: (req: AppRequest) => App.Locals;
  /** The state of each part for /healthz, as `name: state` lines. */
  health: () => string[];
}

/**
 * The requests the rate limit counts: the API (but /api/config, the same for everyone and
 * cacheable) and whatever the command-line endpoints answer, `/` asked as the API included.
 */
export const isLimited = (req: AppRequest): boolean =>
  (req.path.startsWith('/api/') && req.path !== '/api/config') || answersCommandLine(req);

/** The city index's state for /healthz: it builds in the background when the build did not ship it. */
function cityIndexState(cities: CityIndexHandle): string {
  const current = cities.current();
  return current === undefined ? 'loading' : current instanceof Error ? `missing (${current.message})` : 'ok';
}

/** Loads the databases and creates the handlers for a configuration. */
export async function createRoutes(config: Config, distDir: string): Promise<Routes> {
  const engine = await createEngine({ geoipCityDb: config.geoipCityDb, dbipCityDir: config.dbipCityDir, asnIndex: config.asnIndex, distDir });
  const cities = loadCityIndex({ distDir });
  const corrections = new MemoryCorrections();
  const store = config.rateLimit > 0 ? createRateLimitStore(config) : undefined;
  return {
    engine,
    cities,
    corrections,
    health: () => [
      `rate-limit: ${store ? store.state() : 'off'}`,
      ...engine.dataStates.map(([name, state]) => `data ${name}: ${state}`),
      `data city index: ${cityIndexState(cities)}`,
    ],
    handlers: [
      withRateLimit({ perMinute: config.rateLimit, guards: isLimited, store }, [
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
