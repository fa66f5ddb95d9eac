// `npm run bench:api`: our built server against a bare node:http server (same number of
// processes), loaded with autocannon at 50 connections on 127.0.0.1. Prints medians and
// ratios; writes bench/results/api.json.
// Targets (issue 3): /ip >= 0.9x bare req/s; /json >= 0.75x; p99 < 5 ms; start < 2 s; RSS < 400 MB.
//
// How it keeps the comparison fair on a small, noisy machine:
// - With two or more cores and `taskset`, every server runs on core 1 and this process
//   (autocannon) on core 0, so the load generator never takes the server's core.
// - Rounds alternate the targets, and each ratio is the median of per-round ratios, so
//   drift in the machine's speed hits both sides of a ratio alike. Many short rounds (14 of
//   2 s) beat few long ones: the drift is slow, so neighbours in a round see the same machine.
// - Two "replay" servers, bare node:http answering a fixed copy of our /ip and /json
//   responses (same headers, same body), show the ceiling: what sending our exact bytes
//   costs before any of our code runs.
// - /json is measured on one address (after the first request the memo answers it) and over
//   10,000 distinct public addresses (every answer a fresh lookup).
// - Analytics (issue 12): two more servers, identical but for ANALYTICS=on/off, take /json and
//   GET /api/lookup as a browser (User-Agent, Sec-Fetch-Mode, a distinct X-Forwarded-For per
//   request through TRUST_PROXY=loopback): every such lookup is recorded. Target: recording on
//   within 10% of off. /healthz afterwards says how many rows were written and dropped.
import { spawn, execSync, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { seededRandom } from './seeded-random.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS || 14);
const DURATION = Number(process.env.BENCH_SECONDS || 2);
const CONNECTIONS = 50;
const WORKERS = process.env.WEB_CONCURRENCY || '1';

if (!existsSync('dist/server/entry.mjs')) execSync('npm run build', { stdio: 'inherit' });

const hasTaskset = (() => { try { execFileSync('taskset', ['-V'], { stdio: 'ignore' }); return true; } catch { return false; } })();
const PIN = hasTaskset && os.availableParallelism() >= 2 && process.env.BENCH_PIN !== '0';
if (PIN) execFileSync('taskset', ['-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });

const freePort = () => new Promise((resolve) => {
  const s = createServer().listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
});

async function start(name, args, env) {
  const port = await freePort();
  const t0 = performance.now();
  const [cmd, argv] = PIN ? ['taskset', ['-c', '1', process.execPath, ...args]] : [process.execPath, args];
  const child = spawn(cmd, argv, { env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), WEB_CONCURRENCY: WORKERS, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => { if (String(d).includes('listening on')) resolve(); });
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
  });
  // Ready means answering, not just listening.
  while (!(await fetch(`http://127.0.0.1:${port}/ip`).then((r) => r.ok, () => false))) await new Promise((r) => setTimeout(r, 10));
  return { name, child, url: `http://127.0.0.1:${port}`, startMs: performance.now() - t0 };
}

const rssMb = (pid) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024;
};

// 10,000 distinct public IPv4 addresses from a fixed seed.
const { isPublicIp } = await import('../src/lib/ip-address.ts');
const random = seededRandom(0x2545f491);
const addresses = new Set();
while (addresses.size < 10_000) {
  const ip = [0, 0, 0, 0].map(() => Math.floor(random() * 256)).join('.');
  if (isPublicIp(ip)) addresses.add(ip);
}
// Each connection walks the whole list from its own starting point, 200 addresses after the
// previous connection's, so an address comes back only after about 10,000 requests: more than
// the /json memo keeps (4,096), so every answer is a fresh lookup. (autocannon's setupRequest
// would rebuild the request every time and make autocannon itself the bottleneck; lists given
// through setupClient are built once per connection.)
const paths = [...addresses].map((ip) => `/json?ip=${ip}`);
let clients = 0;
const distinct = {
  requests: [{ method: 'GET', path: paths[0] }],
  setupClient: (client) => {
    const at = (clients++ * 200) % paths.length;
    client.setRequests(paths.slice(at).concat(paths.slice(0, at)).map((path) => ({ method: 'GET', path })));
  },
};

// Browser lookups, each from its own address: what the analytics record.
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const browserLookups = [...addresses].map((ip) => ({ method: 'GET', path: '/api/lookup', headers: { 'user-agent': CHROME, 'sec-fetch-mode': 'cors', 'x-forwarded-for': ip } }));
let browserClients = 0;
const browsers = {
  requests: [browserLookups[0]],
  setupClient: (client) => {
    const at = (browserClients++ * 200) % browserLookups.length;
    client.setRequests(browserLookups.slice(at).concat(browserLookups.slice(0, at)));
  },
};

const ours = await start('ours', ['src/server/main.ts'], {});
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-api-analytics-'));
const recording = { TRUST_PROXY: 'loopback', DATA_DIR: dataDir, DATABASE_URL: '' };
const recOn = await start('recording on', ['src/server/main.ts'], { ...recording, ANALYTICS: 'on' });
const recOff = await start('recording off', ['src/server/main.ts'], { ...recording, ANALYTICS: 'off' });
const rss = rssMb(ours.child.pid);
const bare = await start('bare', ['bench/bare-server.mjs'], {});
const replayIp = await start('replay /ip', ['bench/bare-server.mjs'], { REPLAY_URL: ours.url + '/ip' });
const replayJson = await start('replay /json', ['bench/bare-server.mjs'], { REPLAY_URL: ours.url + '/json?ip=8.8.8.8' });

const targets = [
  ['bare /', { url: bare.url + '/' }],
  ['replay of our /ip', { url: replayIp.url + '/' }],
  ['ours /ip', { url: ours.url + '/ip' }],
  ['replay of our /json', { url: replayJson.url + '/' }],
  ['ours /json?ip=8.8.8.8, memo', { url: ours.url + '/json?ip=8.8.8.8' }],
  ['ours /json, 10k addresses, lookups', { url: ours.url, ...distinct }],
  ['ours / (HTML page)', { url: ours.url + '/' }],
  ['recording on: /json, 10k addresses', { url: recOn.url, ...distinct }],
  ['recording off: /json, 10k addresses', { url: recOff.url, ...distinct }],
  ['recording on: /api/lookup as a browser', { url: recOn.url, ...browsers }],
  ['recording off: /api/lookup as a browser', { url: recOff.url, ...browsers }],
];
const load = (options, duration = DURATION) => new Promise((resolve, reject) => {
  autocannon({ ...options, connections: CONNECTIONS, duration, pipelining: 1 }, (err, r) => err ? reject(err) : resolve(r));
});
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

// Warm up JIT and caches.
for (const [, options] of targets) await load(options, 2);

const results = Object.fromEntries(targets.map(([name]) => [name, { rps: [], p99: [], p50: [], errors: 0 }]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, options] of targets) {
    const r = await load(options);
    results[name].rps.push(r.requests.average);
    results[name].p99.push(r.latency.p99);
    results[name].p50.push(r.latency.p50);
    results[name].errors += r.errors + r.non2xx;
  }
}
const recorded = (await (await fetch(recOn.url + '/healthz', { headers: { accept: 'application/json' } })).json()).parts.analytics;
for (const server of [ours, bare, replayIp, replayJson, recOn, recOff]) server.child.kill('SIGTERM');
await new Promise((r) => recOn.child.once('exit', r));
rmSync(dataDir, { recursive: true, force: true });

/** Median over rounds of a/b measured in the same round. */
const ratio = (a, b) => +median(results[a].rps.map((x, i) => x / results[b].rps[i])).toFixed(3);
const ceiling = { 'ours /ip': 'replay of our /ip', 'ours /json?ip=8.8.8.8, memo': 'replay of our /json', 'ours /json, 10k addresses, lookups': 'replay of our /json' };
const recordingOff = { 'recording on: /json, 10k addresses': 'recording off: /json, 10k addresses', 'recording on: /api/lookup as a browser': 'recording off: /api/lookup as a browser' };
const rows = Object.entries(results).map(([name, r]) => ({
  target: name,
  'req/s (median)': Math.round(median(r.rps)),
  'x bare': ratio(name, 'bare /'),
  'x replay': ceiling[name] ? ratio(name, ceiling[name]) : '',
  'x recording off': recordingOff[name] ? ratio(name, recordingOff[name]) : '',
  'p50 ms': median(r.p50),
  'p99 ms': median(r.p99),
  errors: r.errors,
}));
console.log(`\n${ROUNDS} rounds x ${DURATION}s, ${CONNECTIONS} connections, WEB_CONCURRENCY=${WORKERS}, node ${process.version}, ${PIN ? 'servers on core 1, autocannon on core 0' : 'not pinned'}`);
console.table(rows);
console.log(`analytics while recording: ${recorded.written} rows written, ${recorded.dropped} dropped, ${recorded.queued} still queued (state ${recorded.state})`);
console.log(`server start (spawn to first answer): ours ${ours.startMs.toFixed(0)} ms, bare ${bare.startMs.toFixed(0)} ms; ours RSS after start ${rss.toFixed(0)} MB`);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/api.json', JSON.stringify({ date: new Date().toISOString(), node: process.version, rounds: ROUNDS, seconds: DURATION, connections: CONNECTIONS, workers: WORKERS, pinned: PIN, rows, recorded, loadAverage: os.loadavg(), startMs: ours.startMs, rssMb: rss }, null, 2));
