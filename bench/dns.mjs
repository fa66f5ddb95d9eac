// `npm run bench:dns`: the DNS leak test's responder (src/server/dns-leak/) in the built server,
// pinned to core 1 when it can be (bench/servers.mjs), this process and wrk on core 0.
// 1. The responder alone: UDP queries for token names from 1,024 loopback sources (each
//    source's budget is 200 a second, so one source could not load it), IN_FLIGHT queries
//    outstanding at any time, for DURATION seconds: queries answered a second and p50/p99
//    of their round trip.
// 2. /ip with wrk, without DNS load and with a steady DNS_RATE queries a second (5,000),
//    alternating, ROUNDS rounds: the ratio of /ip's rates within each round, and its median
//    (target: with DNS load within 10% of without). On a machine whose other processes keep
//    the server from its whole core (server CPU well under 100%), rates measure the machine:
//    then read the CPU figures, which hold whatever the load. The server's CPU time per DNS
//    answer (part 1) and per /ip answer (part 2, the DNS answers' share taken out) give what
//    /ip keeps of a whole core at DNS_RATE: (1 s - DNS_RATE x CPU per query) / CPU per /ip,
//    over 1 s / CPU per /ip without the load.
// BENCH_DNS_SECONDS, BENCH_DNS_ROUNDS, BENCH_DNS_RATE change the run's length and the load.
import { createSocket } from 'node:dgram';
import { mkdirSync, writeFileSync } from 'node:fs';
import dnsPacket from 'dns-packet';
import { cpuSeconds, freePort, median, PIN, start } from './servers.mjs';
import { wrk } from './wrk.mjs';

const DURATION = Number(process.env.BENCH_DNS_SECONDS || 8);
const ROUNDS = Number(process.env.BENCH_DNS_ROUNDS || 3);
const DNS_RATE = Number(process.env.BENCH_DNS_RATE || 5000);
const IN_FLIGHT = 64;
const SOURCES = 1024;
const ZONE = 'dns.example.com';

const dnsPort = await freePort();
const server = await start('ours', ['src/server/main.ts'], {
  WEB_CONCURRENCY: '1', RATE_LIMIT: '0', PAGE_RATE_LIMIT: '0', ANALYTICS: 'off',
  DNS_LEAK_ZONE: ZONE, DNS_PORT: String(dnsPort), DNS_LEAK_ANSWER: '192.0.2.1',
});
// Whatever ends this run ends its server too.
process.on('exit', () => server.child.kill('SIGTERM'));

/** One UDP socket per source address, 127.1.x.y. */
const sockets = await Promise.all(Array.from({ length: SOURCES }, (_, i) => new Promise((resolve) => {
  const socket = createSocket('udp4');
  socket.bind(0, `127.1.${(i >> 8) + 1}.${i & 255}`, () => resolve(socket));
})));
const queries = Array.from({ length: 4096 }, (_, i) => dnsPacket.encode({
  type: 'query', id: i, questions: [{ type: 'A', class: 'IN', name: `${i.toString(16).padStart(32, '0')}-${(i % 6) + 1}.${ZONE}` }],
}));

/** Sends queries; `onAnswer(ms)` for each answer. Returns a function that sends one more, and the queries in flight by key. */
function sender(onAnswer) {
  // Keyed by socket and query id as one number: no string, no getsockname per packet.
  const sentAt = new Map();
  let next = 0;
  for (const [s, socket] of sockets.entries()) {
    socket.removeAllListeners('message');
    socket.on('message', (answer) => {
      const key = s * 65536 + answer.readUInt16BE(0);
      const t = sentAt.get(key);
      if (t === undefined) return;
      sentAt.delete(key);
      onAnswer(performance.now() - t);
    });
  }
  const send = () => {
    const n = next++;
    const s = n % SOURCES;
    const query = queries[n % queries.length];
    sentAt.set(s * 65536 + query.readUInt16BE(0), performance.now());
    sockets[s].send(query, dnsPort, '127.0.0.1');
  };
  return { send, sentAt };
}

// 1. The responder alone, closed loop.
async function responderAlone() {
  const times = [];
  let running = true;
  const { send, sentAt } = sender((ms) => { times.push(ms); if (running) send(); });
  const cpu0 = cpuSeconds(server.child.pid);
  for (let i = 0; i < IN_FLIGHT; i++) send();
  // A query unanswered after a second is lost (the kernel drops what a full socket buffer
  // cannot take): it is forgotten and replaced, so the loop keeps its depth.
  const refill = setInterval(() => {
    const now = performance.now();
    for (const [key, t] of sentAt) if (now - t > 1000) sentAt.delete(key);
    while (sentAt.size < IN_FLIGHT) send();
  }, 100);
  await new Promise((r) => setTimeout(r, DURATION * 1000));
  running = false;
  clearInterval(refill);
  const cpu = (cpuSeconds(server.child.pid) - cpu0) / DURATION;
  times.sort((a, b) => a - b);
  const at = (q) => +(times[Math.min(times.length - 1, Math.floor(q * times.length))]).toFixed(3);
  return {
    'queries/s': Math.round(times.length / DURATION), 'p50 ms': at(0.5), 'p99 ms': at(0.99), 'server CPU': `${Math.round(cpu * 100)}%`,
    'server CPU µs per query': +((cpu * 1e6) / (times.length / DURATION)).toFixed(1),
  };
}

// 2. /ip with and without a steady DNS load.
async function ipRound(dnsLoad) {
  let answered = 0;
  let timer;
  if (dnsLoad) {
    const { send } = sender(() => { answered++; });
    const perTick = DNS_RATE / 100;
    let owed = 0;
    timer = setInterval(() => { owed += perTick; for (; owed >= 1; owed--) send(); }, 10);
  }
  const cpu0 = cpuSeconds(server.child.pid);
  const result = await wrk({ base: server.url, requests: [['/ip']], seconds: DURATION, connections: 50, cpu: PIN ? 0 : undefined });
  clearInterval(timer);
  const serverCpu = (cpuSeconds(server.child.pid) - cpu0) / DURATION;
  const dnsPerSecond = answered / DURATION;
  // The server's CPU per /ip answer, the DNS answers' share (at part 1's cost each) taken out.
  const cpuPerIpUs = ((serverCpu - dnsPerSecond * alone['server CPU µs per query'] / 1e6) * 1e6) / result.rps;
  return { rps: result.rps, p99: result.p99, errors: result.errors, serverCpu, wrkCpu: result.wrkCpu, dnsPerSecond, cpuPerIpUs };
}

const alone = await responderAlone();
await ipRound(false); // warm-up
const rounds = [];
for (let i = 0; i < ROUNDS; i++) {
  const without = await ipRound(false);
  const withDns = await ipRound(true);
  // What /ip keeps of a whole core at DNS_RATE, from the CPU each answer costs.
  const projected = ((1e6 - DNS_RATE * alone['server CPU µs per query']) / withDns.cpuPerIpUs) / (1e6 / without.cpuPerIpUs);
  rounds.push({ without, withDns, ratio: withDns.rps / without.rps, projected });
}
server.child.kill('SIGTERM');
for (const socket of sockets) socket.close();

console.log(`\nDNS responder, UDP, ${IN_FLIGHT} queries in flight from ${SOURCES} sources, ${DURATION}s, node ${process.version}, ${PIN ? 'server on core 1, load on core 0' : 'not pinned'}:`);
console.table({ responder: alone });
console.log(`\n/ip (wrk -t1 -c50, ${DURATION}s a run), without and with ${DNS_RATE} DNS queries/s, ${ROUNDS} rounds:`);
console.table(rounds.map((r, i) => ({
  round: i + 1,
  '/ip req/s without': Math.round(r.without.rps), '/ip req/s with DNS': Math.round(r.withDns.rps), 'with / without': +r.ratio.toFixed(3),
  'DNS answered/s': Math.round(r.withDns.dnsPerSecond), 'p99 ms without': r.without.p99, 'p99 ms with': r.withDns.p99,
  'server CPU without': `${Math.round(r.without.serverCpu * 100)}%`, 'server CPU with': `${Math.round(r.withDns.serverCpu * 100)}%`,
  'CPU µs per /ip without': +r.without.cpuPerIpUs.toFixed(1), 'CPU µs per /ip with': +r.withDns.cpuPerIpUs.toFixed(1),
  'of a core at DNS_RATE': +r.projected.toFixed(3), errors: r.without.errors + r.withDns.errors,
})));
const ratio = median(rounds.map((r) => r.ratio));
const projected = median(rounds.map((r) => r.projected));
console.log(`median ratio of /ip rates: ${ratio.toFixed(3)}; of a whole core, from CPU per answer: ${projected.toFixed(3)} (target: at least 0.90)`);
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/dns.json', JSON.stringify({ date: new Date().toISOString(), node: process.version, pinned: PIN, seconds: DURATION, dnsRate: DNS_RATE, responder: alone, rounds, medianRatio: +ratio.toFixed(3), medianProjected: +projected.toFixed(3) }, null, 2));
