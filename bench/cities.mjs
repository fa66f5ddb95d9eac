// `npm run bench:cities`: the city search. In one run:
// 1. the index: time to ready, CPU and extra RSS, loading dist/data/city-index.bin (what the
//    server does) and, for comparison, building it from the packages; fresh processes, medians;
// 2. in-process search latency over 20,000 random prefixes (3 to 12 characters of random
//    place names, seeded), after one warm-up pass: p50, p99, max;
// 3. GET /api/cities throughput against the bare node:http server of bench:api, with wrk
//    (one thread, 50 connections; servers on core 1, wrk on core 0), rounds alternating, the
//    ratio the median of per-round ratios; the servers' and wrk's CPU use shows which side
//    was the limit. Two loads: the 20,000 prefixes in turn (more than the 4,096 answers the
//    handler keeps, so every request searches), and 500 of them (the kept answers serve).
// Targets: ready < 1.5 s, < 60 MB extra RSS, p99 < 1 ms, /api/cities >= 0.5x bare.
// When the servers' CPU stays well under 100%, neither they nor wrk were the limit but the
// machine (other processes): then compare the per-CPU-second columns.
import { execFileSync, execSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { seededRandom } from './seeded-random.mjs';
import { PIN, cpuSeconds, median, start } from './servers.mjs';

const LOADS = Number(process.env.BENCH_LOADS || 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 8);
const DURATION = Number(process.env.BENCH_SECONDS || 3);
const CONNECTIONS = 50;
const QUERIES = 20_000;

if (!existsSync('dist/data/city-index.bin')) execSync('npm run build', { stdio: 'inherit' });

// 1. Loading, each in a fresh process.
const loadOnce = (mode) => JSON.parse(execFileSync(process.execPath, ['--expose-gc', 'bench/cities-load.mjs', mode], { encoding: 'utf8' }));
const loads = { file: [], build: [] };
for (let i = 0; i < LOADS; i++) for (const mode of ['file', 'build']) loads[mode].push(loadOnce(mode));
const loadRow = (mode) => ({
  'ready ms': +median(loads[mode].map((l) => l.readyMs)).toFixed(1),
  'cpu ms': +median(loads[mode].map((l) => l.cpuMs)).toFixed(1),
  'extra RSS MB': +median(loads[mode].map((l) => l.extraRssMb)).toFixed(1),
  'peak extra RSS MB': +median(loads[mode].map((l) => l.peakExtraRssMb)).toFixed(1),
});

// 2. In-process search latency.
const { loadCityIndex } = await import('../src/server/cities/load.ts');
const index = await loadCityIndex({ warn: () => {} }).ready;
if (index instanceof Error) throw index;
const { table } = index.data;
const random = seededRandom(0x9e3779b9);
const queries = Array.from({ length: QUERIES }, () => {
  const i = Math.floor(random() * table.count);
  const name = table.names.slice(table.nameStart[i], table.nameStart[i + 1]);
  return name.slice(0, 3 + Math.floor(random() * 10));
});
for (const q of queries) index.search(q, 5);
const times = new Float64Array(QUERIES);
for (let i = 0; i < QUERIES; i++) {
  const t = performance.now();
  index.search(queries[i], 5);
  times[i] = performance.now() - t;
}
times.sort();
const search = {
  'p50 µs': +(times[QUERIES >> 1] * 1000).toFixed(1),
  'p99 µs': +(times[Math.floor(QUERIES * 0.99)] * 1000).toFixed(1),
  'max µs': +(times[QUERIES - 1] * 1000).toFixed(1),
};

// 3. HTTP throughput with wrk, which reads its paths from a Lua script.
const dir = mkdtempSync(path.join(tmpdir(), 'bench-cities-'));
const luaScript = (name, list) => {
  const file = path.join(dir, `${name}.lua`);
  const paths = list.map((q) => JSON.stringify(`/api/cities?q=${encodeURIComponent(q)}&limit=5`));
  writeFileSync(file, `local paths = {${paths.join(',')}}\nlocal i = 0\nrequest = function()\n  i = i % #paths + 1\n  return wrk.format("GET", paths[i])\nend\n`);
  return file;
};
const distinct = luaScript('distinct', queries);
const repeated = luaScript('repeated', queries.slice(0, 500));

function runWrk(url, script, server) {
  return new Promise((resolve, reject) => {
    const args = ['-t1', `-c${CONNECTIONS}`, `-d${DURATION}s`, '--latency', ...(script ? ['-s', script] : []), url];
    const child = spawn(PIN ? 'taskset' : 'wrk', PIN ? ['-c', '0', 'wrk', ...args] : args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    let wrkCpu = 0;
    const serverCpu0 = cpuSeconds(server.child.pid);
    // wrk's own CPU, sampled while it runs (a process that has exited has no /proc entry).
    const sampler = setInterval(() => { try { wrkCpu = cpuSeconds(child.pid); } catch { /* exited */ } }, 100);
    child.stdout.on('data', (d) => { out += d; });
    child.once('exit', (code) => {
      clearInterval(sampler);
      if (code !== 0) return reject(new Error(`wrk exited with ${code}:\n${out}`));
      const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)[1]);
      const p99 = /99%\s+([\d.]+)(us|ms|s)/.exec(out);
      const p99Ms = Number(p99[1]) * { us: 0.001, ms: 1, s: 1000 }[p99[2]];
      const errors = /Non-2xx or 3xx responses: (\d+)/.exec(out);
      resolve({ rps, p99Ms, serverCpu: (cpuSeconds(server.child.pid) - serverCpu0) / DURATION, wrkCpu: wrkCpu / DURATION, errors: errors ? Number(errors[1]) : 0 });
    });
  });
}

const ours = await start('ours', ['src/server/main.ts'], { WEB_CONCURRENCY: '1' }, '/api/cities?q=lon');
const bare = await start('bare', ['bench/bare-server.mjs'], { WEB_CONCURRENCY: '1' }, '/');
const targets = [
  ['bare /', bare, bare.url + '/', undefined],
  ['ours /api/cities, 20,000 prefixes (searched)', ours, ours.url, distinct],
  ['ours /api/cities, 500 prefixes (kept answers)', ours, ours.url, repeated],
];
for (const [, server, url, script] of targets) await runWrk(url, script, server); // warm-up
const runs = Object.fromEntries(targets.map(([name]) => [name, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, server, url, script] of targets) runs[name].push(await runWrk(url, script, server));
}
for (const server of [ours, bare]) server.child.kill('SIGTERM');

const ratio = (name) => +median(runs[name].map((r, i) => r.rps / runs['bare /'][i].rps)).toFixed(3);
// Requests per CPU-second of the server: what each answer costs, which holds even when other
// processes keep a server from using its whole core (then req/s measures the machine).
const perCpu = (r) => r.rps / Math.max(r.serverCpu, 1e-6);
const cpuRatio = (name) => +median(runs[name].map((r, i) => perCpu(r) / perCpu(runs['bare /'][i]))).toFixed(3);
const httpRows = Object.entries(runs).map(([name, rs]) => ({
  target: name,
  'req/s (median)': Math.round(median(rs.map((r) => r.rps))),
  'x bare': ratio(name),
  'req per server CPU-s': Math.round(median(rs.map(perCpu))),
  'x bare per CPU-s': cpuRatio(name),
  'p99 ms': +median(rs.map((r) => r.p99Ms)).toFixed(2),
  'server CPU': `${Math.round(median(rs.map((r) => r.serverCpu)) * 100)}%`,
  'wrk CPU': `${Math.round(median(rs.map((r) => r.wrkCpu)) * 100)}%`,
  errors: rs.reduce((n, r) => n + r.errors, 0),
}));

console.log(`\ncity index (${index.size.places} places, ${index.size.keys} keys), median of ${LOADS} fresh processes:`);
console.table({ 'load dist/data/city-index.bin': loadRow('file'), 'build from the packages': loadRow('build') });
console.log(`in-process search over ${QUERIES} random prefixes (3-12 characters), limit 5:`);
console.table(search);
console.log(`GET /api/cities, wrk -t1 -c${CONNECTIONS}, ${ROUNDS} rounds x ${DURATION}s, ${PIN ? 'servers on core 1, wrk on core 0' : 'not pinned'}, node ${process.version}:`);
console.table(httpRows);
console.log(`server start (spawn to the first /api/cities answer): ${ours.startMs.toFixed(0)} ms; bare ${bare.startMs.toFixed(0)} ms`);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/cities.json', JSON.stringify({
  date: new Date().toISOString(), node: process.version, pinned: PIN, load: { file: loadRow('file'), build: loadRow('build') },
  search, http: httpRows, startMs: ours.startMs,
}, null, 2));
