/**
 * Wires the parts into one node:http server for a configuration: static site, lookup
 * engine and its routes, the shell pages. Used by main.ts and by tests.
 */
import { createServer, type Server } from 'node:http';
import { createApp, type AppListener } from './app.ts';
import type { Config } from './config.ts';
import { loadPages } from './pages.ts';
import { createRoutes, type Routes } from './routes.ts';
import { loadStaticSite, type StaticSite } from './static-site.ts';

export interface BuiltApp { app: AppListener; site: StaticSite; routes: Routes }
export interface AppServer extends BuiltApp { server: Server }

/** Builds the app (its listener also answers in-process: `app.request()`). */
export async function buildApp(config: Config, distDir: string): Promise<BuiltApp> {
  const site = loadStaticSite(distDir);
  const routes = await createRoutes(config, distDir);
  const pages = await loadPages(distDir, routes.pages, { clientConfig: config.client });
  return { app: createApp({ config, site, handlers: routes.handlers, pages }), site, routes };
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
