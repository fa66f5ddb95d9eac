/**
 * Wires the parts into one node:http server for a configuration: static site, lookup
 * engine and its routes, the Astro renderer for `/`. Used by main.ts and by tests.
 */
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { createApp, type AppListener, type PageRenderer } from './app.ts';
import type { Config } from './config.ts';
import { createRoutes, type Routes } from './routes.ts';
import { loadStaticSite, type StaticSite } from './static-site.ts';
import { loadShells } from './shell/load.ts';
import { createShellAnswer } from './shell/answer.ts';

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

/** Builds the app (its listener also answers in-process: `app.request()`). */
export async function buildApp(config: Config, distDir: string): Promise<BuiltApp> {
  const [site, routes, renderPage] = await Promise.all([
    Promise.resolve(loadStaticSite(distDir)),
    createRoutes(config, distDir),
    loadPageRenderer(distDir),
  ]);
  warnOnRetentionMismatch(site, config.analytics.retentionDays);
  const shellFor = renderPage && await loadShells(renderPage, distDir, (ip) => ({ clientIp: ip, lookup: routes.engine.lookup(ip), clientConfig: config.client, query: ip }));
  const page = renderPage && { render: renderPage, locals: routes.pageLocals, handles: routes.isPage, shell: shellFor && createShellAnswer(shellFor) };
  return { app: createApp({ config, site, handlers: routes.handlers, page, health: routes.health }), site, routes };
}

/** Builds the server (not yet listening). */
export async function createAppServer(config: Config, distDir: string): Promise<AppServer> {
  const { app, site, routes } = await buildApp(config, distDir);
  const server = createServer(
    // Slow clients must not pin the process: bounded headers, requests and idle keep-alive.
    { headersTimeout: 10_000, requestTimeout: 30_000, keepAliveTimeout: 5_000, maxHeaderSize: 16 * 1024 },
    app,
  );
  return { server, app, site, routes };
}
