// `npm run bench:probe`: an outside probe of the built server. It spawns the real server
// (src/server/main.ts, two cluster workers, the default rate limits, the DNS leak test's
// responder on a free port, Redis when PROBE_REDIS_URL or TEST_REDIS_URL is set) and replays
// the attacks that once worked or could, printing one verdict line each (`ok`, `FAIL` or
// `skip`, with the measured figure); it exits 1 when one fails. Targets are 127.0.0.0/8 (and
// a test network namespace's own addresses) only; every loop is bounded in count and time,
// and the whole probe stops itself after PROBE_DEADLINE_MS.
//  1. STUN Binding requests from UDP source port 0 (a raw socket: python3 and root) while a
//     client asks /ip: every /ip answers, and /healthz counts the packets.
//  2. Paths that once went unanswered, over raw sockets: each gets a whole 4xx and a close.
//  3. Corrections poisoning: 40 honest /24s load the page (a recorded browser lookup) and
//     correct their place; then 60 fake /24s and 50 fake /48s of three providers do the same,
//     claiming the antipode. The published median moves by at most 10%; a cross-site post is refused.
//  4. /64 rotation inside one /48 on the API: refused past the /48's budget (8 × RATE_LIMIT).
//  5. Pages used as an API: refused past PAGE_RATE_LIMIT, with Retry-After.
//  6. Redis holds no client address, in text or hex (only with Redis).
//  7. An X-Forwarded-For hop that is not an address: 400 unknown_client, not loopback's rights.
//  8. Headers sent a byte a second: 408 or a close within 12 s (headersTimeout is 10 s).
//  9. STUN reflection from one source: answers within the per-source budget of each worker.
// 10. 21,000 DNS leak test starts from 80 clients: at most DNS_LEAK_RATE_LIMIT each a minute,
//     and a victim's token still reads 200 afterwards.
// 11. The same with every rate limit off (a second, short-lived server): each client's budget
//     of 10 live tokens alone keeps the victim's token, and ends the flooder's own oldest.
// 12. DNS over TCP held from one source, a byte every few seconds: it keeps at most 16
//     connections per worker, and another source's TCP query is answered meanwhile.
// 13. The port check's limit in a cluster with the API's and the pages' limits off (the
//     second server): 429 past PORT_CHECK_RATE_LIMIT.
// 14. HTTP connections flooded from two addresses of a network namespace (tests/support/netns.ts:
//     root and iproute2) at a server of 600 descriptors: /healthz from a third answers 20 of 20.
// At the end the server must answer /healthz, have lost no worker, and exit 0 on SIGTERM; the
// last line counts every 5xx any attack received and every worker that died, on every server.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect, createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { NODE_FLAGS } from './node-flags.mjs';
import { publicAddresses } from './seeded-random.mjs';
import { sendDnsQuery } from '../tests/support/dns-query.ts';
import { rawExchange } from '../tests/support/raw-http.ts';
import { rawUdpMissing, sendRawUdp } from '../tests/support/raw-udp.ts';
import { bindingRequest } from '../tests/support/stun-client.ts';

const WORKERS = 2;
const RATE_LIMIT = 300;
const PAGE_RATE_LIMIT = 120;
const DNS_LEAK_RATE_LIMIT = 10;
const PORT_CHECK_RATE_LIMIT = 10;
/** How many clients' budgets an IPv6 /48 has (src/server/rate-limit/limit.ts, NETWORK_FACTOR). */
const NETWORK_FACTOR = 8;
/** Each worker's STUN budget per source (src/server/udp/stun.ts, STUN_BUDGET). */
const STUN_BURST = 40;
const STUN_PER_SECOND = 20;
/** Live DNS leak tokens per client (src/server/dns-leak/notes.ts, MAX_TOKENS_PER_CLIENT). */
const TOKENS_PER_CLIENT = 10;
/** DNS over TCP: connections per source and process, and a message's deadline from its first byte (src/server/dns-leak/server.ts). */
const DNS_TCP_PER_SOURCE = 16;
const DNS_TCP_MESSAGE_MS = 2_000;
/** HTTP connections one client may hold per process (src/server/http/connection-cap.ts, HTTP_CLIENT_CONNECTIONS' default). */
const HTTP_CLIENT_CONNECTIONS = 128;
const DNS_ZONE = 'dns.probe.test';
const PROBE_DEADLINE_MS = Number(process.env.PROBE_DEADLINE_MS) || 240_000;
const REQUEST_TIMEOUT_MS = 10_000;
const REDIS_URL = process.env.PROBE_REDIS_URL || process.env.TEST_REDIS_URL || '';
const BROWSER = { accept: 'text/html,application/xhtml+xml', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/140.0 Safari/537.36' };
/** The /48 attack 4 rotates /64s in. */
const ROTATION_48 = '2a00:1450:4002';

if (!existsSync('dist/server/entry.mjs')) {
  console.error('dist/ is not built: run `npm run build` first');
  process.exit(1);
}

/** Verdict lines, printed in the attacks' order once all are in (attacks run side by side). */
const verdicts = [];
const ORDER = (id) => (id === 'all' ? 100 : id === 'end' ? 99 : Number(id) || 98);
/** Records one verdict: ok true, false (a failure: the probe exits 1) or undefined (skipped). */
function verdict(id, title, ok, figure) {
  verdicts.push({ id, ok, line: `${(ok === undefined ? 'skip' : ok ? 'ok' : 'FAIL').padEnd(4)} ${id}. ${title}: ${figure}` });
}
const report = () => { for (const v of verdicts.toSorted((a, b) => ORDER(a.id) - ORDER(b.id))) console.log(v.line); };
const failures = () => verdicts.filter((v) => v.ok === false).toSorted((a, b) => ORDER(a.id) - ORDER(b.id)).map((v) => v.id);
/** Runs one attack; an error it throws is its verdict, a failure, and the others go on. */
const attack = (id, title, run) => run(title).catch((error) => verdict(id, title, false, `stopped by an error: ${error.message}`));

/** Every 5xx any attack received, as `server path status`, for the last line. */
const serverErrors = [];
const noteStatus = (server, pathname, status) => { if (status >= 500) serverErrors.push(`${server} ${pathname.slice(0, 40)} ${status}`); };

const freePort = (kind) => new Promise((resolve) => {
  if (kind === 'udp') { const s = createSocket('udp4').bind(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); }); return; }
  const s = createServer().listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); });
});
/** A port free for both TCP and UDP on 127.0.0.1, as the DNS responder binds both. */
async function freeDnsPort() {
  for (let i = 0; i < 20; i++) {
    const p = await freePort('tcp');
    const free = await new Promise((resolve) => {
      const s = createSocket('udp4');
      s.once('error', () => resolve(false));
      s.bind(p, '127.0.0.1', () => s.close(() => resolve(true)));
    });
    if (free) return p;
  }
  throw new Error('no port free for both TCP and UDP in 20 draws');
}

/** Servers started, stopped (SIGKILL) and their DATA_DIR removed by cleanup; namespaces removed. */
const spawned = [];
const namespaces = [];
const cleanup = () => {
  for (const s of spawned) {
    if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
    rmSync(s.dataDir, { recursive: true, force: true });
  }
  for (const ns of namespaces) ns.remove();
};
const deadline = setTimeout(() => {
  report();
  console.log(`FAIL probe: not finished within ${PROBE_DEADLINE_MS / 1000} s`);
  cleanup();
  process.exit(1);
}, PROBE_DEADLINE_MS);
deadline.unref();

const started = performance.now();
/** Workers that died, per server: the primary logs `worker <pid> died` (src/server/main.ts). */
const diedIn = (output) => (output.match(/worker \d+ died/g) ?? []).length;
/** How often the server logged, after `from` characters of its output, that Redis did not answer: as ` (Redis did not answer N times meanwhile)`. */
function redisSilences(server, from) {
  const silences = (server.output.slice(from).match(/Redis( \([^)]*\))? does not answer/g) ?? []).length;
  return silences ? `; Redis did not answer ${silences} times meanwhile (server log: a rate limit lets requests through then, a note store answers 503)` : '';
}

/**
 * Starts src/server/main.ts on 127.0.0.1 with WORKERS workers, the probe's settings and
 * `extra`; resolves once every worker listens (60 s at most), rejects when it exits first.
 */
async function startServer(name, extra) {
  const [httpPort, stunPort, dnsPort] = [await freePort('tcp'), await freePort('udp'), await freeDnsPort()];
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'probe-'));
  const env = {
    ...process.env, DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(httpPort), STUN_PORT: String(stunPort), TRUST_PROXY: 'loopback',
    WEB_CONCURRENCY: String(WORKERS), RATE_LIMIT: String(RATE_LIMIT), PAGE_RATE_LIMIT: String(PAGE_RATE_LIMIT),
    DNS_LEAK_RATE_LIMIT: String(DNS_LEAK_RATE_LIMIT), PORT_CHECK_RATE_LIMIT: String(PORT_CHECK_RATE_LIMIT),
    DNS_LEAK_ZONE: DNS_ZONE, DNS_PORT: String(dnsPort), DNS_LEAK_ANSWER: '127.0.0.1', DATA_REFRESH: 'off', REVERSE_DNS: 'off',
  };
  // Analytics in the temporary SQLite file, counts in the cluster primary unless Redis is asked for.
  for (const setting of ['DATABASE_URL', 'REDIS_URL', 'REDIS_PREFIX', 'ANALYTICS', 'ANALYTICS_TOKEN', 'TRUST_PROXY_HEADER', 'HTTP_CLIENT_CONNECTIONS', 'HTTP_MAX_CONNECTIONS']) delete env[setting];
  const redisPrefix = `probe:${randomBytes(6).toString('hex')}:`;
  if (REDIS_URL) Object.assign(env, { REDIS_URL, REDIS_PREFIX: redisPrefix });
  Object.assign(env, extra);
  const child = spawn(process.execPath, [...NODE_FLAGS, 'src/server/main.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const server = { name, child, dataDir, port: httpPort, stunPort, dnsPort, redisPrefix, output: '' };
  spawned.push(server);
  child.stdout.on('data', (d) => { server.output += d; });
  child.stderr.on('data', (d) => { server.output += d; });
  const exit = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  /** SIGTERM, then its exit code (or signal), 25 s at most. */
  server.stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const exited = await Promise.race([exit, sleep(25_000).then(() => ({ code: 'none within 25 s' }))]);
    rmSync(dataDir, { recursive: true, force: true });
    return exited.code ?? exited.signal;
  };
  const begun = performance.now();
  // Every worker prints its own "listening on" line.
  while (server.output.split('listening on').length - 1 < WORKERS) {
    if (child.exitCode !== null || performance.now() - begun > 60_000) {
      const why = child.exitCode !== null ? `exited with ${child.exitCode}` : 'did not listen within 60 s';
      child.kill('SIGKILL');
      throw new Error(`the ${name} server ${why}:\n${server.output}`);
    }
    await sleep(100);
  }
  server.readyIn = (performance.now() - begun) / 1000;
  return server;
}

let main;
try {
  main = await startServer('main', {});
} catch (error) {
  console.log(`FAIL ${error.message}`);
  cleanup();
  process.exit(1);
}
const { port, stunPort, dnsPort, redisPrefix } = main;
console.log(`server: ${WORKERS} workers on 127.0.0.1:${port} (STUN udp ${stunPort}, DNS udp+tcp ${dnsPort} for ${DNS_ZONE}), ready in ${main.readyIn.toFixed(1)} s; RATE_LIMIT=${RATE_LIMIT}, PAGE_RATE_LIMIT=${PAGE_RATE_LIMIT}, DNS_LEAK_RATE_LIMIT=${DNS_LEAK_RATE_LIMIT}, PORT_CHECK_RATE_LIMIT=${PORT_CHECK_RATE_LIMIT}, rate-limit counts in ${REDIS_URL ? `Redis (prefix ${redisPrefix})` : 'the cluster primary'}`);

const agent = new Agent({ keepAlive: true, maxSockets: 16 });
/**
 * One HTTP request to the main server (or `server`): its status (0 when none came within
 * REQUEST_TIMEOUT_MS), headers and body. `fresh` opens a connection of its own, which may
 * reach another worker; `via` is another keep-alive agent. A 5xx is noted.
 */
function http(pathname, { method = 'GET', headers = {}, body, fresh = false, server = main, via = agent } = {}) {
  return new Promise((resolve) => {
    const done = (answer) => { noteStatus(server.name, pathname, answer.status); resolve(answer); };
    const req = request({ agent: fresh ? false : via, host: '127.0.0.1', port: server.port, method, path: pathname, headers: body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
      const chunks = [];
      res.on('data', (d) => chunks.push(d));
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', () => done({ status: 0, headers: {}, body: '' }));
    });
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy());
    req.on('error', () => done({ status: 0, headers: {}, body: '' }));
    req.end(body);
  });
}
const parsed = (answer) => { try { return JSON.parse(answer.body); } catch { return undefined; } };

/** Runs `task(i)` for i below `count`, `concurrency` at a time, starting none after `withinMs`. */
async function pool(count, concurrency, task, withinMs = 60_000) {
  const until = performance.now() + withinMs;
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => { while (next < count && performance.now() < until) await task(next++); }));
}

/** How many of each status, as `200 × 3, 429 × 1`. */
const tallyOf = (statuses) => Object.entries(statuses.reduce((t, s) => ({ ...t, [s]: (t[s] ?? 0) + 1 }), {})).map(([s, n]) => `${n} × ${s}`).join(', ');

/** Answers a flood as the server ordered them: 200s before the first refusal, 200s and 429s in all, and whether every 429 said Retry-After. */
function refusalFigures(answers) {
  const first = answers.findIndex((a) => a.status === 429);
  const passed = answers.filter((a) => a.status === 200).length;
  const refused = answers.filter((a) => a.status === 429);
  return { before: first === -1 ? passed : answers.slice(0, first).filter((a) => a.status === 200).length, passed, refused: refused.length, retryAfter: refused.every((a) => /^\d+$/.test(String(a.headers['retry-after']))), tally: tallyOf(answers.map((a) => a.status)) };
}

/**
 * The sum over the workers of a per-process figure on /healthz. Each worker answers for
 * itself; fresh connections reach whichever worker accepts them, so a few
 * readings see them all: two values are two workers' counts, one value is every worker's.
 */
async function summedHealthFigure(pattern) {
  const values = [];
  for (let i = 0; i < 2 * WORKERS; i++) {
    const answer = await http('/healthz', { fresh: true });
    const found = pattern.exec(answer.body);
    if (found) values.push(Number(found[1]));
  }
  const distinct = [...new Set(values)];
  return distinct.length === 1 ? distinct[0] * WORKERS : distinct.reduce((a, b) => a + b, 0);
}

/** Waits (15 s at most) until every worker's analytics queue is written; false if it was not. */
async function analyticsWritten() {
  const until = performance.now() + 15_000;
  while (performance.now() < until) {
    const readings = await Promise.all(Array.from({ length: 2 * WORKERS }, async (_, i) => {
      await sleep(i * 20);
      return parsed(await http('/healthz', { headers: { accept: 'application/json' }, fresh: true }))?.parts?.analytics?.queued;
    }));
    if (readings.every((q) => q === 0)) return true;
    await sleep(300);
  }
  return false;
}

// ---- 1, 7 and 8 side by side: STUN from port 0 with /ip alongside, the unparseable hop, slow headers.

async function portZero(title) {
  let missing;
  try { missing = rawUdpMissing(); } catch (error) { verdict(1, title, false, error.message); return; }
  if (missing) { verdict(1, title, undefined, `skipped: ${missing}`); return; }
  const PACKETS = 20;
  const ip = [];
  // sendRawUdp waits for python3 (some 30 ms a packet): /ip and attack 8's drip only wait a little.
  const asking = pool(100, 1, async () => { ip.push((await http('/ip', { headers: { 'x-forwarded-for': '81.2.69.160' } })).status); await sleep(100); });
  for (let i = 0; i < PACKETS; i++) {
    sendRawUdp(0, stunPort, bindingRequest());
    await sleep(500);
  }
  await asking;
  let counted = 0;
  for (let tries = 0; tries < 10 && counted < PACKETS; tries++) {
    if (tries) await sleep(300);
    // The STUN responder's line: the DNS responder's UDP line counts its own port-0 packets.
    counted = await summedHealthFigure(/^stun: [^\n]*?(\d+) from port 0/m);
  }
  const answered = ip.filter((s) => s === 200).length;
  verdict(1, title, answered === 100 && counted === PACKETS, `/ip ${answered}/100 answered 200 (${tallyOf(ip)}); /healthz counts ${counted} of ${PACKETS} port-0 packets (summed over ${WORKERS} workers)`);
}

async function unparseableHop(title) {
  const answers = await Promise.all(['/ip', '/api/analytics.csv'].map((p) => http(p, { headers: { 'x-forwarded-for': '8.8.8.8, unknown' } })));
  const ok = answers.every((a) => a.status === 400 && parsed(a)?.error?.code === 'unknown_client');
  verdict(7, title, ok, `/ip ${answers[0].status} ${parsed(answers[0])?.error?.code ?? '(no error code)'}, /api/analytics.csv ${answers[1].status} ${parsed(answers[1])?.error?.code ?? '(no error code)'}`);
}

async function slowHeaders(title) {
  const answer = await rawExchange(port, 'GET /ip HTTP/1.1\r\nHost: localhost\r\n', { drip: `X-Slow: ${'a'.repeat(40)}\r\n\r\n`, dripMs: 1000, timeoutMs: 15_000 });
  noteStatus('main', '/ip (slow headers)', answer.status);
  const ok = answer.closed && answer.ms <= 12_000 && (answer.status === 408 || answer.status === 0);
  verdict(8, title, ok, answer.closed ? `${answer.status ? `answered ${answer.status}` : 'closed without an answer'} after ${(answer.ms / 1000).toFixed(1)} s` : 'still open after 15 s');
}

// ---- 9: STUN reflection.

async function reflection(title) {
  const PACKETS = 20_000;
  const SEND_MS = 3_000;
  const udp = createSocket('udp4');
  let answers = 0;
  let bytesBack = 0;
  let bytesSent = 0;
  udp.on('message', (m) => { answers++; bytesBack += m.length; });
  udp.on('error', () => {});
  await new Promise((resolve) => udp.bind(0, '127.0.0.1', resolve));
  const start = performance.now();
  let sent = 0;
  // In batches paced to PACKETS over SEND_MS, and never past twice that.
  while (sent < PACKETS && performance.now() - start < 2 * SEND_MS) {
    const due = Math.min(PACKETS, Math.ceil(((performance.now() - start) / SEND_MS) * PACKETS) + 50);
    for (; sent < due; sent++) {
      const packet = bindingRequest();
      bytesSent += packet.length;
      udp.send(packet, stunPort, '127.0.0.1');
    }
    await sleep(5);
  }
  // Sends complete in order: once this empty datagram is out, so are all the requests.
  await new Promise((resolve) => udp.send(Buffer.alloc(0), stunPort, '127.0.0.1', resolve));
  const seconds = (performance.now() - start) / 1000;
  await sleep(1000);
  udp.close();
  const budget = Math.floor(WORKERS * (STUN_BURST + STUN_PER_SECOND * seconds)) + 10;
  verdict(9, title, answers <= budget && answers > 0,
    `${answers} answers to ${sent} requests in ${seconds.toFixed(1)} s (budget ${budget}: ${WORKERS} workers × (${STUN_BURST} + ${STUN_PER_SECOND}/s), + 10); server sent ${bytesBack} bytes for ${bytesSent} received (${(bytesBack / bytesSent).toFixed(4)}×)`);
}

// ---- 2: paths that once went unanswered.

async function unansweredPaths(title) {
  const PATHS = ['/lookup/.', '/lookup/%2E', '/lookup/a\\', '/lookup/\\\\evil.com', '/lookup/..'];
  const COUNT = 2_000;
  const answers = [];
  const begun = performance.now();
  await pool(COUNT, 100, async (i) => {
    const answer = await rawExchange(port, `GET ${PATHS[i % PATHS.length]} HTTP/1.1\r\nHost: localhost\r\nAccept: text/html\r\nConnection: close\r\n\r\n`, { timeoutMs: 10_000 });
    noteStatus('main', PATHS[i % PATHS.length], answer.status);
    answers.push(answer);
  });
  const elapsed = (performance.now() - begun) / 1000;
  const whole = answers.filter((a) => a.complete && a.status >= 400 && a.status < 500).length;
  const slowest = Math.max(...answers.map((a) => a.ms));
  const [health, ip] = await Promise.all([http('/healthz'), http('/ip', { headers: { 'x-forwarded-for': '81.2.69.161' } })]);
  verdict(2, title, whole === COUNT && health.status === 200 && ip.status === 200,
    `${whole}/${COUNT} answered whole with a 4xx and closed (${tallyOf(answers.map((a) => a.status))}), slowest ${(slowest / 1000).toFixed(2)} s, all in ${elapsed.toFixed(1)} s; then /healthz ${health.status}, /ip ${ip.status}`);
}

// ---- 3: corrections poisoning.

const correction = (client, latitude, longitude, headers = { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' }) =>
  http('/api/corrections', { method: 'POST', headers: { ...headers, 'x-forwarded-for': client }, body: JSON.stringify({ latitude: +latitude.toFixed(4), longitude: +longitude.toFixed(4) }) });

/** What a browser sends with the page's own lookup, which is recorded (src/server/storage/event.ts, mayRecord). */
const BROWSER_LOOKUP = { accept: 'application/json', 'user-agent': BROWSER['user-agent'], 'sec-fetch-mode': 'cors' };
/** The page's own lookup of `client`, as a browser asks it: its status, and the place it names (undefined when none). */
async function browserLookup(client) {
  const answer = await http('/api/lookup', { headers: { ...BROWSER_LOOKUP, 'x-forwarded-for': client } });
  const body = parsed(answer);
  const data = body?.data ?? body;
  return { status: answer.status, place: data && data.country_code !== 'Unknown' && typeof data.latitude === 'number' ? data : undefined };
}

/** Where the server places `ip`, or undefined when it has no place for it. */
async function placeOf(ip) {
  const record = parsed(await http(`/json?ip=${ip}`));
  return record && record.country_code !== 'Unknown' && typeof record.latitude === 'number' ? record : undefined;
}
const accuracy = async () => parsed(await http('/api/analytics?period=24h'))?.accuracy;
const antipodeOf = ({ latitude, longitude }) => [-latitude, longitude > 0 ? longitude - 180 : longitude + 180];

/** The honest IPv4 clients, for attack 6's check too. */
const honest = [];
/**
 * The flood's networks, as tests/corrections-flood.test.ts has them: 60 IPv4 /24s of two
 * cloud providers' ranges (Google Cloud's 34.64.0.0/10, AWS's 52.0.0.0/10) and 50 /48s of
 * Google's 2001:4860::/32.
 */
const FAKE_NETWORKS = [
  ...Array.from({ length: 30 }, (_, i) => `34.64.${i}.1`),
  ...Array.from({ length: 30 }, (_, i) => `52.1.${i}.1`),
  ...Array.from({ length: 50 }, (_, i) => `2001:4860:${(0x100 + i).toString(16)}::1`),
];

async function poisoning(title) {
  // 40 clients of distinct /24s the databases place, each saying it is 10 to 49 km from its place.
  const networks = new Set();
  for (const ip of await publicAddresses(0x9806e, 400)) {
    const net = ip.split('.').slice(0, 3).join('.');
    if (networks.has(net)) continue;
    const place = await placeOf(ip);
    if (!place || Math.abs(place.latitude) > 80) continue;
    networks.add(net);
    honest.push({ ip, place });
    if (honest.length === 40) break;
  }
  // Each loads the page first; the lookups must be written before a correction (to either worker) asks for them.
  const looked = await Promise.all(honest.map(({ ip }) => browserLookup(ip)));
  const lookupsWritten = await analyticsWritten();
  const votes = await Promise.all(honest.map(({ ip, place }, i) => correction(ip, place.latitude + (10 + i) / 111.195, place.longitude)));
  const recorded = votes.filter((v) => v.status === 202).length;
  const written = await analyticsWritten();
  const before = await accuracy();
  const crossSite = await correction('81.2.69.162', 0, 0, { 'content-type': 'text/plain', 'sec-fetch-site': 'cross-site' });

  // The flood does what an honest visitor does, each network claiming the other side of the earth from its place.
  const places = new Map();
  await pool(FAKE_NETWORKS.length, 8, async (k) => { places.set(FAKE_NETWORKS[k], (await browserLookup(FAKE_NETWORKS[k])).place); });
  const floodLookupsWritten = await analyticsWritten();
  const outcomes = [];
  await pool(FAKE_NETWORKS.length, 8, async (k) => {
    const place = places.get(FAKE_NETWORKS[k]);
    if (!place) { outcomes.push('no place'); return; }
    const answer = await correction(FAKE_NETWORKS[k], ...antipodeOf(place));
    outcomes.push(answer.status === 202 ? 'recorded' : answer.status === 200 ? `refused: ${parsed(answer)?.reason}` : `${answer.status}`);
  });
  const writtenAfter = await analyticsWritten();
  const after = await accuracy();
  const moved = before?.medianKm ? Math.abs(after?.medianKm - before.medianKm) / before.medianKm : NaN;
  const allWritten = lookupsWritten && written && floodLookupsWritten && writtenAfter;
  const lookedUp = looked.filter((l) => l.status === 200).length;
  const ok = lookedUp === 40 && recorded === 40 && before?.published === true && after?.published === true && allWritten && [403, 415].includes(crossSite.status) && moved <= 0.1;
  const figures = (a) => `${a?.medianKm} km over ${a?.networks} networks of ${a?.asns} ASNs${a?.published ? '' : ' (not published)'}`;
  verdict(3, title, ok,
    `${lookedUp}/40 honest lookups recorded, ${recorded}/40 corrections recorded: median ${figures(before)}; after ${FAKE_NETWORKS.length} fake networks (60 /24s, 50 /48s of one /32) looked up and posted the antipode `
    + `(${tallyOf(outcomes)}): median ${figures(after)}, moved ${(moved * 100).toFixed(1)}% (at most 10%); cross-site text/plain post ${crossSite.status}${allWritten ? '' : '; the analytics queue was not written within 15 s'}`);
}

// ---- 4 and 5: rotation inside a /48 on the API; pages asked as an API.

async function rotation(title) {
  const from = main.output.length;
  const answers = [];
  await pool(3_000, 8, async (k) => { answers.push(await http('/ip?ip=8.8.8.8', { headers: { 'x-forwarded-for': `${ROTATION_48}:${k.toString(16)}::1` } })); });
  const f = refusalFigures(answers);
  const cap = NETWORK_FACTOR * RATE_LIMIT;
  verdict(4, title, f.refused > 0 && f.passed <= cap && f.before >= 0.9 * cap,
    `${f.before} answered 200 before the first 429 (cap ${NETWORK_FACTOR} × ${RATE_LIMIT} = ${cap}); in all ${f.tally}${redisSilences(main, from)}`);
}

async function pagesAsApi(title) {
  const answers = [];
  await pool(200, 4, async () => { answers.push(await http('/lookup/8.8.8.8', { headers: { ...BROWSER, 'x-forwarded-for': '81.2.69.163' } })); });
  const f = refusalFigures(answers);
  verdict(5, title, f.refused > 0 && f.retryAfter && f.passed <= PAGE_RATE_LIMIT && f.before >= 0.9 * PAGE_RATE_LIMIT,
    `${f.before} pages before the first 429 (PAGE_RATE_LIMIT ${PAGE_RATE_LIMIT}); in all ${f.tally}; ${f.refused === 0 ? 'no 429 at all' : f.retryAfter ? 'every 429 with Retry-After' : 'a 429 without Retry-After'}`);
}

// ---- 6: what Redis holds.

/** The keys under `prefix` in Redis (1,000 scans at most); `remove` deletes them after. */
async function redisKeysUnder(prefix, { remove = false } = {}) {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1, lazyConnect: true });
  try {
    await redis.connect();
    const keys = [];
    let cursor = '0';
    for (let i = 0; i < 1_000; i++) {
      const [next, found] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      keys.push(...found);
      cursor = next;
      if (cursor === '0') break;
    }
    if (remove) for (let i = 0; i < keys.length; i += 500) await redis.del(...keys.slice(i, i + 500));
    return keys;
  } finally {
    redis.disconnect();
  }
}

async function redisKeys(title) {
  if (!REDIS_URL) { verdict(6, title, undefined, 'skipped: set PROBE_REDIS_URL (or TEST_REDIS_URL) to count in Redis'); return; }
  let keys;
  try {
    keys = await redisKeysUnder(redisPrefix, { remove: true });
  } catch (error) {
    verdict(6, title, false, `Redis at ${REDIS_URL} could not be read: ${error.message}`);
    return;
  }
  const hex48 = (net) => net.split(':').map((g) => g.padStart(4, '0')).join('');
  // A /48's text or hex starts every /64 of it; 81.2.69.16 starts the single clients' .160 to
  // .163, 81.2.69.17 the DNS leak test's victims, 81.2.71. its flooders.
  const needles = [...honest.map((h) => h.ip), '81.2.69.16', '81.2.69.17', '81.2.71.', '34.64.', '52.1.', '2001:4860', hex48('2001:4860'), ROTATION_48, hex48(ROTATION_48)];
  const leaks = keys.filter((key) => needles.some((n) => key.toLowerCase().includes(n)));
  verdict(6, title, keys.length > 0 && leaks.length === 0,
    `${keys.length} keys under ${redisPrefix}, ${leaks.length} containing a client address (IPv4 text, IPv6 /48 in text or hex)${leaks.length ? `: ${leaks.slice(0, 3).join(', ')}` : ''}`);
}

// ---- 10 and 11: DNS leak test starts from many clients, with the rate limits on and off.

const LEAK_STARTS = 21_000;
/** The flooding clients, as the trusted proxy names them. */
const LEAK_CLIENTS = Array.from({ length: 80 }, (_, i) => `81.2.71.${i + 1}`);
const startLeak = (client, server, via) => http('/api/dns-leak', { method: 'POST', headers: { 'x-forwarded-for': client }, server, via });

/**
 * A victim starts a test, 80 clients start LEAK_STARTS more (60 s at most), and the victim
 * reads its token; so does the first flooder, its first token. Returns the figures.
 */
async function leakStartFlood(server, victim) {
  const via = new Agent({ keepAlive: true, maxSockets: 32 });
  const from = server.output.length;
  try {
    const victimStart = await startLeak(victim, server, via);
    const token = parsed(victimStart)?.token;
    if (victimStart.status !== 201 || !token) throw new Error(`the victim's own start answered ${victimStart.status} ${victimStart.body.slice(0, 120)}`);
    const statuses = [];
    let flooderToken;
    const begun = performance.now();
    await pool(LEAK_STARTS, 32, async (i) => {
      const answer = await startLeak(LEAK_CLIENTS[i % LEAK_CLIENTS.length], server, via);
      if (i === 0) flooderToken = parsed(answer)?.token;
      statuses.push(answer.status);
    });
    const seconds = (performance.now() - begun) / 1000;
    const read = await http(`/api/dns-leak/${token}`, { headers: { 'x-forwarded-for': victim }, server, via });
    const flooderRead = flooderToken ? (await http(`/api/dns-leak/${flooderToken}`, { headers: { 'x-forwarded-for': LEAK_CLIENTS[0] }, server, via })).status : undefined;
    return { statuses, seconds, read: read.status, names: parsed(read)?.names_total, flooderRead, created: statuses.filter((st) => st === 201).length, silences: redisSilences(server, from) };
  } finally {
    via.destroy();
  }
}

async function leakStarts(title) {
  const f = await leakStartFlood(main, '81.2.69.170');
  const cap = LEAK_CLIENTS.length * DNS_LEAK_RATE_LIMIT;
  const refused = f.statuses.filter((st) => st === 429).length;
  verdict(10, title, f.statuses.length === LEAK_STARTS && f.created <= cap && f.created >= 0.9 * cap && f.created + refused === LEAK_STARTS && f.read === 200,
    `${f.statuses.length} starts in ${f.seconds.toFixed(1)} s: ${tallyOf(f.statuses)} (at most ${LEAK_CLIENTS.length} × DNS_LEAK_RATE_LIMIT ${DNS_LEAK_RATE_LIMIT} = ${cap} started); the victim's token then read ${f.read}${f.names ? ` (${f.names} names)` : ''}${f.silences}`);
}

async function leakStartsUnlimited(title, server) {
  const f = await leakStartFlood(server, '81.2.69.171');
  verdict(11, title, f.statuses.length === LEAK_STARTS && f.created === LEAK_STARTS && f.read === 200 && f.flooderRead === 404,
    `${f.statuses.length} starts in ${f.seconds.toFixed(1)} s: ${tallyOf(f.statuses)} (every limit off: ${LEAK_CLIENTS.length} clients × ${TOKENS_PER_CLIENT} live tokens held at most); `
    + `the victim's token then read ${f.read}${f.names ? ` (${f.names} names)` : ''}, the first flooder's first token ${f.flooderRead ?? '(none issued)'} (404 expected: its own later ones end it)${f.silences}`);
}

// ---- 12: DNS over TCP held from one source.

async function dnsTcpHold(title) {
  const health = await http('/healthz', { fresh: true });
  if (!/^dns: on/m.test(health.body)) { verdict(12, title, false, `the DNS responder is not on: ${health.body.split('\n').find((l) => l.startsWith('dns:')) ?? '(no dns line on /healthz)'}`); return; }
  const FLOODER = '127.0.0.2';
  const FLOOD_MS = 9_000;
  const MAX_TRIES = 4_000;
  const DRIP_MS = 3_000;
  /** The flooder's connected sockets not closed yet, with when each connected; how long each closed one lived. */
  const open = new Map();
  const lived = new Map();
  let tried = 0;
  const connectOne = () => new Promise((resolve) => {
    tried++;
    const socket = connect({ host: '127.0.0.1', port: dnsPort, localAddress: FLOODER });
    const timer = setTimeout(() => socket.destroy(), 2_000);
    socket.on('error', () => {});
    socket.once('connect', () => {
      clearTimeout(timer);
      open.set(socket, performance.now());
      // One byte of a length prefix now, one more every few seconds: never a whole message.
      socket.write(Buffer.from([0]));
      const drip = setInterval(() => socket.write(Buffer.from([0])), DRIP_MS);
      socket.once('close', () => clearInterval(drip));
      resolve();
    });
    socket.once('close', () => {
      clearTimeout(timer);
      if (open.has(socket)) lived.set(socket, performance.now() - open.get(socket));
      open.delete(socket);
      resolve();
    });
  });
  const begun = performance.now();
  let flooding = true;
  // 20 connects every 50 ms whenever fewer than 4 × the cap are open, until FLOOD_MS or MAX_TRIES.
  const flood = (async () => {
    while (flooding && tried < MAX_TRIES && performance.now() - begun < FLOOD_MS) {
      if (open.size < 4 * WORKERS * DNS_TCP_PER_SOURCE) await Promise.all(Array.from({ length: 20 }, connectOne));
      await sleep(50);
    }
  })();
  await sleep(DNS_TCP_MESSAGE_MS + 1_000);
  const victim = [];
  let mostKept = 0;
  for (let i = 0; i < 5; i++) {
    // Kept: those open as the victim asks that live past 300 ms (one refused is closed on accept).
    const openThen = [...open.keys()];
    const asked = performance.now();
    const answer = await sendDnsQuery(`ns.${DNS_ZONE}`, { port: dnsPort, from: '127.0.0.1', transport: 'tcp', timeoutMs: 2_000 }).catch((error) => error);
    const ms = performance.now() - asked;
    victim.push({ ms, ok: !(answer instanceof Error) && answer.rcode === 'NOERROR' && answer.answers?.some((r) => r.type === 'A' && r.data === '127.0.0.1'), why: answer instanceof Error ? answer.message : answer.rcode });
    await sleep(1_000);
    const now = performance.now();
    mostKept = Math.max(mostKept, openThen.filter((socket) => (lived.get(socket) ?? now - (open.get(socket) ?? now)) > 300).length);
  }
  flooding = false;
  await flood;
  for (const socket of open.keys()) socket.destroy();
  const answered = victim.filter((v) => v.ok).length;
  const slowest = Math.max(...victim.map((v) => v.ms));
  const cap = WORKERS * DNS_TCP_PER_SOURCE;
  verdict(12, title, answered === victim.length && slowest < 1_000 && mostKept > 0 && mostKept <= cap,
    `${FLOODER} tried ${tried} connections, kept at most ${mostKept} at once (cap ${WORKERS} workers × ${DNS_TCP_PER_SOURCE}); 127.0.0.1's TCP query for ns.${DNS_ZONE} answered ${answered}/${victim.length}, slowest in ${slowest.toFixed(0)} ms`
    + `${answered < victim.length ? ` (${victim.filter((v) => !v.ok).map((v) => v.why).join('; ')})` : ''}`);
}

// ---- 13: the port check's limit with the API's and the pages' off.

async function portCheckLimit(title, server) {
  const statuses = [];
  // A bad port is counted before it is refused: no check connects anywhere. Fresh connections go to both workers in turn.
  for (let i = 0; i < PORT_CHECK_RATE_LIMIT + 5; i++) statuses.push((await http('/port/0', { headers: { 'x-forwarded-for': '8.8.4.4' }, server, fresh: true })).status);
  const expected = [...Array(PORT_CHECK_RATE_LIMIT).fill(400), ...Array(5).fill(429)];
  verdict(13, title, statuses.join() === expected.join(),
    `${statuses.length} checks of /port/0 from one client: ${tallyOf(statuses)}, in order ${statuses.join(' ')} (PORT_CHECK_RATE_LIMIT ${PORT_CHECK_RATE_LIMIT}; RATE_LIMIT=0, PAGE_RATE_LIMIT=0)`);
}

/** The second server (every limit off but the port check's), attacks 11 and 13 on it, and its stop. */
async function limitsOff() {
  const titles = { 11: `${LEAK_STARTS.toLocaleString('en')} DNS leak starts from ${LEAK_CLIENTS.length} clients with every rate limit off`, 13: `the port check's limit with WEB_CONCURRENCY=${WORKERS}, RATE_LIMIT=0, PAGE_RATE_LIMIT=0` };
  let server;
  try {
    server = await startServer('limits-off', { RATE_LIMIT: '0', PAGE_RATE_LIMIT: '0', DNS_LEAK_RATE_LIMIT: '0' });
  } catch (error) {
    for (const [id, title] of Object.entries(titles)) verdict(Number(id), title, false, error.message.split('\n').slice(0, 3).join(' '));
    return { name: 'limits-off', died: 0 };
  }
  await attack(13, titles[13], (title) => portCheckLimit(title, server));
  await attack(11, titles[11], (title) => leakStartsUnlimited(title, server));
  const code = await server.stop();
  if (REDIS_URL) await redisKeysUnder(server.redisPrefix, { remove: true }).catch(() => {});
  return { name: 'limits-off', died: diedIn(server.output), exit: code };
}

// ---- 14: HTTP connections flooded from two addresses of a namespace.

/** The namespace's test addresses: the server's of each family, two flooders and the third client. */
const NS = { server4: '10.78.0.1', server6: 'fd78::1', flood4: '10.78.0.2', flood6: 'fd78:0:0:2::2', third: '10.78.0.3' };

/**
 * Samples, every 20 ms, how many descriptors each server process in namespace `name` holds
 * (/proc/<pid>/fd), once its primary and WORKERS workers are there (5 s at most); `stop`
 * says the most each held, the cluster primary's (the parent of the others) first.
 */
async function watchDescriptors(name) {
  const servers = () => (spawnSync('ip', ['netns', 'pids', name], { encoding: 'utf8', timeout: 10_000 }).stdout ?? '').split('\n').filter((pid) => {
    try { return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('src/server/main.ts'); } catch { return false; }
  });
  let pids = servers();
  for (const until = performance.now() + 5_000; pids.length < WORKERS + 1 && performance.now() < until; pids = servers()) await sleep(100);
  const parentOf = (pid) => { try { return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[1]; } catch { return ''; } };
  const primary = pids.find((pid) => !pids.includes(parentOf(pid)));
  const peak = new Map(pids.map((pid) => [pid, 0]));
  const timer = setInterval(() => {
    for (const pid of pids) { try { peak.set(pid, Math.max(peak.get(pid), readdirSync(`/proc/${pid}/fd`).length)); } catch { /* gone */ } }
  }, 20);
  return {
    stop() {
      clearInterval(timer);
      const workers = pids.filter((pid) => pid !== primary).map((pid) => peak.get(pid));
      return `${primary ? `${peak.get(primary)} in the cluster primary, ` : ''}${workers.join(' and ')} in the ${workers.length === 1 && !primary ? 'server' : 'workers'} (of 600)`;
    },
  };
}

async function connectionCap(title) {
  if (!existsSync('tests/support/netns.ts')) { verdict(14, title, undefined, 'skipped: tests/support/netns.ts (the network namespace helper) is not there'); return { name: 'namespace', died: 0 }; }
  const { agentIn, serveIn, testNamespace } = await import('../tests/support/netns.ts');
  // The helper says why it has no namespace in a warning: taken for the verdict instead.
  let why = '';
  const warn = console.warn;
  console.warn = (message) => { why += message; };
  let netns;
  try {
    netns = testNamespace('whatismyip-probe', [`${NS.server4}/32`, `${NS.flood4}/32`, `${NS.third}/32`, `${NS.server6}/128`, `${NS.flood6}/128`]);
  } finally {
    console.warn = warn;
  }
  namespaces.push(netns);
  if (netns.skip) { verdict(14, title, undefined, `skipped: ${why.replace(/: skipping.*$/, '')}`); return { name: 'namespace', died: 0 }; }
  const server = await serveIn(netns.get(), { WEB_CONCURRENCY: String(WORKERS) }, { ulimit: 600 });
  const descriptors = await watchDescriptors(netns.get().name);
  const agent = agentIn(netns.get());
  const to = (from) => ({ from, port: server.port, host: from.includes(':') ? NS.server6 : NS.server4 });
  const answers = [];
  const unanswered = [];
  let flooded;
  let httpLine = '';
  try {
    // Both flooders open connections as fast as they can and hold them (50 at once each, 20,000 tries at most).
    await agent.call('flood', { targets: [to(NS.flood4), to(NS.flood6)], maxTries: 20_000 });
    // Once the flood has had its chance at every worker's descriptors (700 connects tried a worker, past its 600), 20 s at most...
    const until = performance.now() + 20_000;
    while ((await agent.call('flooded')).tried <= WORKERS * 700 && performance.now() < until) await sleep(50);
    // ...a third address asks /healthz 20 times.
    for (let i = 0; i < 20; i++) {
      const answer = await agent.call('get', { target: to(NS.third), path: '/healthz' }).catch((error) => ({ status: 0, body: '', error: error.message }));
      noteStatus('namespace', '/healthz', answer.status);
      answers.push(answer.status);
      if (answer.error) unanswered.push(answer.error.split('\n')[0]);
      httpLine = answer.body?.split('\n').find((l) => l.startsWith('http:')) ?? httpLine;
    }
    flooded = await agent.call('stopFlood');
    // Connections the kernel completed but the server had not accepted yet look held to the
    // flooders until it closes them: what they held once it has (10 s at most).
    const settle = performance.now() + 10_000;
    while (flooded.held > 2 * WORKERS * HTTP_CLIENT_CONNECTIONS && performance.now() < settle) {
      await sleep(100);
      flooded = await agent.call('flooded');
    }
  } finally {
    await agent.call('stopFlood').catch(() => undefined);
    await agent.stop();
  }
  const peaks = descriptors.stop();
  const output = server.output();
  await server.stop();
  netns.remove();
  const ok200 = answers.filter((st) => st === 200).length;
  const cap = 2 * WORKERS * HTTP_CLIENT_CONNECTIONS;
  // What the server said of its descriptors or accepts, when a /healthz went unanswered.
  const said = output.split('\n').filter((line) => /EMFILE|ENFILE|accept/i.test(line));
  if (unanswered.length && said.length) unanswered.push(`the server logged ${said.length} lines such as "${said.at(-1).slice(0, 160)}"`);
  verdict(14, title, ok200 === 20 && flooded !== undefined && flooded.tried > WORKERS * 700 && flooded.held <= cap,
    `/healthz from ${NS.third} answered ${ok200}/20 (${tallyOf(answers)}) while ${NS.flood4} and ${NS.flood6} tried ${flooded?.tried} connections and then held ${flooded?.held} (cap 2 clients × ${WORKERS} workers × ${HTTP_CLIENT_CONNECTIONS}); a worker's ${httpLine || '(no http line)'}; descriptors at most ${peaks}${unanswered.length ? `; unanswered: ${[...new Set(unanswered)].join('; ')}` : ''}`);
  return { name: 'namespace', died: diedIn(output) };
}

await Promise.all([
  attack(1, 'STUN from UDP source port 0 while /ip is asked', portZero),
  attack(8, 'headers at a byte a second', slowHeaders),
  attack(7, 'X-Forwarded-For "8.8.8.8, unknown"', unparseableHop)
    .then(() => attack(9, 'STUN reflection: 20,000 requests from one source', reflection)),
]);
await attack(2, 'paths that once went unanswered, 2,000 over raw sockets', unansweredPaths);
await attack(3, 'corrections poisoning: 40 honest networks, then 110 fake ones, each looked up first', poisoning);
await Promise.all([
  attack(4, '/ip from 3,000 /64s of one /48', rotation),
  attack(5, '/lookup/8.8.8.8 200 times from one client', pagesAsApi),
]);
await attack(10, `${LEAK_STARTS.toLocaleString('en')} DNS leak starts from ${LEAK_CLIENTS.length} clients`, leakStarts);
await attack(12, 'DNS over TCP held from one source, a byte every 3 s', dnsTcpHold);
await attack(6, 'Redis keys hold no client address', redisKeys);

// ---- The main server's end: alive, no worker lost, a clean stop.
const health = await http('/healthz', { fresh: true });
agent.destroy();
const mainDied = diedIn(main.output);
const failedRequests = (main.output.match(/request failed:/g) ?? []).length;
const exitCode = await main.stop();
verdict('end', 'the server after the attacks', health.status === 200 && mainDied === 0 && failedRequests === 0 && exitCode === 0,
  `/healthz ${health.status}; ${mainDied} workers died, ${failedRequests} requests failed (500); exit code on SIGTERM ${exitCode}`);

// ---- The other servers, one after the other, then the whole run's count.
const others = [await limitsOff()];
const namespaceTitle = `HTTP connections flooded from 2 namespace addresses at a server of 600 descriptors (ulimit -n)`;
others.push(await connectionCap(namespaceTitle).catch((error) => {
  verdict(14, namespaceTitle, false, `stopped by an error: ${error.message.split('\n')[0]}`);
  return { name: 'namespace', died: 0 };
}));
const died = [{ name: 'main', died: mainDied }, ...others];
const diedTotal = died.reduce((n, s) => n + s.died, 0);
const unclean = others.filter((s) => s.exit !== undefined && s.exit !== 0);
verdict('all', 'the whole run', serverErrors.length === 0 && diedTotal === 0 && unclean.length === 0,
  `${serverErrors.length} 5xx answers received by any attack${serverErrors.length ? ` (${serverErrors.slice(0, 5).join('; ')})` : ''}; ${diedTotal} workers died (${died.map((s) => `${s.name} ${s.died}`).join(', ')})`
  + `${unclean.length ? `; exit code on SIGTERM ${unclean.map((s) => `${s.name} ${s.exit}`).join(', ')}` : ''}`);
cleanup();
report();
const failed = failures();
console.log(`${failed.length ? `FAILED: ${failed.join(', ')}` : 'PASSED'} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
if (failed.length) console.log(`main server output (last 20 lines):\n${main.output.trim().split('\n').slice(-20).join('\n')}`);
process.exit(failed.length ? 1 : 0);
