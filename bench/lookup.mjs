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
import { seededRandom } from './seeded-random.mjs';

const ROUNDS = Number(process.env.ROUNDS || 9);
// V8 needs about 100k calls before lookup() runs at its optimised speed (measured: rounds
// climb from ~90k/s to a plateau by the tenth); a server is always past that point.
const WARMUP = Number(process.env.WARMUP || 10);
const COUNT = 10_000;
const importStart = performance.now();
const { createEngine } = await import('../src/server/lookup/engine.ts');
const { isPublicIp } = await import('../src/lib/ip-address.ts');
const { Reader } = await import('mmdb-lib');

const startBegin = performance.now();
const engine = await createEngine();
const startMs = performance.now() - startBegin;
const rssLoaded = process.memoryUsage().rss;

// Deterministic addresses.
const random = seededRandom(0x1b873593);
const require = createRequire(import.meta.url);
const v6Prefixes = readFileSync(require.resolve('@ip-location-db/asn/asn-ipv6.csv'), 'utf8')
  .split('\n').filter(Boolean).map((line) => line.slice(0, line.indexOf(',')));
const hex16 = () => Math.floor(random() * 65536).toString(16);
function makeAddresses() {
  const addresses = [];
  while (addresses.length < COUNT) {
    if (random() < 0.7) {
      const ip = [0, 0, 0, 0].map(() => Math.floor(random() * 256)).join('.');
      if (isPublicIp(ip)) addresses.push(ip);
    } else {
      // A random host inside a random allocated prefix: keep its first 48 bits.
      const prefix = v6Prefixes[Math.floor(random() * v6Prefixes.length)];
      const groups = prefix.replace(/::$/, '').split(':').concat(['0', '0', '0']).slice(0, 3);
      addresses.push(`${groups.join(':')}:${hex16()}:${hex16()}:${hex16()}:${hex16()}:${hex16()}`);
    }
  }
  return addresses;
}
const addresses = makeAddresses();
const freshLists = Array.from({ length: WARMUP + ROUNDS }, makeAddresses);

const userAgents = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:125.0) Gecko/20100101 Firefox/125.0',
  'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
  'curl/8.5.0',
];
// Headers in the shape the server hands over (src/server/app.ts: node's lower-cased object).
const headerGetter = (values) => ({ get: (name) => values[name.toLowerCase()] ?? null });
const browserContexts = userAgents.map((ua) => ({
  headers: headerGetter({ 'user-agent': ua, 'sec-ch-ua': '"Chromium";v="124", "Google Chrome";v="124", "Not-A.Brand";v="99"', 'sec-ch-ua-platform': '"Windows"' }),
  clientInfo: { timezone: 'Europe/Berlin', language: 'en-GB' },
  webrtc: { candidates: ['8.8.4.4', 'a1b2c3.local'] },
}));

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
run('lookup(ip, browser context: UA, hints, tz, WebRTC)', (ip, i) => engine.lookup(ip, browserContexts[i % 5]).data.confidence_score);
run('lookup(ip), control: a new list every round', (ip) => engine.lookup(ip).data.confidence_score, (round) => freshLists[round]);

// The same addresses through mmdb-lib's own Reader.get, for both city files: why
// src/server/lookup/mmdb-reader.ts walks and decodes itself.
const files = ['dbip-city-mmdb/dbip-city', 'geolite2-city-mmdb/geolite2-city'];
const readers = files.map((f) => [4, 6].map((v) => new Reader(readFileSync(require.resolve(`@ip-location-db/${f}-ipv${v}.mmdb`)))));
run('mmdb-lib Reader.get on both city files (reference)', (ip) => {
  const family = ip.includes(':') ? 1 : 0;
  return (readers[0][family].get(ip) ? 1 : 0) + (readers[1][family].get(ip) ? 1 : 0);
});
console.log(`RSS after the runs                                   ${Math.round(process.memoryUsage().rss / 1048576)} MiB (includes the mmdb-lib reference copies)`);
