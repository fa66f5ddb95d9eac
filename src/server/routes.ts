/**
 * The wiring: creates the parts (lookup engine, indexes, analytics, DNS parts, rate-limit
 * store) and writes the route table (http/route-table.ts) of the handlers and the on-demand
 * pages, in the order they are asked: for each row, what it claims, which rate-limit classes
 * count it (rate-limit/classes.ts), whether any origin may read its answers, and its
 * handler or page. Also the parts /healthz reports on. No logic of its own: what a part
 * does is in its room.
 */
import type { AppRequest } from './http/handler.ts';
import type { Config } from './config.ts';
import type { LookupResponse } from '../lib/record.ts';
import type { ClientConfig } from '../lib/client-config.ts';
import { routeTable, type Route, type RouteTable } from './http/route-table.ts';
import { createApi } from './handlers/lookup-api.ts';
import { answersCommandLine, COMMAND_LINE_PATHS, createTextEndpoints } from './handlers/command-line-api.ts';
import { createEngine, type Engine } from './lookup/engine.ts';
import { createLimitClasses } from './rate-limit/limit.ts';
import { createCitiesApi } from './handlers/cities-api.ts';
import { createCorrectionsApi } from './handlers/corrections-api.ts';
import { loadCityIndex, type CityIndexHandle } from './cities/load.ts';
import { anyLimitOn } from './rate-limit/classes.ts';
import { createRateLimitStore } from './rate-limit/shared-stores.ts';
import { createAnalyticsApi } from './handlers/analytics-api.ts';
import { Health } from './http/health.ts';
import { createAnalytics, type Analytics } from './storage/analytics.ts';
import { createLookupRedirect, recordPageLocals } from './handlers/lookup-page.ts';
import { createAsnApi, createNetworkRedirects, networkPageLocals, networksHubLocals } from './handlers/asn-api.ts';
import { loadNetworkIndex, type NetworkIndexHandle } from './networks/load.ts';
import { dbipCityFiles } from './data/sources.ts';
import { offeredClientConfig, startDnsLeakTest, type DnsLeakTest } from './dns-leak/leak-test.ts';
import { createDnsLeakApi } from './handlers/dns-leak-api.ts';
import { EngineHolder } from './lookup/engine-holder.ts';
import { freshnessReport } from './data-update/freshness.ts';
import path from 'node:path';
import { createDataSourcesApi } from './handlers/data-sources-api.ts';
import { createReverseDns, REVERSE_DNS_OFF } from './reverse-dns/reverse-dns.ts';
import { createHostnameEndpoint } from './handlers/hostname-api.ts';
import { createPortCheck } from './handlers/port-api.ts';
import { databasesHealth, dataLines } from './lookup/health.ts';

export interface Routes {
  /** The lookup engine, replaced whole when newer databases arrive (engine-holder.ts). */
  engine: Engine & Pick<EngineHolder, 'swapCount' | 'close' | 'data'>;
  /** The city search index (loading in the background at first). */
  cities: CityIndexHandle;
  /** The per-network index behind `/AS{n}`, `/networks` and `/api/asn` (loading in the background at first). */
  networks: NetworkIndexHandle;
  /** Records lookups and corrections (a CorrectionRecorder); closed at shutdown. */
  analytics: Analytics;
  /** Every route: the endpoints and the on-demand pages. */
  table: RouteTable;
  /** The browser's runtime config (/api/config and the pages), the DNS leak zone in it only while its responder listens. */
  client: ClientConfig;
  health: Health;
  /** The DNS leak test's responder and notes (off without DNS_LEAK_ZONE); closed at shutdown. */
  dnsLeak: DnsLeakTest;
}

/** Counted by the API's limit. */
const API = ['api'] as const;

/** Loads the databases and creates the route table for a configuration. */
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
  // One store for every class: each counts in keys of its own (rate-limit/classes.ts), within one bound.
  const store = anyLimitOn(config) ? createRateLimitStore(config) : undefined;
  const dnsLeak = await startDnsLeakTest(config);
  const client = offeredClientConfig(config.client, dnsLeak);
  const reverseDns = config.reverseDns.enabled ? createReverseDns({ servers: config.reverseDns.servers }) : REVERSE_DNS_OFF;
  const textEndpoints = createTextEndpoints(engine, undefined, reverseDns);
  const dnsLeakApi = createDnsLeakApi(dnsLeak, engine);
  const asnApi = createAsnApi(networks, lists);
  const analyticsApi = createAnalyticsApi(analytics, config.analytics.token);
  const api = createApi(engine, client, record, reverseDns);
  const recordPages = recordPageLocals({ engine, clientConfig: client, dns: reverseDns, record });
  const rows: Route[] = [
    ...COMMAND_LINE_PATHS.map((p): Route => ({ path: p, limit: API, cors: true, handler: textEndpoints })),
    { path: '/', when: answersCommandLine, limit: API, cors: true, handler: textEndpoints },
    { path: '/hostname', limit: API, cors: true, handler: createHostnameEndpoint(reverseDns) },
    { path: '/api/cities', limit: API, cors: true, handler: createCitiesApi(cities) },
    // Same-origin only: the site's own pages post corrections, and no answer of it is readable elsewhere.
    { path: '/api/corrections', limit: API, handler: createCorrectionsApi(engine, analytics) },
    { path: '/api/analytics', limit: API, cors: true, handler: analyticsApi },
    { path: '/api/analytics.csv', limit: API, cors: true, handler: analyticsApi },
    { path: '/api/asn', limit: API, cors: true, handler: asnApi },
    { prefix: '/api/asn/', limit: API, cors: true, handler: asnApi },
    // A start holds a token 2 minutes: it has a limit of its own besides the API's.
    { path: '/api/dns-leak', methods: ['POST'], limit: ['api', 'dns-leak-start'], cors: true, handler: dnsLeakApi },
    { path: '/api/dns-leak', limit: API, cors: true, handler: dnsLeakApi },
    { prefix: '/api/dns-leak/', limit: API, cors: true, handler: dnsLeakApi },
    { path: '/api/data-sources', limit: API, cors: true, handler: createDataSourcesApi(path.dirname(config.lists.tor)) },
    // The same for everyone and cacheable: not counted.
    { path: '/api/config', cors: true, handler: api },
    // Last of the API: the lookups, the preflight of every /api/ path, and every other one's 404.
    { prefix: '/api/', limit: API, cors: true, handler: api },
    { path: '/api', cors: true, handler: api },
    { path: '/lookup', methods: ['GET', 'HEAD'], cors: true, handler: createLookupRedirect() },
    { pattern: /^\/as\/?.+$/i, methods: ['GET', 'HEAD'], cors: true, handler: createNetworkRedirects() },
    // No CORS: another site's page must not learn which ports its visitors have open, nor probe them.
    { prefix: '/port/', limit: ['port-check'], handler: createPortCheck({ allowPrivate: config.portCheck.allowPrivate }) },
    // The on-demand pages, asked after the static files.
    { path: '/', limit: ['page'], page: { locals: recordPages.visitor, shell: true } },
    { path: '/ip-2', limit: ['page'], page: { locals: recordPages.visitor, shell: true } },
    { under: '/lookup/', limit: ['page'], page: { locals: recordPages.address, shell: true } },
    { under: '/AS', limit: ['page'], page: { locals: (req) => networkPageLocals(networks, lists, client, req) } },
    { path: '/networks', limit: ['page'], page: { locals: (req) => networksHubLocals(networks, client, req) } },
  ];
  return {
    engine,
    cities,
    networks,
    analytics,
    dnsLeak,
    client,
    health: new Health().register('analytics', () => analytics.health()).register('databases', () => databasesHealth(engine)).note(() => [
      `rate-limit: ${store ? store.state() : 'off'}`,
      ...dataLines(engine),
      `data city index: ${cities.describe()}`,
      `data network index: ${networks.describe()}`,
      dnsLeak.describe(),
      reverseDns.state(),
    ]).note(freshnessReport({ dataDir: config.dataDir, listsDir: path.dirname(config.lists.tor), refresh: config.refresh.enabled })),
    table: routeTable(rows, createLimitClasses(config, store)),
  };
}
