/**
 * The route handlers the server mounts before static files, and the on-demand pages
 * (`/`, `/ip-2`, `/lookup/{ip}`) with their locals.
 * The wiring only: which handlers exist, in which order, which of them the rate limit
 * guards (and the pages' own limit), what is recorded for analytics, and the parts /healthz
 * reports on.
 */
import type { AppRequest, Handler } from './http/handler.ts';
import type { Config } from './config.ts';
import type { LookupResponse } from '../lib/record.ts';
import { createApi } from './handlers/lookup-api.ts';
import { answersCommandLine, createTextEndpoints } from './handlers/command-line-api.ts';
import { createEngine, type Engine } from './lookup/engine.ts';
import { createPageLimit, withRateLimit, type PageLimit } from './rate-limit/limit.ts';
import { createCitiesApi } from './handlers/cities-api.ts';
import { createCorrectionsApi, keepSameOrigin } from './handlers/corrections-api.ts';
import { loadCityIndex, type CityIndexHandle } from './cities/load.ts';
import { anyLimitOn, createRateLimitStore } from './rate-limit/shared-stores.ts';
import { createAnalyticsApi } from './handlers/analytics-api.ts';
import { Health, type PartHealth } from './http/health.ts';
import { createAnalytics, type Analytics } from './storage/analytics.ts';
import { createLookupRedirect, isLookupPage, lookupPageLocals } from './handlers/lookup-page.ts';
import { createAsnApi, createNetworkRedirects, isNetworkPage, NETWORKS_HUB, networkPageLocals, networksHubLocals } from './handlers/asn-api.ts';
import { loadNetworkIndex, type NetworkIndexHandle } from './networks/load.ts';
import { dbipCityFiles } from './lookup/sources.ts';
import { startDnsLeakTest, type DnsLeakTest } from './dns/leak-test.ts';
import { createDnsLeakApi, isDnsLeakStart } from './handlers/dns-leak-api.ts';
import { EngineHolder } from './lookup/engine-holder.ts';
import { freshnessReport } from './data-update/freshness.ts';
import path from 'node:path';
import { createDataSourcesApi } from './handlers/data-sources-api.ts';
import { createReverseDns, REVERSE_DNS_OFF } from './dns/reverse-dns.ts';
import { createHostnameEndpoint, isHostnameRequest } from './handlers/hostname-api.ts';
import { setHostname } from './dns/record-hostname.ts';
import { createPortCheck, isPortCheck, withoutCors } from './handlers/port-api.ts';

export interface Routes {
  /** The lookup engine, replaced whole when newer databases arrive (engine-holder.ts). */
  engine: Engine & Pick<EngineHolder, 'swapCount' | 'close' | 'data'>;
  /** The city search index (loading in the background at first). */
  cities: CityIndexHandle;
  /** The per-network index behind `/AS{n}`, `/networks` and `/api/asn` (loading in the background at first). */
  networks: NetworkIndexHandle;
  /** Records lookups and corrections (a CorrectionRecorder); closed at shutdown. */
  analytics: Analytics;
  handlers: Handler[];
  /** The on-demand pages: `/` and `/ip-2` (the visitor's record), each address's `/lookup/{ip}`, each network's `/AS{n}` and `/networks`. */
  isPage: (path: string) => boolean;
  pageLocals: (req: AppRequest) => App.Locals | Promise<App.Locals>;
  /** The pages' own rate limit (PAGE_RATE_LIMIT), asked before a page is looked up; undefined when off. */
  pageLimit: PageLimit | undefined;
  health: Health;
  /** The DNS leak test's responder and notes (off without DNS_LEAK_ZONE); closed at shutdown. */
  dnsLeak: DnsLeakTest;
}

/**
 * The requests the rate limit counts: the API (but /api/config, the same for everyone and
 * cacheable) and whatever the command-line endpoints answer, `/` asked as the API included.
 */
export const isLimited = (req: AppRequest): boolean =>
  (req.path.startsWith('/api/') && req.path !== '/api/config') || answersCommandLine(req) || isHostnameRequest(req);

/**
 * The databases' part of /healthz: degraded while any city or ASN database is missing (its
 * fields are empty in every answer), with their names; the lists are lines, not parts (a
 * list not fetched yet leaves its check "not available", and says so).
 */
function databasesHealth(engine: EngineHolder): PartHealth {
  const missing = engine.dataStates().filter(([name, state]) => !name.endsWith(' list') && state !== 'ok').map(([name]) => name);
  return missing.length ? { state: 'degraded', missing } : { state: 'ok' };
}

/** The city index's state for /healthz: it builds in the background when the build did not ship it. */
function cityIndexState(cities: CityIndexHandle): string {
  const current = cities.current();
  if (current instanceof Error) return `missing (${current.message})`;
  const rebuilt = cities.rebuiltBecause();
  const state = current === undefined ? 'loading' : 'ok';
  return rebuilt ? `${state} (rebuilt: ${rebuilt})` : state;
}

/** The network index's state for /healthz, as the city index's. */
function networkIndexState(networks: NetworkIndexHandle): string {
  const current = networks.current();
  if (current instanceof Error) return `missing (${current.message})`;
  const rebuilt = networks.rebuiltBecause();
  const state = current === undefined ? 'loading' : `ok (${current.size} networks)`;
  return rebuilt ? `${state} (rebuilt: ${rebuilt})` : state;
}

/** Loads the databases and creates the handlers for a configuration. */
export async function createRoutes(config: Config, distDir: string): Promise<Routes> {
  const engineOptions = {
    geoipCityDb: config.geoipCityDb, dbipCityDir: config.dbipCityDir, asnIndex: config.asnIndex, distDir,
    dataDir: config.dataDir, lists: config.lists,
  };
  const engine = new EngineHolder(await createEngine(engineOptions)).watch(engineOptions);
  const cities = loadCityIndex({ distDir, file: config.cityIndex });
  const places = (() => { try { return dbipCityFiles(config.dataDir, config.dbipCityDir); } catch (error) { return error as Error; } })();
  const networks = loadNetworkIndex({ asn: engine.data.asn, places, distDir, file: config.networkIndex, dataDir: config.dataDir });
  // Newer ASN or place data in the engine: the network index is built again from it, in the background.
  engine.onSwap((next) => void networks.rebuild(next.data.asn, { distDir: path.resolve(distDir), asnIndex: config.asnIndex, dataDir: config.dataDir, dbipCityDir: config.dbipCityDir }));
  const lists = engine.data.lists;
  const analytics = createAnalytics({ ...config.analytics, dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  const record = (req: AppRequest, data: LookupResponse['data']) => analytics.recordLookup(req.clientAddress, data, req.headers);
  // One store for both limits: the pages' keys are their own (rate-limit/limit.ts), within one bound.
  const store = anyLimitOn(config) ? createRateLimitStore(config) : undefined;
  const dnsLeak = await startDnsLeakTest(config);
  // The page offers the test only while the responder listens: set before anything reads config.client.
  config.client.dnsLeakZone = dnsLeak.zone;
  const reverseDns = config.reverseDns.enabled ? createReverseDns({ servers: config.reverseDns.servers }) : REVERSE_DNS_OFF;
  // A page never waits for DNS: it carries the name when cached, else the lookup starts now
  // and the network card asks /hostname for its answer after load.
  const namedIfKnown = <T extends App.Locals>(locals: T): T => {
    const data = locals.lookup?.data;
    const known = data && reverseDns.cached(data.ip);
    if (known) setHostname(data, known);
    else if (data) void reverseDns.lookup(data.ip);
    return locals;
  };
  return {
    engine,
    cities,
    networks,
    analytics,
    dnsLeak,
    health: new Health().register('analytics', () => analytics.health()).register('databases', () => databasesHealth(engine)).note(() => [
      `rate-limit: ${store ? store.state() : 'off'}`,
      ...engine.dataStates().map(([name, state]) => `data ${name}: ${state}`),
      `data city index: ${cityIndexState(cities)}`,
      `data network index: ${networkIndexState(networks)}`,
      dnsLeak.describe(),
      reverseDns.state(),
    ]).note(freshnessReport({ dataDir: config.dataDir, listsDir: path.dirname(config.lists.tor), refresh: config.refresh.enabled })),
    handlers: [
      keepSameOrigin(withRateLimit({ perMinute: config.rateLimit, guards: isLimited, store }, [
        createTextEndpoints(engine, undefined, reverseDns),
        createHostnameEndpoint(reverseDns),
        createCitiesApi(cities),
        createCorrectionsApi(engine, analytics),
        createAnalyticsApi(analytics, config.analytics.token),
        createAsnApi(networks, lists),
        // Starts have a limit of their own too, in keys of their own: each holds a token 2 minutes.
        withRateLimit({ perMinute: config.dnsLeakRateLimit, guards: isDnsLeakStart, store, scope: 'dns-leak ' }, [createDnsLeakApi(dnsLeak, engine)]),
        createDataSourcesApi(path.dirname(config.lists.tor)),
        // Last: it answers every other /api/ path with its 404.
        createApi(engine, config.client, record, reverseDns),
      ])),
      createLookupRedirect(),
      createNetworkRedirects(),
      // Its own, stricter limit, in keys of its own in the same store: each check is a connect.
      withoutCors(withRateLimit({ perMinute: config.portCheck.perMinute, guards: isPortCheck, store, scope: 'port ' }, [
        createPortCheck({ allowPrivate: config.portCheck.allowPrivate }),
      ])),
    ],
    isPage: (path) => path === '/' || path === '/ip-2' || isLookupPage(path) || isNetworkPage(path) || path === NETWORKS_HUB,
    pageLimit: createPageLimit({ perMinute: config.pageRateLimit, store }),
    // `/` and `/ip-2` show the caller's own record (recorded, as the API's is); an address's
    // page is about that address and is not recorded, as /api/lookup/{ip} is not.
    pageLocals: (req) => {
      if (isLookupPage(req.path)) return namedIfKnown(lookupPageLocals(engine, config.client, req));
      if (isNetworkPage(req.path)) return networkPageLocals(networks, lists, config.client, req);
      if (req.path === NETWORKS_HUB) return networksHubLocals(networks, config.client, req);
      const lookup = engine.lookup(req.clientIp, { headers: req.headers });
      record(req, lookup.data);
      return namedIfKnown({ clientIp: req.clientIp, lookup, clientConfig: config.client });
    },
  };
}
