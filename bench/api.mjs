// `npm run bench:api`: our built server against a bare node:http server (same number of
// processes), loaded with wrk (bench/wrk.mjs; autocannon where wrk is not installed, or with
// BENCH_LOADER=autocannon) at 50 connections on 127.0.0.1. Prints medians and ratios, and the
// load generator's CPU share; writes bench/results/api.json.
// BASELINE_DIR=<a copy of the repository's tree at another commit, with node_modules> adds
// that tree's server (ANALYTICS=off) to the same rounds: its /json for one address and over
// 10,000, against ours with ANALYTICS=off, so a change is compared with what it replaced in
// one run. BENCH_ONLY=<regex> runs only the targets whose name matches (the bare one always).
// Targets: /ip >= 0.9x bare req/s; /json >= 0.75x; p99 < 5 ms; start < 2 s; RSS < 400 MB;
// / with gzip >= 0.25x bare, p99 < 10 ms; its first byte < 2 ms on the
// server (Server-Timing) and at most 10 KB sent; /json over 10k addresses >= 0.7x.
//
// How it keeps the comparison fair on a small, noisy machine:
// - With two or more cores and `taskset`, every server runs on core 1 and this process
//   (wrk or autocannon) on core 0, so the load generator never takes the server's core.
// - Rounds alternate the targets, and each ratio is the median of per-round ratios, so
//   drift in the machine's speed hits both sides of a ratio alike. Many short rounds (14 of
//   2 s) beat few long ones: the drift is slow, so neighbours in a round see the same machine.
// - Two "replay" servers, bare node:http answering a fixed copy of our /ip and /json
//   responses (same headers, same body), show the ceiling: what sending our exact bytes
//   costs before any of our code runs.
// - Floors (bench/floor-server.mjs), bare node:http doing one part of a fresh answer and
//   nothing else of ours: /json's answers of the 10,000 addresses sent from a Map, their
//   records put through JSON.stringify, our lookup and JSON.stringify; `/` for 10,000
//   visitors as one page compressed whole at a first visit's level, then with each visitor
//   looked up and their record in the page. A row of ours cannot go above its floor, so a
//   floor under a target says that no design doing that part on Node meets the target.
// - /json is measured on one address (after the first request the memo answers it) and over
//   10,000 distinct public addresses (every answer a fresh lookup).
// - Recording's cost (target: /json within 10% of recording off): /json is not recorded
//   (scripts are not visitors, README), so it shows what analytics being on costs everything else;
//   the recorded path is timed too, as its worst case: a browser's own lookup,
//   `/api/lookup` with a browser's headers, which the server looks up and queues for the
//   analytics store on every request. Two servers, one with ANALYTICS=off, each with its own
//   temporary DATA_DIR (SQLite, the default store); the caller is 127.0.0.1, answered without
//   a database walk, so recording is the largest share of the request it can be.
// - Host names' cost (target: /json with hostnames on, cached, within 10% of off): a third
//   server with REVERSE_DNS=on asks a DNS server in this process on 127.0.0.1
//   (tests/support/dns-server.ts), which names every address (forward-confirmed); every
//   name is asked once before the rounds, so the rounds measure the cached path. The other
//   servers have reverse DNS off (bench/servers.mjs). `/` alone is timed on it too: its
//   first byte must not wait for a name.
import { execSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { wrk } from './wrk.mjs';
import { publicAddresses } from './seeded-random.mjs';
import { PIN, cpuSeconds, median, rssMb, start as startServer } from './servers.mjs';
import { fixtureEnv, startFixtureServer } from '../tests/support/fixture-server.ts';
import { reverseName, startDnsServer } from '../tests/support/dns-server.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS || 14);
const DURATION = Number(process.env.BENCH_SECONDS || 2);
const CONNECTIONS = 50;
const WORKERS = process.env.WEB_CONCURRENCY || '1';
const hasWrk = (() => { try { execSync('wrk -v', { stdio: 'ignore' }); return true; } catch (error) { return error.status === 1; } })();
const LOADER = process.env.BENCH_LOADER || (hasWrk ? 'wrk' : 'autocannon');
const BASELINE_DIR = process.env.BASELINE_DIR;
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : undefined;

if (!existsSync('dist/server/entry.mjs')) execSync('npm run build', { stdio: 'inherit' });

const start = (name, args, env, readyPath) => startServer(name, args, { WEB_CONCURRENCY: WORKERS, ...env }, readyPath);

// 10,000 distinct public IPv4 addresses from a fixed seed.
const addresses = await publicAddresses(0x2545f491);
// Each connection walks its own 200 addresses of the list, over and over: an address comes
// back only after its connection's 199 others, about 10,000 requests in all at 50
// connections, more than the /json memo keeps (4,096) and the pages the shell keeps (512),
// so every answer is a fresh lookup. (autocannon's setupRequest would rebuild the request
// every time and make autocannon itself the bottleneck; lists given through setupClient are
// built once per connection. A connection given all 10,000 took autocannon seconds to set up
// in every round, and the requests that waited for it made the p99 of a 2 s round.)
const OWN = 200;
const ownAddresses = (client) => addresses.slice((client * OWN) % addresses.length).slice(0, OWN);
let clients = 0;
const distinct = {
  // For wrk: one list walked in turn by every connection, so an address comes back after the 9,999 others.
  wrkRequests: addresses.map((ip) => [`/json?ip=${ip}`]),
  requests: [{ method: 'GET', path: `/json?ip=${addresses[0]}` }],
  setupClient: (client) => {
    client.setRequests(ownAddresses(clients++).map((ip) => ({ method: 'GET', path: `/json?ip=${ip}` })));
  },
};

// `/` as a browser asks for it: gzip accepted, and the Fetch Metadata a browser
// sends when it navigates, so the recording server records every visit as it records a
// browser's (a request without Sec-Fetch-Mode is a script's, and is not recorded). One
// visitor reloading (the caller 127.0.0.1, so the same record every time: after its second
// answer, the kept page), and 10,000 distinct visitors, each a fresh lookup and a fresh
// page (the servers trust X-Forwarded-For from loopback, TRUST_PROXY=loopback, so the
// bench can be them).
// Its Accept-Encoding is Chrome's (and Firefox's): the page comes in zstd. SAFARI_PAGE asks as
// Safari does, without zstd: the page comes in gzip.
const BROWSER_PAGE = {
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36',
  'accept-encoding': 'gzip, deflate, br, zstd', accept: 'text/html', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document', 'sec-fetch-site': 'none',
};
const SAFARI_PAGE = { ...BROWSER_PAGE, 'accept-encoding': 'gzip, deflate, br' };
let pageClients = 0;
const visitorsAsking = (headers) => ({
  headers,
  wrkRequests: addresses.map((ip) => ['/', ip]),
  requests: [{ method: 'GET', path: '/', headers: { ...headers, 'x-forwarded-for': addresses[0] } }],
  setupClient: (client) => {
    client.setRequests(ownAddresses(pageClients++).map((ip) => ({ method: 'GET', path: '/', headers: { ...headers, 'x-forwarded-for': ip } })));
  },
});

// The data refresher is off (servers.mjs), as nothing here may ask the internet; with
// BENCH_DATA_REFRESH=on it runs in our servers with every source on a local server serving
// the upstream formats' fixtures (tests/support/fixture-server.ts), to measure what it costs.
const upstream = process.env.BENCH_DATA_REFRESH === 'on' ? await startFixtureServer() : undefined;
const refreshEnv = upstream ? { DATA_REFRESH: 'on', ...fixtureEnv(upstream.base) } : {};
if (upstream) console.log(`data refresher on, sources on ${upstream.base}`);
const dataDirs = [mkdtempSync(path.join(tmpdir(), 'bench-api-on-')), mkdtempSync(path.join(tmpdir(), 'bench-api-off-')), mkdtempSync(path.join(tmpdir(), 'bench-api-dns-'))];
// Every address has a name that resolves back to it, kept an hour.
const named = ['8.8.8.8', ...addresses];
const dns = await startDnsServer(Object.fromEntries(named.flatMap((ip, i) => [
  [reverseName(ip), { ptr: [`host-${i}.bench.test`], ttl: 3600 }], [`host-${i}.bench.test`, { a: [ip], ttl: 3600 }],
])));
const ours = await start('ours', ['src/server/main.ts'], { DATA_DIR: dataDirs[0], TRUST_PROXY: 'loopback', ...refreshEnv });
const oursOff = await start('ours, ANALYTICS=off', ['src/server/main.ts'], { DATA_DIR: dataDirs[1], ANALYTICS: 'off', TRUST_PROXY: 'loopback', ...refreshEnv });
const oursDns = await start('ours, REVERSE_DNS=on', ['src/server/main.ts'], { DATA_DIR: dataDirs[2], TRUST_PROXY: 'loopback', REVERSE_DNS: 'on', DNS_RESOLVERS: dns.address, ...refreshEnv });
// Each name asked once, 32 at a time, so that the rounds find them cached.
for (let i = 0; i < named.length; i += 32) {
  await Promise.all(named.slice(i, i + 32).map(async (ip) => (await fetch(`${oursDns.url}/hostname?ip=${ip}`)).arrayBuffer()));
}
// What a browser sends with its own lookup (src/stores/lookup.ts): recorded when analytics are on.
const browserLookup = {
  headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36', 'sec-fetch-mode': 'cors', accept: 'application/json' },
};
const rss = rssMb(ours.child.pid);
const bare = await start('bare', ['bench/bare-server.mjs'], {});
const replayIp = await start('replay /ip', ['bench/bare-server.mjs'], { REPLAY_URL: ours.url + '/ip' });
const replayJson = await start('replay /json', ['bench/bare-server.mjs'], { REPLAY_URL: ours.url + '/json?ip=8.8.8.8' });
// The floors (bench/floor-server.mjs): node:http doing one part of a fresh answer's work and
// nothing else of ours, with our headers, over the same 10,000 addresses.
const addressFile = path.join(dataDirs[1], 'addresses.txt');
writeFileSync(addressFile, addresses.join('\n'));
const floor = (kind, readyPath, replay = { REPLAY_URL: ours.url + '/json?ip=8.8.8.8' }) =>
  start(`floor: ${kind}`, ['bench/floor-server.mjs'], { FLOOR: kind, FLOOR_ADDRESSES: addressFile, ...replay }, readyPath);
const floors = {
  answers: await floor('answers', `/json?ip=${addresses[0]}`),
  stringify: await floor('stringify', `/json?ip=${addresses[0]}`),
  lookup: await floor('lookup', `/json?ip=${addresses[0]}`),
};
const aPage = { REPLAY_URL: ours.url + '/', REPLAY_HEADERS: JSON.stringify({ ...BROWSER_PAGE, 'accept-encoding': 'identity', 'x-forwarded-for': addresses[9999] }) };
floors.page = await floor('page', '/', aPage);
floors.pageRecord = await floor('page-record', '/', aPage);
if (BASELINE_DIR) dataDirs.push(mkdtempSync(path.join(tmpdir(), 'bench-api-base-')));
const baseline = BASELINE_DIR && await start('baseline', [path.join(BASELINE_DIR, 'src/server/main.ts')], { DATA_DIR: dataDirs[3], ANALYTICS: 'off', TRUST_PROXY: 'loopback' });
const BASE_MEMO = 'baseline /json?ip=8.8.8.8, memo, ANALYTICS=off';
const BASE_JSON = 'baseline /json, 10k addresses, ANALYTICS=off';
const MEMO_OFF = 'ours /json?ip=8.8.8.8, memo, ANALYTICS=off';

const RECORDING_ON = 'ours /api/lookup as a browser, recording on';
const RECORDING_OFF = 'ours /api/lookup as a browser, ANALYTICS=off';
const JSON_ON = 'ours /json, 10k addresses, lookups';
const JSON_OFF = 'ours /json, 10k addresses, ANALYTICS=off';
const MEMO = 'ours /json?ip=8.8.8.8, memo';
const MEMO_DNS = 'ours /json?ip=8.8.8.8, memo, hostnames on (cached)';
const JSON_DNS = 'ours /json, 10k addresses, hostnames on (cached)';
const FLOOR_ANSWERS = 'floor: /json, 10k addresses, their answers from a Map';
const FLOOR_STRINGIFY = 'floor: /json, 10k addresses, JSON.stringify of their records only';
const FLOOR_LOOKUP = 'floor: /json, 10k addresses, our lookup and JSON.stringify only';
const PAGE_VISITORS = 'ours / (HTML page), 10k visitors, zstd';
const FLOOR_PAGE = "floor: / for 10k visitors, one page compressed whole at a first visit's zstd level only";
const FLOOR_PAGE_RECORD = 'floor: / for 10k visitors, that and their lookup and record JSON only';
// Each target with the server it loads, whose CPU share is read over every round: a row
// whose server used less than a whole core was limited by the load generator, not by the
// server, and its ratio says less than it seems (the bare server nears autocannon's own
// ceiling, about 46k req/s on this machine kind).
const targets = [
  ['bare /', bare, { url: bare.url + '/' }],
  ['replay of our /ip', replayIp, { url: replayIp.url + '/' }],
  ['ours /ip', ours, { url: ours.url + '/ip' }],
  ['replay of our /json', replayJson, { url: replayJson.url + '/' }],
  [MEMO, ours, { url: ours.url + '/json?ip=8.8.8.8' }],
  [MEMO_DNS, oursDns, { url: oursDns.url + '/json?ip=8.8.8.8' }],
  [JSON_ON, ours, { url: ours.url, ...distinct }],
  [JSON_DNS, oursDns, { url: oursDns.url, ...distinct }],
  [JSON_OFF, oursOff, { url: oursOff.url, ...distinct }],
  [FLOOR_ANSWERS, floors.answers, { url: floors.answers.url, ...distinct }],
  [FLOOR_STRINGIFY, floors.stringify, { url: floors.stringify.url, ...distinct }],
  [FLOOR_LOOKUP, floors.lookup, { url: floors.lookup.url, ...distinct }],
  ['ours / (HTML page), one visitor, zstd', ours, { url: ours.url + '/', headers: BROWSER_PAGE }],
  [PAGE_VISITORS, ours, { url: ours.url, ...visitorsAsking(BROWSER_PAGE) }],
  [FLOOR_PAGE, floors.page, { url: floors.page.url, ...visitorsAsking(BROWSER_PAGE) }],
  [FLOOR_PAGE_RECORD, floors.pageRecord, { url: floors.pageRecord.url, ...visitorsAsking(BROWSER_PAGE) }],
  ['ours / (HTML page), 10k visitors, gzip (Safari)', ours, { url: ours.url, ...visitorsAsking(SAFARI_PAGE) }],
  ['ours / (HTML page), one visitor, zstd, ANALYTICS=off', oursOff, { url: oursOff.url + '/', headers: BROWSER_PAGE }],
  [RECORDING_ON, ours, { url: ours.url + '/api/lookup', ...browserLookup }],
  [RECORDING_OFF, oursOff, { url: oursOff.url + '/api/lookup', ...browserLookup }],
  ...(baseline ? [
    [MEMO_OFF, oursOff, { url: oursOff.url + '/json?ip=8.8.8.8' }],
    [BASE_MEMO, baseline, { url: baseline.url + '/json?ip=8.8.8.8' }],
    [BASE_JSON, baseline, { url: baseline.url, ...distinct }],
  ] : []),
].filter(([name]) => !ONLY || name === 'bare /' || ONLY.test(name));
/** One round on a target: req/s, p50 and p99 in ms, errors, and the load generator's CPU share of its core (wrk's only). */
const load = async (options, duration = DURATION) => {
  if (LOADER === 'wrk') {
    const url = new URL(options.url);
    const requests = options.wrkRequests ?? [[url.pathname + url.search]];
    const r = await wrk({ base: url.origin, requests, seconds: duration, connections: CONNECTIONS, headers: options.headers ?? {}, cpu: PIN ? 0 : undefined });
    return { rps: r.rps, p50: r.p50, p99: r.p99, errors: r.errors, loaderCpu: r.wrkCpu };
  }
  const r = await new Promise((resolve, reject) => {
    autocannon({ ...options, connections: CONNECTIONS, duration, pipelining: 1 }, (err, out) => err ? reject(err) : resolve(out));
  });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx, loaderCpu: NaN };
};

// Warm up JIT and caches.
for (const [, , options] of targets) await load(options, 2);

/** fetch, once more if the first try met a keep-alive socket the server had just closed. */
const fetchAgain = (url, init) => fetch(url, init).catch(() => fetch(url, init));
// The recording server's queue state (/healthz).
const recording = async () => (await (await fetchAgain(ours.url + '/healthz', { headers: { accept: 'application/json' } })).json()).parts.analytics;
// The rows a recorded round queued are written by a thread on the same pinned core as every
// server: each round starts once that backlog is written, so no target pays for another's
// rows. The wait is counted and reported: it is what the recorded round's rows cost after it.
let drainMs = 0;
const drained = async () => {
  const from = performance.now();
  while ((await recording()).queued > 0) await new Promise((r) => setTimeout(r, 20));
  drainMs += performance.now() - from;
};

const results = Object.fromEntries(targets.map(([name]) => [name, { rps: [], p99: [], p50: [], cpu: [], cpuUs: [], loaderCpu: [], errors: 0 }]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, server, options] of targets) {
    await drained();
    const cpuBefore = cpuSeconds(server.child.pid);
    const r = await load(options);
    const cpuUsed = cpuSeconds(server.child.pid) - cpuBefore;
    results[name].cpu.push(cpuUsed / DURATION);
    results[name].cpuUs.push(cpuUsed * 1e6 / (r.rps * DURATION));
    results[name].rps.push(r.rps);
    results[name].p99.push(r.p99);
    results[name].p50.push(r.p50);
    results[name].loaderCpu.push(r.loaderCpu);
    results[name].errors += r.errors;
  }
}
// `/` alone, no load: the server's own time to the first byte (Server-Timing) and the size
// sent, median over 25 visitors seen for the first time (their page compressed at the
// fast level), then the same visitors again (compressed smaller now) and a third time
// (that page, kept).
const pageAlone = {};
// Visitors whose names the hostnames server has not asked yet: none of the 10,000.
const unasked = Array.from({ length: 25 }, (_, i) => `84.17.1.${i + 1}`);
for (const [pass, server, visitorsOf] of [['first visit', oursOff, addresses.slice(5000, 5025)], ['second visit', oursOff, addresses.slice(5000, 5025)],
  ['third visit', oursOff, addresses.slice(5000, 5025)], ['first visit, hostnames on, name not asked yet', oursDns, unasked],
  ['first visit, hostnames on, name cached', oursDns, addresses.slice(6000, 6025)]]) {
  const dur = [];
  const bytes = [];
  for (const ip of visitorsOf) {
    const res = await fetchAgain(server.url + '/', { headers: { ...BROWSER_PAGE, 'x-forwarded-for': ip } });
    dur.push(Number(/dur=([\d.]+)/.exec(res.headers.get('server-timing'))[1]));
    bytes.push(Number(res.headers.get('content-length')));
    await res.arrayBuffer();
  }
  pageAlone[pass] = { serverMs: median(dur), zstdBytes: median(bytes) };
}

// Memory after sustained load (target: at most 1.5x RSS after start).
const rssAfterLoad = rssMb(ours.child.pid);
// Whether the hostnames server answered from its cache: its names cached and questions failed (timeouts), from /healthz.
const dnsState = (await (await fetchAgain(oursDns.url + '/healthz')).text()).split('\n').find((line) => line.startsWith('reverse-dns:'));

// What the recording server wrote and dropped (its queue is bounded: under this load it may drop, and says so).
await drained();
const analytics = await recording();
for (const server of [ours, oursOff, oursDns, bare, replayIp, replayJson, ...Object.values(floors), baseline].filter(Boolean)) server.child.kill('SIGTERM');
await dns.close();
await new Promise((r) => setTimeout(r, 500));
for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });

/** Median over rounds of a/b measured in the same round. */
const ratio = (a, b) => (results[a] && results[b] ? +median(results[a].rps.map((x, i) => x / results[b].rps[i])).toFixed(3) : NaN);
const ceiling = {
  [RECORDING_ON]: RECORDING_OFF,
  'ours /ip': 'replay of our /ip', 'ours /json?ip=8.8.8.8, memo': 'replay of our /json', 'ours /json, 10k addresses, lookups': 'replay of our /json' };
const rows = Object.entries(results).map(([name, r]) => ({
  target: name,
  'req/s (median)': Math.round(median(r.rps)),
  'x bare': ratio(name, 'bare /'),
  'x replay or off': ceiling[name] ? ratio(name, ceiling[name]) : '',
  'p50 ms': median(r.p50),
  'p99 ms': median(r.p99),
  'server CPU': +median(r.cpu).toFixed(2),
  // What a request cost the server, which other load on the machine changes less than req/s.
  'CPU us/req': +median(r.cpuUs).toFixed(1),
  'loader CPU': LOADER === 'wrk' ? +median(r.loaderCpu).toFixed(2) : '',
  errors: r.errors,
}));
console.log(`\n${ROUNDS} rounds x ${DURATION}s, ${CONNECTIONS} connections, WEB_CONCURRENCY=${WORKERS}, node ${process.version}, ${PIN ? `servers on core 1, ${LOADER} on core 0` : 'not pinned'}, ${LOADER} drives the load; load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
console.table(rows);
const bareCpu = median(results['bare /'].cpu);
if (WORKERS === '1' && bareCpu < 0.9) console.log(`the bare server used ${bareCpu.toFixed(2)} of its core: ${LOADER} or the machine's other load, not the server, set its pace, so every 'x bare' here is too kind`);
const cpuRatio = (a, b) => +median(results[a].cpuUs.map((x, i) => x / results[b].cpuUs[i])).toFixed(3);
if (baseline) console.log(`this tree over BASELINE_DIR's, same rounds, both ANALYTICS=off: req/s of /json over 10k addresses ${ratio(JSON_OFF, BASE_JSON)}x, /json memo ${ratio(MEMO_OFF, BASE_MEMO)}x; server CPU per request ${cpuRatio(JSON_OFF, BASE_JSON)}x and ${cpuRatio(MEMO_OFF, BASE_MEMO)}x`);
console.log(`analytics on / off, same rounds: /json over 10k addresses (not recorded) ${ratio(JSON_ON, JSON_OFF)}x; a browser's own /api/lookup (recorded every time, the writer thread on the same core: worst case, no target) ${ratio(RECORDING_ON, RECORDING_OFF)}x; the recording server's analytics: ${JSON.stringify(analytics)}; waited ${(drainMs / 1000).toFixed(1)} s in all for its queue to be written before rounds`);
console.log(`hostnames on (cached) / off, same rounds: /json memo ${ratio(MEMO_DNS, MEMO)}x; /json over 10k addresses ${ratio(JSON_DNS, JSON_ON)}x; after the rounds, ${dnsState}`);
const floorLine = (row, floorRow) => `${ratio(row, floorRow)}x its floor (the floor ${ratio(floorRow, 'bare /')}x bare)`;
console.log(`against the floors, same rounds: fresh /json ${[FLOOR_ANSWERS, FLOOR_STRINGIFY, FLOOR_LOOKUP].map((f) => `${floorLine(JSON_ON, f)} [${f}]`).join('; ')}; / for 10k visitors ${[FLOOR_PAGE, FLOOR_PAGE_RECORD].map((f) => `${floorLine(PAGE_VISITORS, f)} [${f}]`).join('; ')}`);
console.log(`RSS of ours: ${rss.toFixed(0)} MB after start, ${rssAfterLoad.toFixed(0)} MB after the rounds (${(rssAfterLoad / rss).toFixed(2)}x)`);
console.log(`/ for one visitor with no load: ${JSON.stringify(pageAlone)}`);
console.log(`server start (spawn to first answer): ours ${ours.startMs.toFixed(0)} ms, bare ${bare.startMs.toFixed(0)} ms; ours RSS after start ${rss.toFixed(0)} MB`);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/api.json', JSON.stringify({ date: new Date().toISOString(), node: process.version, rounds: ROUNDS, seconds: DURATION, connections: CONNECTIONS, workers: WORKERS, pinned: PIN, rows, analyticsOnOverOff: { json: ratio(JSON_ON, JSON_OFF), recordedLookup: ratio(RECORDING_ON, RECORDING_OFF) }, hostnamesOnOverOff: { memo: ratio(MEMO_DNS, MEMO), json: ratio(JSON_DNS, JSON_ON) }, analytics, drainSeconds: +(drainMs / 1000).toFixed(1), pageAlone, startMs: ours.startMs, rssMb: rss, rssAfterLoadMb: rssAfterLoad }, null, 2));
await upstream?.close();
