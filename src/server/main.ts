/**
 * Server entry: reads configuration, builds the server, listens, shuts down cleanly.
 * `npm start` builds once if needed, then runs this file under Node's type stripping.
 */
import cluster from 'node:cluster';
import type { Server } from 'node:http';
import { Server as NetServer } from 'node:net';
import path from 'node:path';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { joinClusterHealth, serveClusterHealth } from './http/cluster-health.ts';
import { serveClusterLimits } from './rate-limit/shared-stores.ts';
import type { Routes } from './routes.ts';
import { createAppServer } from './server.ts';
import { startStunServer, type StunServer } from './udp/stun.ts';
import { serveClusterNotes } from './dns-leak/notes-shared.ts';
import { Refresher } from './data-update/refresher.ts';
import { backoffMs } from './utils/backoff.ts';
import type { PrivacyFlag } from '../lib/privacy.ts';
import { errorMessage } from '../lib/error-message.ts';

const DIST = path.resolve(process.env.DIST_DIR || 'dist');
/** How long idle keep-alive sockets may still send a request after SIGTERM. */
const DRAIN_GRACE_MS = 1000;
// React (imported by the Astro build) picks its development build unless told otherwise,
// which renders `/` several times slower. Set before that import happens.
process.env.NODE_ENV ||= 'production';

/** The refresher, in the one process that fetches (the primary, or the only worker); off with DATA_REFRESH=off. */
function startRefresher(config: Config, onListWritten?: (flag: PrivacyFlag) => void): Refresher | undefined {
  if (!config.refresh.enabled) return undefined;
  return new Refresher({ dataDir: config.dataDir, lists: config.lists, urls: config.refresh.urls, onListWritten }).start();
}

async function startWorker(config: Config): Promise<void> {
  const started = performance.now();
  let server: Server | undefined = undefined; // set once the data is loaded
  let analytics: Routes['analytics'] | undefined = undefined;
  let stun: StunServer | undefined = undefined;
  let dnsLeak: Routes['dnsLeak'] | undefined = undefined;
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void stun?.close();
    void dnsLeak?.close();
    // Asked to stop while loading the data: nothing is in flight yet.
    if (!server) process.exit(0);
    // Stop accepting and let in-flight requests finish. node:http's own close() would also
    // cut idle keep-alive sockets at once, losing a request already on its way in one; they
    // get a grace second to send it (and be answered with Connection: close) first.
    // Then the analytics still queued are written (for up to 5 s) before leaving.
    const exit = () => void (analytics?.close(Date.now() + 5_000) ?? Promise.resolve()).finally(() => process.exit(0));
    NetServer.prototype.close.call(server, exit);
    setTimeout(() => server!.closeIdleConnections(), DRAIN_GRACE_MS).unref();
    setTimeout(() => { server!.closeAllConnections(); exit(); }, 10_000).unref();
  };
  // Before the slow start, so a SIGTERM then ends the process cleanly rather than killing it.
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);

  const app = await createAppServer(config, DIST);
  server = app.server;
  analytics = app.routes.analytics;
  dnsLeak = app.routes.dnsLeak;
  if (dnsLeak.port !== undefined) console.log(`DNS leak test responder on udp and tcp port ${dnsLeak.port} for ${dnsLeak.zone}`);
  // Cluster workers share one UDP socket, as they share the TCP one.
  stun = config.stunPort ? await startStunServer(config.host, config.stunPort) : undefined;
  if (stun) console.log(`STUN responder on udp port ${stun.port}`);
  app.routes.health.note(() => [stun ? stun.describe() : 'stun: off']);
  joinClusterHealth(app.routes.health);
  // While draining, every answer tells its keep-alive client to go (the socket closes after
  // it). Ahead of the app's listener, which sends most answers before returning.
  server.prependListener('request', (_req, res) => { if (stopping) res.setHeader('connection', 'close'); });
  // After the data is loaded: the first fetches run in the background while the server answers.
  // The only process: its own lists reload as soon as the refresher writes them.
  if (!cluster.isWorker) startRefresher(config, (flag) => void app.routes.engine.data.lists?.refresh(flag));
  server.listen(config.port, config.host, () => {
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const host = config.host.includes(':') ? `[${config.host}]` : config.host;
    console.log(`listening on http://${host}:${port} (${app.site.size} static files, ready in ${Math.round(performance.now() - started)} ms)`);
  });
}

function startPrimary(config: Config): void {
  // The workers accept on the shared socket themselves. With node's round-robin default the
  // primary accepts every connection and holds it until a worker takes it, with no cap of its
  // own: under a flood its queue took every descriptor it had, and /healthz went unanswered
  // while the workers' caps (http/connection-cap.ts) held.
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  serveClusterLimits(config);
  serveClusterHealth();
  // Without Redis, the workers' DNS leak notes meet in the primary (dns-leak/notes-shared.ts).
  if (config.dnsLeak.zone && !config.redisUrl) serveClusterNotes();
  const refresher = startRefresher(config);
  for (let i = 0; i < config.webConcurrency; i++) cluster.fork();
  let stopping = false;
  let exitCode = 0;
  // Workers that died before they ever listened, in a row: each waits twice as long to be
  // replaced (1 s up to a minute), so a worker that cannot start is not a fork loop.
  let failedStarts = 0;
  const served = new WeakSet<object>();
  cluster.on('listening', (worker) => { served.add(worker); failedStarts = 0; });
  cluster.on('exit', (worker, code, signal) => {
    if (!stopping) {
      failedStarts = served.has(worker) ? 0 : failedStarts + 1;
      const wait = backoffMs(failedStarts, 1000, 60_000);
      console.error(`worker ${worker.process.pid} died (${signal ?? `exit code ${code}`}); starting another${wait ? ` in ${wait / 1000} s` : ''}`);
      setTimeout(() => { if (!stopping) cluster.fork(); }, wait);
      return;
    }
    // Draining: the primary's exit code is the worst of its workers' (one still loading its
    // modules when asked to stop ends by the SIGTERM itself, which is what was asked).
    if (code !== 0 && signal !== 'SIGTERM') exitCode = code ?? 1;
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(exitCode);
  });
  const stop = () => {
    stopping = true;
    refresher?.stop();
    const workers = Object.values(cluster.workers ?? {});
    // None alive (all waiting to be replaced): nothing to drain.
    if (workers.length === 0) process.exit(exitCode);
    for (const worker of workers) worker?.process.kill('SIGTERM');
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
  // The STUN port taken by another program: say which setting moves or disables it.
  if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE' && (error as NodeJS.ErrnoException).syscall === 'bind') {
    console.error(`STUN_PORT: udp port in use (${errorMessage(error)}); set STUN_PORT to a free port, or 0 to turn the STUN responder off`);
    process.exit(2);
  }
  throw error;
}
