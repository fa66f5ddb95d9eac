// Lookup engine benchmark (`npm run bench:lookup`): engine start time, RSS with every
// database loaded, and in-process lookup() throughput on one core over a fixed list of
// 10,000 public addresses (70% IPv4 drawn uniformly from public space, 30% IPv6 inside
// allocated prefixes from the ASN data), generated from a fixed seed. Each scenario runs
// ROUNDS times after WARMUP rounds; the median is printed. Nothing is cached per address;
// a control run with a new list every round shows what repeating one list gains anyway
// (the CPU caches, the reader's string cache and the city sources' decoded-record caches stay warm).
// Options (env): ROUNDS=9, WARMUP=10, DIST_DIR for the compiled ASN index (run `npm run build` first,
// or the engine compiles the CSV at start and the start time shows it).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import { addressLists, BROWSER_CONTEXTS } from './addresses.mjs';

const ROUNDS = Number(process.env.ROUNDS || 9);
// V8 needs about 100k calls before lookup() runs at its optimised speed (measured: rounds
// climb from ~90k/s to a plateau by the tenth); a server is always past that point.
const WARMUP = Number(process.env.WARMUP || 10);
const COUNT = 10_000;
const importStart = performance.now();
const { createEngine } = await import('../src/server/lookup/engine.ts');
const { Reader } = await import('mmdb-lib');

const startBegin = performance.now();
const engine = await createEngine();
const startMs = performance.now() - startBegin;
const rssLoaded = process.memoryUsage().rss;

// Deterministic addresses.
const makeAddresses = addressLists(0x1b873593, COUNT);
const addresses = makeAddresses();
const freshLists = Array.from({ length: WARMUP + ROUNDS }, makeAddresses);
const require = createRequire(import.meta.url);

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const format = (n) => Math.round(n).toLocaleString('en-US').padStart(9);

// Two rates per round: per wall-clock second, and per second of CPU time the process got
// (user + system, all its threads: GC helpers included, so it is the stricter one). On a
// shared machine the wall clock also counts time other processes held the core.
function run(label, once, listFor = () => addresses) {
  const wall = [];
  const cpu = [];
  let sink = 0;
  for (let round = 0; round < WARMUP + ROUNDS; round++) {
    const list = listFor(round);
    const t = performance.now();
    const c = process.cpuUsage();
    for (let i = 0; i < COUNT; i++) sink += once(list[i], i);
    const used = process.cpuUsage(c);
    if (round < WARMUP) continue;
    wall.push(COUNT / ((performance.now() - t) / 1000));
    cpu.push(COUNT / ((used.user + used.system) / 1e6));
  }
  if (sink < 0) console.log(sink);
  console.log(`${label.padEnd(52)} ${format(median(wall))}/s wall  ${format(median(cpu))}/s CPU  (median of ${ROUNDS}; wall min ${format(Math.min(...wall)).trim()}, max ${format(Math.max(...wall)).trim()})`);
}

console.log(`node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')} on ${os.availableParallelism()} cores`);
console.log(`${COUNT.toLocaleString('en-US')} addresses per list (${addresses.filter((a) => a.includes(':')).length} IPv6), sources: ${engine.sources.join(', ')}`);
console.log(`engine start                                         ${Math.round(startMs)} ms (module import ${Math.round(startBegin - importStart)} ms more)`);
console.log(`RSS with every database loaded                       ${Math.round(rssLoaded / 1048576)} MiB`);
run('lookup(ip)', (ip) => engine.lookup(ip).data.confidence_score);
run('lookup(ip, browser context: UA, hints, tz, WebRTC)', (ip, i) => engine.lookup(ip, BROWSER_CONTEXTS[i % 5]).data.confidence_score);
run('lookup(ip), control: a new list every round', (ip) => engine.lookup(ip).data.confidence_score, (round) => freshLists[round]);

// The same addresses through mmdb-lib's own Reader.get, for both city files: why
// src/server/mmdb/reader.ts walks and decodes itself.
const files = ['dbip-city-mmdb/dbip-city', 'geolite2-city-mmdb/geolite2-city'];
const readers = files.map((f) => [4, 6].map((v) => new Reader(readFileSync(require.resolve(`@ip-location-db/${f}-ipv${v}.mmdb`)))));
run('mmdb-lib Reader.get on both city files (reference)', (ip) => {
  const family = ip.includes(':') ? 1 : 0;
  return (readers[0][family].get(ip) ? 1 : 0) + (readers[1][family].get(ip) ? 1 : 0);
});
console.log(`RSS after the runs                                   ${Math.round(process.memoryUsage().rss / 1048576)} MiB (includes the mmdb-lib reference copies)`);
