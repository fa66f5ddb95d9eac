// `npm run bench:api`: our built server against a bare node:http server (same number of
// processes), loaded with autocannon at 50 connections on 127.0.0.1, rounds alternated so
// machine noise hits both alike. Prints medians and ratios; writes bench/results/api.json.
// Targets (issue 3): /ip >= 0.9x bare req/s; /json >= 0.75x; p99 < 5 ms; start < 2 s; RSS < 400 MB.
import { spawn, execSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import autocannon from 'autocannon';

const ROUNDS = Number(process.env.BENCH_ROUNDS || 5);
const DURATION = Number(process.env.BENCH_SECONDS || 5);
const CONNECTIONS = 50;
const WORKERS = process.env.WEB_CONCURRENCY || '1';

if (!existsSync('dist/server/entry.mjs')) execSync('npm run build', { stdio: 'inherit' });

const freePort = () => new Promise((resolve) => {
  const s = createServer().listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
});

async function start(name, args, env) {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), WEB_CONCURRENCY: WORKERS, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
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

const load = (url) => new Promise((resolve, reject) => {
  autocannon({ url, connections: CONNECTIONS, duration: DURATION, pipelining: 1 }, (err, r) => err ? reject(err) : resolve(r));
});
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

const bare = await start('bare', ['bench/bare-server.mjs'], {});
const ours = await start('ours', ['src/server/main.ts'], {});
const rss = rssMb(ours.child.pid);

const targets = [
  ['bare /', bare.url + '/'],
  ['ours /ip', ours.url + '/ip'],
  ['ours /json', ours.url + '/json?ip=8.8.8.8'],
  ['ours / (HTML page)', ours.url + '/'],
];
// Warm up JIT and caches.
for (const [, url] of targets) await new Promise((r) => autocannon({ url, connections: CONNECTIONS, duration: 2 }, r));

const results = Object.fromEntries(targets.map(([name]) => [name, { rps: [], p99: [], p50: [], errors: 0 }]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, url] of targets) {
    const r = await load(url);
    results[name].rps.push(r.requests.average);
    results[name].p99.push(r.latency.p99);
    results[name].p50.push(r.latency.p50);
    results[name].errors += r.errors + r.non2xx;
  }
}
bare.child.kill('SIGTERM');
ours.child.kill('SIGTERM');

const bareRps = median(results['bare /'].rps);
const rows = Object.entries(results).map(([name, r]) => ({
  target: name,
  'req/s (median)': Math.round(median(r.rps)),
  'x bare': +(median(r.rps) / bareRps).toFixed(3),
  'p50 ms': median(r.p50),
  'p99 ms': median(r.p99),
  errors: r.errors,
}));
console.log(`\n${ROUNDS} rounds x ${DURATION}s, ${CONNECTIONS} connections, WEB_CONCURRENCY=${WORKERS}, node ${process.version}`);
console.table(rows);
console.log(`server start (spawn to first answer): ours ${ours.startMs.toFixed(0)} ms, bare ${bare.startMs.toFixed(0)} ms; ours RSS after start ${rss.toFixed(0)} MB`);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/api.json', JSON.stringify({ date: new Date().toISOString(), node: process.version, rounds: ROUNDS, seconds: DURATION, connections: CONNECTIONS, workers: WORKERS, rows, startMs: ours.startMs, rssMb: rss }, null, 2));
