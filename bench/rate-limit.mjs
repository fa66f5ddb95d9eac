// `npm run bench:rate-limit`: what counting every request costs, to decide whether the
// rate limit's memory store may be rate-limiter-flexible's RateLimiterMemory or must be
// our own (src/server/rate-limit/memory-store.ts). Three measurements in one run:
// 1. memory held for 1M distinct clients, each store (heap after a forced GC), and ours
//    under 5M distinct clients in one window (its bound);
// 2. cost of one counted request in-process (10k clients, 1M requests): of the store alone,
//    and through the API's limit from IPv4 clients (one count) and IPv6 ones (two: /64, /48);
// 3. /ip and /json (10,000 addresses) throughput with wrk, as ratios to a bare node:http
//    server, with the limit off and with every request counted (a public X-Forwarded-For
//    from 10,000 addresses behind TRUST_PROXY=loopback). Servers on core 1, wrk on core 0;
//    the CPU share of each says which one was the limit. Medians over alternating rounds.
import { execFileSync, execSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { publicAddresses } from './seeded-random.mjs';
import { cpuSeconds, median, wrk } from './wrk.mjs';
import { NODE_FLAGS } from './node-flags.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS || 5);
const SECONDS = Number(process.env.BENCH_SECONDS || 4);
if (!existsSync('dist/server/entry.mjs')) execSync('npm run build', { stdio: 'inherit' });
const { WindowCounts } = await import('../src/server/rate-limit/memory-store.ts');
const { withRateLimit } = await import('../src/server/rate-limit/limit.ts');
const { parseIp } = await import('../src/lib/ip-address.ts');

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');
const heapMb = () => { gc(); gc(); return process.memoryUsage().heapUsed / 1e6; };
const nth = (n) => `${11 + (n >>> 24)}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;

// 1. Memory for 1M distinct clients.
async function memoryFor(makeHit) {
  const before = heapMb();
  const hit = makeHit();
  for (let i = 0; i < 1_000_000; i++) await hit(nth(i));
  const mb = heapMb() - before;
  return { mb, keep: hit };
}
const ours = await memoryFor(() => { const s = new WindowCounts(); return (k) => s.hit(k, 300); });
const theirs = await memoryFor(() => { const s = new RateLimiterMemory({ points: 300, duration: 60 }); return (k) => s.consume(k).catch(() => {}); });
const memory = { 'WindowCounts (ours), MB per 1M clients': +ours.mb.toFixed(0), 'RateLimiterMemory, MB per 1M clients': +theirs.mb.toFixed(0) };
ours.keep = theirs.keep = undefined;
// Our store's bound: 5M distinct clients inside one window (a fixed clock), one client past the limit before them.
const bounded = new WindowCounts({ now: () => 0 });
for (let i = 0; i < 301; i++) bounded.hit('8.8.4.4', 300);
const boundBefore = heapMb();
for (let i = 0; i < 5_000_000; i++) bounded.hit(nth(i), 300);
memory['WindowCounts after 5M clients, MB'] = +(heapMb() - boundBefore).toFixed(0);
memory['clients kept'] = bounded.size;
memory['limited client still limited'] = bounded.hit('8.8.4.4', 300).used > 300;

// 2. Cost of one counted request, 10k clients.
async function nsPerHit(hit, sync) {
  const keys = Array.from({ length: 10_000 }, (_, i) => nth(i));
  const t = performance.now();
  for (let i = 0; i < 1_000_000; i++) { const r = hit(keys[i % keys.length]); if (!sync) await r; }
  return ((performance.now() - t) * 1e6) / 1_000_000;
}
const counts = new WindowCounts();
const limiter = new RateLimiterMemory({ points: 1_000_000, duration: 60 });
/** A counted request through the API's limit, from the nth of 10k clients of one family. */
const OK = { status: 200, headers: {}, body: 'ok\n' };
const request = (ip) => ({ method: 'GET', path: '/ip', query: new URLSearchParams(), headers: { get: () => null }, clientIp: ip, clientAddress: parseIp(ip), body: async () => Buffer.alloc(0) });
async function nsPerRequest(address) {
  const limit = withRateLimit({ perMinute: 1_000_000, guards: () => true }, [() => OK]);
  const requests = Array.from({ length: 10_000 }, (_, i) => request(address(i)));
  const t = performance.now();
  for (let i = 0; i < 1_000_000; i++) limit(requests[i % requests.length]);
  return ((performance.now() - t) * 1e6) / 1_000_000;
}
const cost = {
  'WindowCounts.hit, ns': Math.round(await nsPerHit((k) => counts.hit(k, 1_000_000), true)),
  'RateLimiterMemory.consume (awaited), ns': Math.round(await nsPerHit((k) => limiter.consume(k), false)),
  'IPv4 request through the limit, ns': Math.round(await nsPerRequest(nth)),
  'IPv6 request through the limit (/64 and /48), ns': Math.round(await nsPerRequest((i) => `2a00:${(i >>> 8).toString(16)}:${(i & 255).toString(16)}:${i.toString(16)}::1`)),
};

// 3. Throughput over sockets.
const hasTaskset = (() => { try { execFileSync('taskset', ['-V'], { stdio: 'ignore' }); return true; } catch { return false; } })();
const PIN = hasTaskset && os.availableParallelism() >= 2;
const freePort = () => new Promise((resolve) => { const s = createServer().listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); }); });
async function start(args, env) {
  const port = await freePort();
  const [cmd, argv] = PIN ? ['taskset', ['-c', '1', process.execPath, ...NODE_FLAGS, ...args]] : [process.execPath, [...NODE_FLAGS, ...args]];
  const child = spawn(cmd, argv, { env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), STUN_PORT: '0', WEB_CONCURRENCY: '1', DATA_REFRESH: 'off', REVERSE_DNS: 'off', ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => { if (String(d).includes('listening on')) resolve(); });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  while (!(await fetch(`http://127.0.0.1:${port}/ip`).then((r) => r.ok, () => false))) await new Promise((r) => setTimeout(r, 20));
  return { child, base: `http://127.0.0.1:${port}` };
}
const list = await publicAddresses(0x2545f491);
const bare = await start(['bench/bare-server.mjs'], {});
const off = await start(['src/server/main.ts'], { RATE_LIMIT: '0' });
const counted = await start(['src/server/main.ts'], { RATE_LIMIT: '1000000', TRUST_PROXY: 'loopback' });
const rows = [
  ['bare /', bare, list.map(() => ['/'])],
  ['ours /ip, limit off', off, list.map(() => ['/ip'])],
  ['ours /ip, every request counted', counted, list.map((ip) => ['/ip', ip])],
  ['ours /json, 10k addresses, limit off', off, list.map((ip) => [`/json?ip=${ip}`])],
  ['ours /json, 10k addresses, every request counted', counted, list.map((ip) => [`/json?ip=${ip}`, ip])],
];
const results = Object.fromEntries(rows.map(([name]) => [name, { rps: [], p99: [], errors: 0, serverCpu: [], wrkCpu: [] }]));
for (const [, server, requests] of rows) await wrk({ base: server.base, requests, seconds: 2, cpu: PIN ? 0 : undefined }); // warm-up
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, server, requests] of rows) {
    const cpu0 = cpuSeconds(server.child.pid);
    const r = await wrk({ base: server.base, requests, seconds: SECONDS, cpu: PIN ? 0 : undefined });
    const res = results[name];
    res.rps.push(r.rps); res.p99.push(r.p99); res.errors += r.errors; res.wrkCpu.push(r.wrkCpu);
    res.serverCpu.push((cpuSeconds(server.child.pid) - cpu0) / SECONDS);
  }
}
for (const server of [bare, off, counted]) server.child.kill('SIGTERM');
const ratio = (name) => +median(results[name].rps.map((x, i) => x / results['bare /'].rps[i])).toFixed(3);
const table = rows.map(([name]) => ({
  target: name,
  'req/s (median)': Math.round(median(results[name].rps)),
  'x bare': ratio(name),
  'p99 ms': +median(results[name].p99).toFixed(2),
  'server CPU (cores)': +median(results[name].serverCpu).toFixed(2),
  'wrk CPU (cores)': +median(results[name].wrkCpu).toFixed(2),
  errors: results[name].errors,
}));
const load = os.loadavg()[0].toFixed(1);
console.log(`\nmemory for 1M distinct clients (heap after GC):`);
console.table([memory]);
console.log('one counted request, in-process, 10k clients:');
console.table([cost]);
console.log(`\n${ROUNDS} rounds x ${SECONDS}s, wrk -t1 -c50, ${PIN ? 'servers on core 1, wrk on core 0' : 'not pinned'}, node ${process.version}, load average ${load} (a machine shared with other work)`);
console.table(table);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/rate-limit.json', JSON.stringify({ date: new Date().toISOString(), node: process.version, rounds: ROUNDS, seconds: SECONDS, pinned: PIN, loadAverage: +load, memory, cost, rows: table }, null, 2));
