// `npm run bench:asn`: the network pages and their index, one run.
// - The index: loaded from its built file (dist/data/network-index.bin) in a fresh process
//   (bench/asn-load.mjs): time to ready, CPU, RSS it adds after GC and at its peak; with
//   `--build` also built from the data in that process (what a server without the file does
//   in a child process).
// - The pages: the built server started (pinned to core 1 when it can be: bench/servers.mjs),
//   then each page asked as a browser asks (gzip): the largest networks' pages and typical
//   ones (networks ranked 300th, 3,000th, 30,000th by size), and /networks. Per page the
//   Server-Timing of a render (each request with a query string of its own, so no answer is
//   kept: the median, p90 and max of 60, after 20 to warm up) and of an answer kept from an
//   earlier ask (median of 60). Server-Timing runs from the page's start, its data included,
//   to its answer compressed; the budget is 5 ms for the largest, 1 ms for a typical one.
// Needs `npm run build` first.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { decodeNetworkIndex, NETWORK_INDEX_FILE } from '../src/server/networks/index-file.ts';
import { NetworkIndex } from '../src/server/networks/network-index.ts';
import { median, start } from './servers.mjs';

const LARGEST = [8075, 16509, 7018, 4134];
const TYPICAL_RANKS = [300, 3000, 30000];
const RUNS = 60;
const WARM = 20;

const load = (mode) => JSON.parse(execFileSync(process.execPath, ['--expose-gc', 'bench/asn-load.mjs', mode], { encoding: 'utf8' }));
const fixed = (n, digits = 1) => Number(n).toFixed(digits);

console.log('network index');
const loaded = load('file');
console.log(`  from its file: ready in ${fixed(loaded.readyMs)} ms (${fixed(loaded.cpuMs)} ms CPU), RSS +${fixed(loaded.extraRssMb)} MB after GC, `
  + `+${fixed(loaded.peakExtraRssMb)} MB at peak, ${loaded.networks} networks (budget: 300 ms, 50 MB)`);
if (process.argv.includes('--build')) {
  const built = load('build');
  console.log(`  built from the data: ready in ${fixed(built.readyMs / 1000, 2)} s (${fixed(built.cpuMs / 1000, 2)} s CPU), RSS +${fixed(built.peakExtraRssMb)} MB at peak`);
}

const index = new NetworkIndex(decodeNetworkIndex(readFileSync(`dist/${NETWORK_INDEX_FILE}`)));
const typical = TYPICAL_RANKS.map((rank) => index.data.asns[index.data.bySize[rank - 1]]);
const server = await start('server', ['src/server/main.ts'], { RATE_LIMIT: '0', PAGE_RATE_LIMIT: '0', ANALYTICS: 'off' }, '/networks');

/** Server-Timing's duration of one answer, ms. */
async function timing(path) {
  const res = await fetch(server.url + path, { headers: { 'accept-encoding': 'gzip' } });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
  return Number(/dur=([\d.]+)/.exec(res.headers.get('server-timing'))[1]);
}

const pct = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
let round = 0;
async function measure(label, path) {
  for (let i = 0; i < WARM; i++) await timing(`${path}?warm=${round++}`);
  const renders = [];
  for (let i = 0; i < RUNS; i++) renders.push(await timing(`${path}?render=${round++}`));
  for (let i = 0; i < 2; i++) await timing(path);
  const kept = [];
  for (let i = 0; i < RUNS; i++) kept.push(await timing(path));
  const size = Number((await fetch(server.url + path, { headers: { 'accept-encoding': 'gzip' } })).headers.get('content-length'));
  console.log(`  ${label.padEnd(28)} render p50 ${fixed(median(renders), 3)} ms, p90 ${fixed(pct(renders, 0.9), 3)}, max ${fixed(Math.max(...renders), 3)}; `
    + `kept p50 ${fixed(median(kept), 3)} ms; ${fixed(size / 1024)} KB gzip`);
  return median(renders);
}

try {
  console.log(`pages (Server-Timing, ${RUNS} each, after ${WARM} to warm up; server RSS ${fixed(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.child.pid}/status`, 'utf8'))[1]) / 1024)} MB)`);
  const large = [];
  for (const asn of LARGEST) large.push(await measure(`/AS${asn} (largest)`, `/AS${asn}`));
  const small = [];
  for (const [i, asn] of typical.entries()) small.push(await measure(`/AS${asn} (rank ${TYPICAL_RANKS[i]})`, `/AS${asn}`));
  await measure('/networks', '/networks');
  console.log(`  largest: worst median render ${fixed(Math.max(...large), 3)} ms (budget 5); typical: worst median render ${fixed(Math.max(...small), 3)} ms (budget 1)`);
} finally {
  server.child.kill('SIGTERM');
}
