// `npm run bench:soak`: the built server under a mixed load for 5 minutes at the highest
// rate the machine holds (wrk is closed-loop: every connection sends its next request as
// soon as the last is answered). One wrk per route, all at once, so each route has its own
// latency figures. Checks: zero errors (socket errors and answers that are not 2xx/3xx),
// and RSS at the end within 10% of RSS after the warm-up. Exits 1 when a check fails.
// The warm-up lasts at least SOAK_WARMUP_SECONDS and then until RSS holds still (under 1%
// growth over 10 s, 3 minutes at most): the bounded caches (decoded city records, the /json
// memo, the rate-limit table) fill at the machine's rate, and a busy machine fills them
// slowly; RSS after the warm-up is the size the server should keep.
// Clients come from 10,000 public addresses (X-Forwarded-For behind TRUST_PROXY=loopback),
// so the rate limit counts every request as it would in production, none of them past it.
// A hostile client runs beside them from start to end (bench/hostile-client.mjs): paths that
// once went unanswered, over raw sockets; a corrections flood from rotating clients; STUN
// Binding requests and garbage. Further checks: every hostile request was answered (a 4xx
// counts), none with a 5xx; at the end the server answers /healthz and STUN.
// SOAK_SECONDS (default 300), SOAK_WARMUP_SECONDS (30), WEB_CONCURRENCY (1).
import { execFileSync, execSync, spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { publicAddresses } from './seeded-random.mjs';
import { rssMb, wrk } from './wrk.mjs';
import { NODE_FLAGS } from './node-flags.mjs';
import { startHostileClient, stunAnswers } from './hostile-client.mjs';

const SECONDS = Number(process.env.SOAK_SECONDS || 300);
const WARMUP = Number(process.env.SOAK_WARMUP_SECONDS || 30);
const WORKERS = process.env.WEB_CONCURRENCY || '1';
if (!existsSync('dist/server/entry.mjs')) execSync('npm run build', { stdio: 'inherit' });
const addresses = await publicAddresses(0x5eed);
const BROWSER = { Accept: 'text/html,application/xhtml+xml', 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/140.0 Safari/537.36' };

/** City searches as visitors type them: the first 3 to 6 letters of well-known places. */
const PLACES = ['london', 'paris', 'berlin', 'munich', 'münchen', 'new york', 'san francisco', 'sao paulo', 'zurich', 'tokyo', 'lisboa', 'köln', 'madrid', 'toronto', 'sydney', 'mumbai', 'cairo', 'lagos', 'seoul', 'mexico'];
const searches = addresses.map((ip, i) => {
  const place = PLACES[i % PLACES.length];
  return [`/api/cities?q=${encodeURIComponent(place.slice(0, 3 + (i % 4)))}`, ip];
});

/**
 * The mixed load, one row per route: its requests ([path, client address]), connections
 * and headers. Add a route here and it is driven, timed and checked like the others. A
 * browser's /api/lookup is recorded for analytics (a row written per request, in a
 * temporary DATA_DIR), so the write-behind queue and the SQLite file soak too.
 */
const ROUTES = [
  { name: '/ (HTML page)', connections: 4, headers: BROWSER, requests: addresses.map((ip) => ['/', ip]) },
  { name: '/json, 10k addresses', connections: 10, requests: addresses.map((ip) => [`/json?ip=${ip}`, ip]) },
  { name: '/ip', connections: 10, requests: addresses.map((ip) => ['/ip', ip]) },
  { name: '/api/lookup, browser (recorded)', connections: 4, headers: { ...BROWSER, Accept: 'application/json' }, requests: addresses.map((ip) => ['/api/lookup', ip]) },
  { name: '/api/cities, typed prefixes', connections: 4, headers: BROWSER, requests: searches },
];

const hasTaskset = (() => { try { execFileSync('taskset', ['-V'], { stdio: 'ignore' }); return true; } catch { return false; } })();
const PIN = hasTaskset && os.availableParallelism() >= 2 && WORKERS === '1';
const port = await new Promise((resolve) => { const s = createServer().listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); }); });
const stunPort = await new Promise((resolve) => { const s = createSocket('udp4').bind(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); }); });
const [cmd, argv] = PIN ? ['taskset', ['-c', '1', process.execPath, ...NODE_FLAGS, 'src/server/main.ts']] : [process.execPath, [...NODE_FLAGS, 'src/server/main.ts']];
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'soak-'));
const server = spawn(cmd, argv, { env: { ...process.env, DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port), STUN_PORT: String(stunPort), TRUST_PROXY: 'loopback', WEB_CONCURRENCY: WORKERS, DATA_REFRESH: 'off', REVERSE_DNS: 'off' }, stdio: ['ignore', 'pipe', 'inherit'] });
await new Promise((resolve, reject) => {
  server.stdout.on('data', (d) => { if (String(d).includes('listening on')) resolve(); });
  server.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
});
const base = `http://127.0.0.1:${port}`;
/** RSS of the server: the primary and its workers together. */
const serverRss = () => {
  const children = (() => { try { return execFileSync('pgrep', ['-P', String(server.pid)], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).map(Number); } catch { return []; } })();
  return [server.pid, ...children].reduce((sum, pid) => sum + rssMb(pid), 0);
};
const runAll = (seconds) => Promise.all(ROUTES.map((route) => wrk({ base, requests: route.requests, headers: route.headers, connections: route.connections, seconds, cpu: PIN ? 0 : undefined })));

// The corrections flood's IPv4 clients are none of the normal loads': it would spend their rate limit.
const normal = new Set(addresses);
const hostile = startHostileClient({ port, stunPort, ipv4: (await publicAddresses(0xc0ffee, 20_000)).filter((ip) => !normal.has(ip)) });
console.log(`warm-up ${WARMUP} s, then ${SECONDS} s of ${ROUTES.map((r) => r.name).join(', ')}, and a hostile client; WEB_CONCURRENCY=${WORKERS}`);
const warm = await runAll(WARMUP);
let rssAfterWarmup = serverRss();
for (let extra = 0; extra < 180; extra += 10) {
  warm.push(...await runAll(10));
  const now = serverRss();
  const settled = now < rssAfterWarmup * 1.01;
  rssAfterWarmup = now;
  if (settled) break;
}
const samples = [];
const sampler = setInterval(() => samples.push(serverRss()), 5000);
const results = await runAll(SECONDS);
clearInterval(sampler);
const rssAtEnd = serverRss();
await hostile.stop();
const serverExited = server.exitCode !== null || server.signalCode !== null;
const healthz = serverExited ? 0 : await fetch(`${base}/healthz`).then((r) => r.status, () => 0);
const stunAlive = !serverExited && await stunAnswers(stunPort);
server.kill('SIGTERM');
await new Promise((resolve) => server.once('exit', resolve));
rmSync(dataDir, { recursive: true, force: true });

const table = ROUTES.map((route, i) => ({
  route: route.name,
  'req/s': Math.round(results[i].rps),
  requests: results[i].requests,
  'p50 ms': +results[i].p50.toFixed(2),
  'p99 ms': +results[i].p99.toFixed(2),
  'max ms': +results[i].max.toFixed(1),
  errors: results[i].errors,
}));
const errors = results.reduce((sum, r) => sum + r.errors, 0) + warm.reduce((sum, r) => sum + r.errors, 0);
const growth = (rssAtEnd - rssAfterWarmup) / rssAfterWarmup;
const load = os.loadavg().map((x) => x.toFixed(1)).join(' ');
console.log(`\n${SECONDS} s, node ${process.version}, ${PIN ? 'server on core 1, wrk on core 0' : 'not pinned'}, load average ${load} (a machine shared with other work)`);
console.table(table);
console.log(`total ${Math.round(results.reduce((s, r) => s + r.rps, 0))} req/s; errors (warm-up and run): ${errors}`);
console.log(`RSS after warm-up ${rssAfterWarmup.toFixed(0)} MB, at the end ${rssAtEnd.toFixed(0)} MB (${(growth * 100).toFixed(1)}%), max during the run ${Math.max(...samples, rssAtEnd).toFixed(0)} MB`);
const { paths, corrections, stun } = hostile.stats;
console.log('\nhostile client, warm-up and run:');
const kinds = { 'odd paths, raw sockets': paths, 'POST /api/corrections': corrections };
console.table(Object.fromEntries(Object.entries(kinds).map(([kind, { statuses: _statuses, ...counts }]) => [kind, counts])));
for (const [kind, { statuses }] of Object.entries(kinds)) console.log(`${kind}: ${Object.entries(statuses).map(([status, n]) => `${n} × ${status}`).join(', ')}`);
console.log(`STUN: ${stun.sent} packets sent (a third garbage), ${stun.answers} answered; at the end: /healthz ${healthz || 'no answer'}, STUN ${stunAlive ? 'answers' : 'does not answer'}`);
const unanswered = paths.unanswered + corrections.unanswered;
const hostile5xx = paths['5xx'] + corrections['5xx'];
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/soak.json', JSON.stringify({ date: new Date().toISOString(), node: process.version, seconds: SECONDS, warmup: WARMUP, workers: WORKERS, pinned: PIN, loadAverage: load, rows: table, errors, rssAfterWarmup, rssAtEnd, rssSamples: samples, errorDetail: results.map((r) => r.errorDetail), hostile: { ...hostile.stats, healthz, stunAlive } }, null, 2));
const failed = [
  errors > 0 && `${errors} errors`,
  Math.abs(growth) > 0.1 && `RSS moved ${(growth * 100).toFixed(1)}% (limit 10%)`,
  unanswered > 0 && `${unanswered} hostile requests unanswered`,
  hostile5xx > 0 && `${hostile5xx} hostile requests answered 5xx`,
  healthz !== 200 && `/healthz at the end: ${healthz || 'no answer'}`,
  !stunAlive && 'STUN did not answer at the end',
].filter(Boolean);
console.log(failed.length ? `FAILED: ${failed.join('; ')}` : 'PASSED: zero errors, RSS within 10% of its size after warm-up, every hostile request answered below 500, the server alive at the end');
process.exit(failed.length ? 1 : 0);
