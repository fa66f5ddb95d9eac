/**
 * The route handlers the server mounts before static files, the locals of `/`, and the
 * parts /healthz reports on.
 */
import type { AppRequest, Handler } from './app.ts';
import type { Config } from './config.ts';
import { createApi } from './api.ts';
import { createTextEndpoints } from './text-endpoints.ts';
import { createEngine, type Engine } from './lookup/engine.ts';
import { createRateLimit } from './rate-limit.ts';
import { createAnalyticsApi } from './analytics-api.ts';
import { Health } from './health.ts';
import { createAnalytics, type Analytics } from './storage/analytics.ts';

export interface Routes {
  engine: Engine;
  handlers: Handler[];
  pageLocals: (req: AppRequest) => App.Locals;
  /** Records lookups and corrections (a CorrectionRecorder); closed at shutdown. */
  analytics: Analytics;
  health: Health;
}

/** Loads the databases and creates the handlers for a configuration. */
export async function createRoutes(config: Config, distDir: string): Promise<Routes> {
  const engine = await createEngine({ geoipCityDb: config.geoipCityDb, distDir });
  const analytics = createAnalytics({ ...config.analytics, dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  const record = (req: AppRequest, data: App.Locals['lookup']['data']) => analytics.recordLookup(req.clientAddress, data, req.headers);
  return {
    engine,
    handlers: [
      createRateLimit(config.rateLimit),
      createTextEndpoints(engine),
      createAnalyticsApi(analytics, config.analytics.token),
      createApi(engine, config.client, record),
    ],
    pageLocals: (req) => {
      const lookup = engine.lookup(req.clientIp, { headers: req.headers });
      record(req, lookup.data);
      return { clientIp: req.clientIp, lookup, clientConfig: config.client };
    },
    analytics,
    health: new Health().register('analytics', () => analytics.health()),
  };
}
