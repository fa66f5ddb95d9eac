/**
 * Server entry: reads configuration, builds the server, listens, shuts down cleanly.
 * `npm start` builds once if needed, then runs this file under Node's type stripping.
 */
import cluster from 'node:cluster';
import path from 'node:path';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { createAppServer } from './server.ts';

const DIST = path.resolve(process.env.DIST_DIR || 'dist');
// React (imported by the Astro build) picks its development build unless told otherwise,
// which renders `/` several times slower. Set before that import happens.
process.env.NODE_ENV ||= 'production';

async function startWorker(config: Config): Promise<void> {
  const started = performance.now();
  const { server, site } = await createAppServer(config, DIST);
  server.listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const host = config.host.includes(':') ? `[${config.host}]` : config.host;
    console.log(`listening on http://${host}:${port} (${site.size} static files, ready in ${Math.round(performance.now() - started)} ms)`);
  });

  let stopping = false;
  // While draining, tell keep-alive clients to go so their sockets close with the response.
  // Answers written synchronously (/ip, /) have sent their headers already; those keep the socket until it idles.
  server.on('request', (_req, res) => { if (stopping && !res.headersSent) res.setHeader('connection', 'close'); });
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
