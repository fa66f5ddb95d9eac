// `npm run bench:json-profile`: where the time of a fresh /json goes. Starts the built server
// with `--cpu-prof` and `--trace-gc-nvp` (and the flags `npm start` uses), drives it with wrk
// (50 connections) first for one address (the memo answers) and then over 10,000 distinct
// public addresses (a fresh lookup each), and prints for each round: CPU µs per request, GC
// pauses per request (scavenges and old-generation collections apart) and bytes allocated per
// request; for the fresh round, the functions with the most self time in the CPU profile and
// their share, and, when `perf` may read the server's counters, its cache misses per request.
// NODE_FLAGS_EXTRA adds Node flags (e.g. `--max-semi-space-size=16`) to compare settings.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { publicAddresses } from './seeded-random.mjs';
import { PIN, cpuSeconds, rssMb, start } from './servers.mjs';
import { wrk } from './wrk.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS || 10);
const EXTRA = (process.env.NODE_FLAGS_EXTRA || '').split(/\s+/).filter(Boolean);
const profDir = mkdtempSync(path.join(tmpdir(), 'json-profile-'));
const dataDir = mkdtempSync(path.join(tmpdir(), 'json-profile-data-'));

const server = await start('ours', [...EXTRA, '--cpu-prof', `--cpu-prof-dir=${profDir}`, '--cpu-prof-interval=200', '--trace-gc-nvp', 'src/server/main.ts'], {
  DATA_DIR: dataDir, ANALYTICS: 'off', DATA_REFRESH: 'off', REVERSE_DNS: 'off',
});
const rssStart = rssMb(server.child.pid);

// --trace-gc-nvp lines, one per collection: gc=s is a scavenge, anything else old generation.
let gcLines = [];
let partial = '';
server.child.stdout.on('data', (d) => {
  const lines = (partial + d).split('\n');
  partial = lines.pop();
  for (const line of lines) if (line.includes(' pause=')) gcLines.push(line);
});
const field = (line, name) => Number(new RegExp(`\\b${name}=([\\d.]+)`).exec(line)?.[1] ?? 0);

const addresses = await publicAddresses(0x2545f491);
const cpu = PIN ? 0 : undefined;
const hasPerf = (() => { try { execFileSync('perf', ['stat', '-e', 'cache-misses', '-p', String(server.child.pid), '--', 'sleep', '0.1'], { stdio: 'ignore' }); return true; } catch { return false; } })();

/** One wrk round over `requests`, with the server's CPU, GC, allocation and (with perf) cache misses. */
async function round(name, requests) {
  await wrk({ base: server.url, requests, seconds: 2, cpu }); // warm-up
  gcLines = [];
  const cpuBefore = cpuSeconds(server.child.pid);
  const perf = hasPerf ? spawn('perf', ['stat', '-x', ',', '-e', 'cycles,instructions,cache-references,cache-misses', '-p', String(server.child.pid), '--', 'sleep', String(SECONDS)], { stdio: ['ignore', 'ignore', 'pipe'] }) : undefined;
  let perfOut = '';
  perf?.stderr.on('data', (d) => { perfOut += d; });
  const perfDone = perf && new Promise((resolve) => perf.on('close', resolve));
  // CLOCK_MONOTONIC in µs: the clock of V8's profile timestamps too.
  const nowUs = () => Number(process.hrtime.bigint() / 1000n);
  const from = nowUs();
  const r = await wrk({ base: server.url, requests, seconds: SECONDS, cpu });
  const window = [from, nowUs()];
  await perfDone;
  const cpuUs = (cpuSeconds(server.child.pid) - cpuBefore) * 1e6;
  const scav = gcLines.filter((l) => /\bgc=s\b/.test(l));
  const old = gcLines.filter((l) => !/\bgc=s\b/.test(l));
  const sum = (ls, f) => ls.reduce((s, l) => s + field(l, f), 0);
  const counters = Object.fromEntries(perfOut.split('\n').map((l) => l.split(',')).filter((f) => f.length > 3 && /^\d+$/.test(f[0])).map((f) => [f[2], Number(f[0])]));
  const perReq = (x) => +(x / r.requests).toFixed(2);
  return {
    name, window, requests: r.requests, rps: Math.round(r.rps), p99ms: r.p99, errors: r.errors,
    cpuUsPerRequest: perReq(cpuUs),
    scavenges: scav.length, scavengeUsPerRequest: perReq(sum(scav, 'pause') * 1000),
    oldGcs: old.length, oldGcUsPerRequest: perReq(sum(old, 'pause') * 1000),
    allocatedBytesPerRequest: Math.round(sum(gcLines, 'allocated') / r.requests),
    promotedBytesPerRequest: Math.round(sum(gcLines, 'promoted') / r.requests),
    ...(counters['cache-misses'] ? {
      cacheMissesPerRequest: Math.round(counters['cache-misses'] / r.requests),
      cacheRefsPerRequest: Math.round(counters['cache-references'] / r.requests),
      instructionsPerRequest: Math.round(counters.instructions / r.requests),
      ipc: +(counters.instructions / counters.cycles).toFixed(2),
    } : {}),
  };
}

const memo = await round('/json, one address (memo)', [['/json?ip=8.8.8.8']]);
const fresh = await round('/json, 10k addresses (fresh)', addresses.map((ip) => [`/json?ip=${ip}`]));
const rssAfter = rssMb(server.child.pid);
server.child.kill('SIGTERM');
await new Promise((resolve) => server.child.on('exit', resolve));

// The profile's samples in each round's window, as µs of self time per request by function.
const file = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
const profile = JSON.parse(readFileSync(path.join(profDir, file), 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
function selfUs({ window: [fromUs, toUs], requests }) {
  const self = new Map();
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = profile.timeDeltas[i];
    t += dt;
    if (t < fromUs || t > toUs) continue;
    const { callFrame: f } = byId.get(profile.samples[i]);
    const key = `${f.functionName || '(anonymous)'} ${f.url ? `${f.url.replace(/^.*\/(src|node_modules|dist)\//, '$1/')}:${f.lineNumber + 1}` : ''}`.trim();
    self.set(key, (self.get(key) ?? 0) + dt / requests);
  }
  return self;
}
const selfMemo = selfUs(memo);
const selfFresh = selfUs(fresh);
rmSync(profDir, { recursive: true, force: true });
rmSync(dataDir, { recursive: true, force: true });

console.log(`\nnode ${process.version}, flags: --max-semi-space-size=4 ${EXTRA.join(' ')}; wrk 50 connections, ${SECONDS} s a round${PIN ? ', server on core 1, wrk on core 0' : ''}${hasPerf ? '' : '; perf cannot read the counters here'}`);
console.table([memo, fresh].map(({ window: _window, requests: _requests, ...r }) => r));
console.log(`fresh minus memo: ${(fresh.cpuUsPerRequest - memo.cpuUsPerRequest).toFixed(1)} µs of CPU, ${fresh.allocatedBytesPerRequest - memo.allocatedBytesPerRequest} bytes allocated per request`);
console.log(`RSS ${rssStart.toFixed(0)} MB after start, ${rssAfter.toFixed(0)} MB after the rounds`);
const busy = (m) => [...m].filter(([k]) => k !== '(idle)').reduce((sum, [, us]) => sum + us, 0);
console.log(`\nCPU profile, self time per request (µs, idle left out): memo ${busy(selfMemo).toFixed(1)}, fresh ${busy(selfFresh).toFixed(1)}; the functions the fresh round spends most in, with their share of its busy time:`);
for (const [key, us] of [...selfFresh].filter(([k]) => k !== '(idle)').sort((a, b) => b[1] - a[1]).slice(0, 25)) {
  console.log(`${us.toFixed(2).padStart(7)} µs ${(100 * us / busy(selfFresh)).toFixed(1).padStart(5)}%  memo ${(selfMemo.get(key) ?? 0).toFixed(2).padStart(6)} µs  ${key}`);
}
