/**
 * Server entry: reads configuration, wires the parts, listens, and shuts down cleanly.
 * Run from the build: `node src/server/main.ts` after `npm run build` (`npm start` does both).
 */
import cluster from 'node:cluster';
import { createServer } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createApp, type PageRenderer } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { loadStaticSite } from './static-site.ts';
import { createRoutes } from './routes.ts';

const DIST = path.resolve(process.env.DIST_DIR || 'dist');

async function loadPageRenderer(): Promise<PageRenderer> {
  const entry = pathToFileURL(path.join(DIST, 'server', 'entry.mjs')).href;
  const { handler } = (await import(entry)) as {
    handler: (req: unknown, res: unknown, next: (err?: unknown) => void, locals: object) => Promise<void>;
  };
  return (req, res, locals) =>
    handler(req, res, (err) => { if (err) throw err; }, locals);
}

async function startWorker(config: Config): Promise<void> {
  const started = performance.now();
  const site = loadStaticSite(DIST);
  const { handlers, pageLocals } = await createRoutes(config);
  const app = createApp({ config, site, handlers, renderPage: await loadPageRenderer(), pageLocals });
  const server = createServer(
    // Slow clients must not pin the process: bounded headers, requests and idle keep-alive.
    { headersTimeout: 10_000, requestTimeout: 30_000, keepAliveTimeout: 5_000, maxHeaderSize: 16 * 1024 },
    app,
  );
  server.listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    console.log(`listening on http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port} (${site.size} static files, ready in ${Math.round(performance.now() - started)} ms)`);
  });

  let stopping = false;
  // While draining, tell keep-alive clients to go so their sockets close with the response.
  server.on('request', (_req, res) => { if (stopping) res.setHeader('connection', 'close'); });
  const stop = () => {
    if (stopping) return;
    stopping = true;
    // Stop accepting, let in-flight requests finish, close idle keep-alive sockets.
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => { server.closeAllConnections(); process.exit(0); }, 10_000).unref();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

function startPrimary(config: Config): void {
  for (let i = 0; i < config.webConcurrency; i++) cluster.fork();
  let stopping = false;
  cluster.on('exit', (worker, code) => {
    if (!stopping) {
      console.error(`worker ${worker.process.pid} exited with ${code}; starting another`);
      cluster.fork();
    } else if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
  });
  const stop = () => {
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

try {
  const config = loadConfig();
  if (config.webConcurrency > 1 && cluster.isPrimary) startPrimary(config);
  else await startWorker(config);
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(`configuration error: ${error.message}`);
    process.exit(2);
  }
  throw error;
}
