// `npm run bench:api`: our built server against a bare node:http server (same number of
// processes), loaded with wrk at 50 connections on 127.0.0.1. Prints medians and ratios;
// writes bench/results/api.json, and with BENCH_CONTENT=1 the rows of
// content/site/benchmarks.json this bench measures (shown on /performance).
//
// How it keeps the comparison fair on a small, noisy, shared machine:
// - wrk, not autocannon: autocannon (JavaScript) tops out near 46k req/s on one core, below
//   what the bare server answers; wrk (C) drives it to ~70k. Each round also records how
//   much of its core every server used: a ratio to bare means something only when the
//   bare server's core was busy (~100%), i.e. the server, not wrk, was the limit.
// - With two or more cores and `taskset`, every server runs on core 1 and wrk on core 0.
// - Rounds alternate the targets, and each ratio is the median of per-round ratios, so
//   drift in the machine's speed hits both sides of a ratio alike. Many short rounds (14 of
//   2 s) beat few long ones: the drift is slow, so neighbours in a round see the same machine.
// - Two "replay" servers, bare node:http answering a fixed copy of our /ip and /json
//   responses (same headers, same body), show the ceiling: what sending our exact bytes
//   costs before any of our code runs.
// - /json is measured on one address (after the first request the memo answers it) and over
//   10,000 distinct public addresses (every answer a fresh lookup); `/` (the HTML page, with
//   the Accept-Encoding a browser sends) for one visitor and for 10,000 distinct visitors
//   (X-Forwarded-For from a trusted loopback proxy), so no memo can stand in for the work.
// - Our server's memory (RSS) is sampled all through the run: the whole run is a few
//   minutes of mixed load.
import { spawn, execSync, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { seededRandom } from './seeded-random.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS || 14);
const DURATION = Number(process.env.BENCH_SECONDS || 2);
const CONNECTIONS = 50;
const WORKERS = process.env.WEB_CONCURRENCY || '1';
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

if (!existsSync('dist/shells/manifest.json')) execSync('npm run build', { stdio: 'inherit' });
try { execFileSync('wrk', ['-v'], { stdio: 'ignore' }); } catch (error) {
  if (error.code === 'ENOENT') throw new Error('bench:api needs wrk (Debian: apt-get install wrk)');
}

const hasTaskset = (() => { try { execFileSync('taskset', ['-V'], { stdio: 'ignore' }); return true; } catch { return false; } })();
const PIN = hasTaskset && os.availableParallelism() >= 2 && process.env.BENCH_PIN !== '0';

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

const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
/** CPU seconds a process has used so far (user + system), from /proc. */
const cpuSeconds = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

// 10,000 distinct public IPv4 addresses from a fixed seed.
const { isPublicIp } = await import('../src/lib/ip-address.ts');
const random = seededRandom(0x2545f491);
const addresses = new Set();
while (addresses.size < 10_000) {
  const ip = [0, 0, 0, 0].map(() => Math.floor(random() * 256)).join('.');
  if (isPublicIp(ip)) addresses.add(ip);
}

// wrk scripts: requests are formatted once per thread in init(), so Lua costs nothing per
// request; done() prints the figures as one JSON line. One thread drives all connections,
// so the shared counter walks the 10,000 addresses in order: an address comes back only
// after 10,000 requests, more than the /json memo keeps (4,096).
const scripts = mkdtempSync(path.join(os.tmpdir(), 'bench-api-'));
const lua = (name, body) => {
  const file = path.join(scripts, `${name}.lua`);
  writeFileSync(file, `${body}
done = function(summary, latency)
  local e = summary.errors
  io.write(string.format('{"requests":%d,"duration":%d,"p50":%d,"p99":%d,"errors":%d,"non2xx":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), e.connect + e.read + e.write + e.timeout, e.status))
end
`);
  return file;
};
const luaList = (items) => `{\n${items.map((s) => JSON.stringify(s)).join(',\n')}\n}`;
const walk = (name, formatted) => lua(name, `local items = ${luaList([...addresses])}
local requests = {}
local i = 0
init = function()
  for k, ip in ipairs(items) do requests[k] = ${formatted} end
end
request = function()
  i = i % #requests + 1
  return requests[i]
end`);
const fixed = (name, headers) => lua(name, `wrk.headers = ${luaTable(headers)}`);
const luaTable = (headers) => `{ ${Object.entries(headers).map(([k, v]) => `[${JSON.stringify(k)}] = ${JSON.stringify(v)}`).join(', ')} }`;
const PAGE_HEADERS = { 'Accept-Encoding': 'br, gzip', 'User-Agent': BROWSER };
const plain = fixed('plain', {});
const jsonWalk = walk('json-walk', 'wrk.format("GET", "/json?ip=" .. ip)');
const pageOne = fixed('page-one', { ...PAGE_HEADERS, 'X-Forwarded-For': '8.8.8.8' });
const pageWalk = walk('page-walk', `wrk.format("GET", "/", { ["X-Forwarded-For"] = ip, ["Accept-Encoding"] = "br, gzip", ["User-Agent"] = ${JSON.stringify(BROWSER)} })`);

const ours = await start('ours', ['src/server/main.ts'], { TRUST_PROXY: 'loopback' });
const rss = rssMb(ours.child.pid);
const bare = await start('bare', ['bench/bare-server.mjs'], {});
const replayIp = await start('replay /ip', ['bench/bare-server.mjs'], { REPLAY_URL: ours.url + '/ip' });
const replayJson = await start('replay /json', ['bench/bare-server.mjs'], { REPLAY_URL: ours.url + '/json?ip=8.8.8.8' });

// `/` with no load: what the server says it spent on a visitor's first page (Server-Timing;
// 50 visitors, as a visitor who reloads is answered from the page memo), and the size sent
// for a typical record.
const pageTimings = [];
for (const ip of [...addresses].slice(0, 50)) {
  const res = await fetch(ours.url + '/', { headers: { ...PAGE_HEADERS, 'Accept-Encoding': 'gzip', 'X-Forwarded-For': ip } });
  pageTimings.push(Number(/total;dur=([\d.]+)/.exec(res.headers.get('server-timing'))[1]));
  await res.arrayBuffer();
}
const typical = await fetch(ours.url + '/', { headers: { ...PAGE_HEADERS, 'Accept-Encoding': 'gzip', 'X-Forwarded-For': '8.8.8.8' } });
const pageBytes = Number(typical.headers.get('content-length'));
await typical.arrayBuffer();

const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : undefined;
const targets = [
  ['bare /', bare, '/', plain],
  ['replay of our /ip', replayIp, '/', plain],
  ['ours /ip', ours, '/ip', plain],
  ['replay of our /json', replayJson, '/', plain],
  ['ours /json?ip=8.8.8.8, memo', ours, '/json?ip=8.8.8.8', plain],
  ['ours /json, 10k addresses, lookups', ours, '/', jsonWalk],
  ['ours / (HTML, br+gzip), one visitor', ours, '/', pageOne],
  ['ours / (HTML, br+gzip), 10k visitors', ours, '/', pageWalk],
].filter(([name]) => !ONLY || name === 'bare /' || ONLY.test(name));
const pinned = PIN ? ['taskset', ['-c', '0', 'wrk']] : ['wrk', []];
function load(server, urlPath, script, duration = DURATION) {
  const cpu0 = cpuSeconds(server.child.pid);
  const out = execFileSync(pinned[0], [...pinned[1], '-t1', `-c${CONNECTIONS}`, `-d${duration}s`, '-s', script, server.url + urlPath], { encoding: 'utf8' });
  const r = JSON.parse(out.trim().split('\n').findLast((l) => l.startsWith('{')));
  return { rps: r.requests / (r.duration / 1e6), p50: r.p50 / 1000, p99: r.p99 / 1000, errors: r.errors + r.non2xx, cpu: (cpuSeconds(server.child.pid) - cpu0) / duration };
}
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

let rssMax = rss;
// Warm up JIT and caches.
for (const [, server, urlPath, script] of targets) load(server, urlPath, script, 2);

const results = Object.fromEntries(targets.map(([name]) => [name, { rps: [], p99: [], p50: [], cpu: [], errors: 0 }]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, server, urlPath, script] of targets) {
    // wrk runs synchronously, so memory is sampled between loads (every 2 s).
    rssMax = Math.max(rssMax, rssMb(ours.child.pid));
    const r = load(server, urlPath, script);
    for (const key of ['rps', 'p99', 'p50', 'cpu']) results[name][key].push(r[key]);
    results[name].errors += r.errors;
  }
}
const rssEnd = rssMb(ours.child.pid);
rssMax = Math.max(rssMax, rssEnd);
for (const server of [ours, bare, replayIp, replayJson]) server.child.kill('SIGTERM');
rmSync(scripts, { recursive: true });

/** Median over rounds of a/b measured in the same round. */
const ratio = (a, b) => +median(results[a].rps.map((x, i) => x / results[b].rps[i])).toFixed(3);
const ceiling = ONLY ? {} : { 'ours /ip': 'replay of our /ip', 'ours /json?ip=8.8.8.8, memo': 'replay of our /json', 'ours /json, 10k addresses, lookups': 'replay of our /json' };
const rows = Object.entries(results).map(([name, r]) => ({
  target: name,
  'req/s (median)': Math.round(median(r.rps)),
  'x bare': ratio(name, 'bare /'),
  'x replay': ceiling[name] ? ratio(name, ceiling[name]) : '',
  'p50 ms': +median(r.p50).toFixed(2),
  'p99 ms': +median(r.p99).toFixed(2),
  'server CPU': `${Math.round(median(r.cpu) * 100)}%`,
  errors: r.errors,
}));
const date = new Date().toISOString();
const load1 = os.loadavg()[0];
console.log(`\n${ROUNDS} rounds x ${DURATION}s, ${CONNECTIONS} connections, wrk -t1, WEB_CONCURRENCY=${WORKERS}, node ${process.version}, ${PIN ? 'servers on core 1, wrk on core 0' : 'not pinned'}; load average at the end ${load1.toFixed(1)} on ${os.availableParallelism()} cores`);
console.table(rows);
const firstByte = median(pageTimings);
console.log(`/ with no load: Server-Timing total ${firstByte.toFixed(3)} ms (median of 50 first visits); ${pageBytes} bytes gzip for 8.8.8.8`);
console.log(`server start (spawn to first answer): ours ${ours.startMs.toFixed(0)} ms, bare ${bare.startMs.toFixed(0)} ms; ours RSS after start ${rss.toFixed(0)} MB, highest during the run ${rssMax.toFixed(0)} MB (${(rssMax / rss).toFixed(2)}x), at the end ${rssEnd.toFixed(0)} MB`);
mkdirSync('bench/results', { recursive: true });
const result = { date, node: process.version, rounds: ROUNDS, seconds: DURATION, connections: CONNECTIONS, workers: WORKERS, pinned: PIN, loadAverage: load1, rows, firstByteMs: firstByte, pageBytes, startMs: ours.startMs, rssMb: rss, rssMaxMb: rssMax, rssEndMb: rssEnd };
writeFileSync('bench/results/api.json', JSON.stringify(result, null, 2));
if (process.env.BENCH_CONTENT === '1') {
  const { writeBenchmarkRows } = await import('./benchmark-rows.mjs');
  writeBenchmarkRows(result);
}
