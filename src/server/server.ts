/**
 * Wires the parts into one node:http server for a configuration: static site, lookup
 * engine and its routes, the Astro renderer for `/`. Used by main.ts and by tests.
 */
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { createApp, type AppListener } from './http/app.ts';
import type { PageRenderer } from './shell/render-capture.ts';
import { ANSWER_DEADLINE_MS } from './http/answer-deadline.ts';
import type { Config } from './config.ts';
import { createRoutes, type Routes } from './routes.ts';
import { loadStaticSite, type StaticSite } from './http/static-site.ts';
import { loadShells } from './shell/load.ts';
import { createShellAnswer } from './shell/answer.ts';
import { createRenderedAnswer } from './shell/rendered-answer.ts';
import { capConnections, descriptorLimit, totalConnectionCap } from './http/connection-cap.ts';

type NodeMiddleware = (req: unknown, res: unknown, next: (err?: unknown) => void, locals: object) => Promise<void>;

/** The Astro handler for on-demand pages, from the build; undefined when there is no build. */
export async function loadPageRenderer(distDir: string): Promise<PageRenderer | undefined> {
  const entry = path.join(distDir, 'server', 'entry.mjs');
  if (!existsSync(entry)) return undefined;
  const { handler } = (await import(pathToFileURL(entry).href)) as { handler: NodeMiddleware };
  return (req, res, locals) => handler(req, res, (err) => { if (err) throw err; }, locals);
}

/** /trust states the retention it was built with; a server enforcing another should say so. */
function warnOnRetentionMismatch(site: StaticSite, days: number): void {
  const built = site.get('/trust')?.body.toString('utf8').match(/data-retention-days="(\d+)"/)?.[1];
  if (built && Number(built) !== days) {
    console.warn(`/trust says analytics are kept ${built} days, but ANALYTICS_RETENTION_DAYS is ${days}: rebuild with the same setting`);
  }
}

export interface BuiltApp { app: AppListener; site: StaticSite; routes: Routes }
export interface AppServer extends BuiltApp { server: Server }

/** How long the server waits on a client, and a client on the server, in ms. */
export interface ServerLimits {
  /** From a request's first byte to the end of its headers (node answers 408 past it). */
  headersTimeout: number;
  /** From a request's first byte to the end of its body (node answers 408 past it). */
  requestTimeout: number;
  /** An idle keep-alive connection is closed after it. */
  keepAliveTimeout: number;
  /** From a request's arrival to its answer (answer-deadline.ts; 503 past it). */
  answerDeadline: number;
}

/** Production's limits: slow clients must not pin the process, nor a request that is never answered. */
export const SERVER_LIMITS: Readonly<ServerLimits> = { headersTimeout: 10_000, requestTimeout: 30_000, keepAliveTimeout: 5_000, answerDeadline: ANSWER_DEADLINE_MS };

/**
 * How often node checks headersTimeout and requestTimeout. Its default, 30 s, let slow
 * headers run 15-35 s against a 10 s limit; checked every second, a limit holds to within one.
 */
const CONNECTIONS_CHECKING_INTERVAL_MS = 1_000;

/** Builds the app (its listener also answers in-process: `app.request()`). */
export async function buildApp(config: Config, distDir: string, limits: Partial<ServerLimits> = {}): Promise<BuiltApp> {
  const [routes, renderPage] = await Promise.all([
    createRoutes(config, distDir),
    loadPageRenderer(distDir),
  ]);
  // After the routes: the DNS leak zone is offered only once its responder listens.
  const site = loadStaticSite(distDir, routes.client.dnsLeakZone);
  warnOnRetentionMismatch(site, config.analytics.retentionDays);
  const placeholderLocals = (ip: string) => ({ clientIp: ip, lookup: routes.engine.lookup(ip), clientConfig: routes.client, query: ip });
  const shellFor = renderPage && await loadShells(renderPage, distDir, placeholderLocals, routes.table.shellPages);
  const page = renderPage && { rendered: createRenderedAnswer(renderPage), shell: shellFor && createShellAnswer(shellFor) };
  const answerDeadlineMs = limits.answerDeadline ?? SERVER_LIMITS.answerDeadline;
  return { app: createApp({ config, site, routes: routes.table, page, health: routes.health, answerDeadlineMs }), site, routes };
}

/**
 * Builds the server (not yet listening), with production's limits unless told others, under
 * its connection caps (http/connection-cap.ts), which /healthz reports.
 */
export async function createAppServer(config: Config, distDir: string, limits: Partial<ServerLimits> = {}): Promise<AppServer> {
  const { headersTimeout, requestTimeout, keepAliveTimeout, answerDeadline } = { ...SERVER_LIMITS, ...limits };
  const { app, site, routes } = await buildApp(config, distDir, { answerDeadline });
  const server = createServer(
    { headersTimeout, requestTimeout, keepAliveTimeout, connectionsCheckingInterval: CONNECTIONS_CHECKING_INTERVAL_MS, maxHeaderSize: 16 * 1024 },
    app,
  );
  const total = config.connections.total ?? totalConnectionCap(descriptorLimit());
  const capped = capConnections(server, { perClient: config.connections.perClient, total }, config.trustProxy);
  routes.health.note(() => [capped.describe()]);
  return { server, app, site, routes };
}
