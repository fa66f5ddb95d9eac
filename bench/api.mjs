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
import { execSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { publicAddresses } from './seeded-random.mjs';
import { PIN, median, rssMb, start as startServer } from './servers.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS || 14);
const DURATION = Number(process.env.BENCH_SECONDS || 2);
const CONNECTIONS = 50;
const WORKERS = process.env.WEB_CONCURRENCY || '1';

if (!existsSync('dist/server/entry.mjs')) execSync('npm run build', { stdio: 'inherit' });

const start = (name, args, env) => startServer(name, args, { WEB_CONCURRENCY: WORKERS, ...env });

// 10,000 distinct public IPv4 addresses from a fixed seed.
const addresses = await publicAddresses(0x2545f491);
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

const ours = await start('ours', ['src/server/main.ts'], {});
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
];
const load = (options, duration = DURATION) => new Promise((resolve, reject) => {
  autocannon({ ...options, connections: CONNECTIONS, duration, pipelining: 1 }, (err, r) => err ? reject(err) : resolve(r));
});

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
for (const server of [ours, bare, replayIp, replayJson]) server.child.kill('SIGTERM');

/** Median over rounds of a/b measured in the same round. */
const ratio = (a, b) => +median(results[a].rps.map((x, i) => x / results[b].rps[i])).toFixed(3);
const ceiling = { 'ours /ip': 'replay of our /ip', 'ours /json?ip=8.8.8.8, memo': 'replay of our /json', 'ours /json, 10k addresses, lookups': 'replay of our /json' };
const rows = Object.entries(results).map(([name, r]) => ({
  target: name,
  'req/s (median)': Math.round(median(r.rps)),
  'x bare': ratio(name, 'bare /'),
  'x replay': ceiling[name] ? ratio(name, ceiling[name]) : '',
  'p50 ms': median(r.p50),
  'p99 ms': median(r.p99),
  errors: r.errors,
}));
console.log(`\n${ROUNDS} rounds x ${DURATION}s, ${CONNECTIONS} connections, WEB_CONCURRENCY=${WORKERS}, node ${process.version}, ${PIN ? 'servers on core 1, autocannon on core 0' : 'not pinned'}`);
console.table(rows);
console.log(`server start (spawn to first answer): ours ${ours.startMs.toFixed(0)} ms, bare ${bare.startMs.toFixed(0)} ms; ours RSS after start ${rss.toFixed(0)} MB`);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/api.json', JSON.stringify({ date: new Date().toISOString(), node: process.version, rounds: ROUNDS, seconds: DURATION, connections: CONNECTIONS, workers: WORKERS, pinned: PIN, rows, startMs: ours.startMs, rssMb: rss }, null, 2));
