// `npm run bench:probe`: an outside probe of the built server. It spawns the real server
// (src/server/main.ts, two cluster workers, the default rate limits, Redis when
// PROBE_REDIS_URL or TEST_REDIS_URL is set) and replays nine attacks that once worked or
// could, printing one verdict line each (`ok`, `FAIL` or `skip`, with the measured figure);
// it exits 1 when one fails. Only 127.0.0.1 traffic; every loop is bounded in count and
// time, and the whole probe stops itself after PROBE_DEADLINE_MS.
//  1. STUN Binding requests from UDP source port 0 (a raw socket: python3 and root) while a
//     client asks /ip: every /ip answers, and /healthz counts the packets.
//  2. Paths that once went unanswered, over raw sockets: each gets a whole 4xx and a close.
//  3. A corrections flood from the /64s of one /48, pointing at the antipode: the published
//     median of honest corrections moves by less than 10%; a cross-site post is refused.
//  4. /64 rotation inside one /48 on the API: refused past the /48's budget (8 × RATE_LIMIT).
//  5. Pages used as an API: refused past PAGE_RATE_LIMIT, with Retry-After.
//  6. Redis holds no client address, in text or hex (only with Redis).
//  7. An X-Forwarded-For hop that is not an address: 400 unknown_client, not loopback's rights.
//  8. Headers sent a byte a second: 408 or a close within 12 s (headersTimeout is 10 s).
//  9. STUN reflection from one source: answers within the per-source budget of each worker.
// At the end the server must answer /healthz, have lost no worker, and exit 0 on SIGTERM.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { NODE_FLAGS } from './node-flags.mjs';
import { publicAddresses } from './seeded-random.mjs';
import { rawExchange } from '../tests/support/raw-http.ts';
import { rawUdpMissing, sendRawUdp } from '../tests/support/raw-udp.ts';
import { bindingRequest } from '../tests/support/stun-client.ts';

const WORKERS = 2;
const RATE_LIMIT = 300;
const PAGE_RATE_LIMIT = 120;
/** How many clients' budgets an IPv6 /48 has (src/server/rate-limit/limit.ts, NETWORK_FACTOR). */
const NETWORK_FACTOR = 8;
/** Each worker's STUN budget per source (src/server/udp/stun.ts, STUN_BUDGET). */
const STUN_BURST = 40;
const STUN_PER_SECOND = 20;
const PROBE_DEADLINE_MS = 175_000;
const REQUEST_TIMEOUT_MS = 10_000;
const REDIS_URL = process.env.PROBE_REDIS_URL || process.env.TEST_REDIS_URL || '';
const BROWSER = { accept: 'text/html,application/xhtml+xml', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/140.0 Safari/537.36' };
/** The /48s attacks 3 and 4 rotate /64s in: apart, so that one's count does not spend the other's. */
const FLOOD_48 = '2a00:1450:4001';
const ROTATION_48 = '2a00:1450:4002';

if (!existsSync('dist/server/entry.mjs')) {
  console.error('dist/ is not built: run `npm run build` first');
  process.exit(1);
}

/** Verdict lines, printed in the attacks' order once all are in (attacks run side by side). */
const verdicts = [];
const ORDER = (id) => (id === 'end' ? 99 : Number(id) || 98);
/** Records one verdict: ok true, false (a failure: the probe exits 1) or undefined (skipped). */
function verdict(id, title, ok, figure) {
  verdicts.push({ id, ok, line: `${(ok === undefined ? 'skip' : ok ? 'ok' : 'FAIL').padEnd(4)} ${id}. ${title}: ${figure}` });
}
const report = () => { for (const v of verdicts.toSorted((a, b) => ORDER(a.id) - ORDER(b.id))) console.log(v.line); };
const failures = () => verdicts.filter((v) => v.ok === false).toSorted((a, b) => ORDER(a.id) - ORDER(b.id)).map((v) => v.id);
/** Runs one attack; an error it throws is its verdict, a failure, and the others go on. */
const attack = (id, title, run) => run(title).catch((error) => verdict(id, title, false, `stopped by an error: ${error.message}`));

const freePort = (kind) => new Promise((resolve) => {
  if (kind === 'udp') { const s = createSocket('udp4').bind(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); }); return; }
  const s = createServer().listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); });
});
const port = await freePort('tcp');
const stunPort = await freePort('udp');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'probe-'));
const redisPrefix = `probe:${randomBytes(6).toString('hex')}:`;
const env = { ...process.env, DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port), STUN_PORT: String(stunPort), TRUST_PROXY: 'loopback', WEB_CONCURRENCY: String(WORKERS), RATE_LIMIT: String(RATE_LIMIT), PAGE_RATE_LIMIT: String(PAGE_RATE_LIMIT), DATA_REFRESH: 'off', REVERSE_DNS: 'off' };
// Analytics in the temporary SQLite file, counts in the cluster primary unless Redis is asked for.
for (const name of ['DATABASE_URL', 'REDIS_URL', 'REDIS_PREFIX', 'ANALYTICS', 'ANALYTICS_TOKEN', 'TRUST_PROXY_HEADER']) delete env[name];
if (REDIS_URL) Object.assign(env, { REDIS_URL, REDIS_PREFIX: redisPrefix });
const server = spawn(process.execPath, [...NODE_FLAGS, 'src/server/main.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
/** Everything the server printed, shown when the probe fails. */
let serverOutput = '';
server.stdout.on('data', (d) => { serverOutput += d; });
server.stderr.on('data', (d) => { serverOutput += d; });
const serverExit = new Promise((resolve) => server.once('exit', (code, signal) => resolve({ code, signal })));

const cleanup = () => { if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL'); rmSync(dataDir, { recursive: true, force: true }); };
const deadline = setTimeout(() => {
  report();
  console.log(`FAIL probe: not finished within ${PROBE_DEADLINE_MS / 1000} s`);
  cleanup();
  process.exit(1);
}, PROBE_DEADLINE_MS);
deadline.unref();

const started = performance.now();
// Every worker prints its own "listening on" line.
while (serverOutput.split('listening on').length - 1 < WORKERS) {
  if (server.exitCode !== null || performance.now() - started > 60_000) {
    console.log(`FAIL the server ${server.exitCode !== null ? `exited with ${server.exitCode}` : 'did not listen within 60 s'}:\n${serverOutput}`);
    cleanup();
    process.exit(1);
  }
  await sleep(100);
}
console.log(`server: ${WORKERS} workers on 127.0.0.1:${port} (STUN udp ${stunPort}), ready in ${((performance.now() - started) / 1000).toFixed(1)} s; RATE_LIMIT=${RATE_LIMIT}, PAGE_RATE_LIMIT=${PAGE_RATE_LIMIT}, rate-limit counts in ${REDIS_URL ? `Redis (prefix ${redisPrefix})` : 'the cluster primary'}`);

const agent = new Agent({ keepAlive: true, maxSockets: 16 });
/**
 * One HTTP request: its status (0 when none came within REQUEST_TIMEOUT_MS), headers and
 * body. `fresh` opens a connection of its own, so that the cluster hands it to the next worker.
 */
function http(pathname, { method = 'GET', headers = {}, body, fresh = false } = {}) {
  return new Promise((resolve) => {
    const req = request({ agent: fresh ? false : agent, host: '127.0.0.1', port, method, path: pathname, headers: body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
      const chunks = [];
      res.on('data', (d) => chunks.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', () => resolve({ status: 0, headers: {}, body: '' }));
    });
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy());
    req.on('error', () => resolve({ status: 0, headers: {}, body: '' }));
    req.end(body);
  });
}
const parsed = (answer) => { try { return JSON.parse(answer.body); } catch { return undefined; } };

/** Runs `task(i)` for i below `count`, `concurrency` at a time. */
async function pool(count, concurrency, task) {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => { while (next < count) await task(next++); }));
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
 * itself; fresh connections go to the workers in turn (the cluster's round robin), so a few
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
    counted = await summedHealthFigure(/(\d+) from port 0/);
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
    answers.push(await rawExchange(port, `GET ${PATHS[i % PATHS.length]} HTTP/1.1\r\nHost: localhost\r\nAccept: text/html\r\nConnection: close\r\n\r\n`, { timeoutMs: 10_000 }));
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

/** Where the server places `ip`, or undefined when it has no place for it. */
async function placeOf(ip) {
  const record = parsed(await http(`/json?ip=${ip}`));
  return record && record.country_code !== 'Unknown' && typeof record.latitude === 'number' ? record : undefined;
}
const accuracy = async () => parsed(await http('/api/analytics?period=24h'))?.accuracy;

/** The honest IPv4 clients, for attack 6's check too. */
const honest = [];

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
  const votes = await Promise.all(honest.map(({ ip, place }, i) => correction(ip, place.latitude + (10 + i) / 111.195, place.longitude)));
  const recorded = votes.filter((v) => v.status === 202).length;
  const written = await analyticsWritten();
  const before = await accuracy();
  const crossSite = await correction('81.2.69.162', 0, 0, { 'content-type': 'text/plain', 'sec-fetch-site': 'cross-site' });

  const floodPlace = await placeOf(`${FLOOD_48}::1`);
  if (!floodPlace) { verdict(3, title, false, `no place for ${FLOOD_48}::1: the flood would not be recorded at all`); return; }
  const antipode = [-floodPlace.latitude, floodPlace.longitude > 0 ? floodPlace.longitude - 180 : floodPlace.longitude + 180];
  const flood = [];
  await pool(3_000, 8, async (k) => { flood.push((await correction(`${FLOOD_48}:${k.toString(16)}::1`, ...antipode)).status); });
  const writtenAfter = await analyticsWritten();
  const after = await accuracy();
  const moved = before?.medianKm ? Math.abs(after?.medianKm - before.medianKm) / before.medianKm : NaN;
  const ok = recorded === 40 && written && writtenAfter && [403, 415].includes(crossSite.status) && moved < 0.1;
  verdict(3, title, ok,
    `${recorded}/40 honest corrections recorded; median ${before?.medianKm} km over ${before?.networks} networks, after 3,000 antipodal posts (${tallyOf(flood)}) ${after?.medianKm} km over ${after?.networks} networks: moved ${(moved * 100).toFixed(1)}%; `
    + `cross-site text/plain post ${crossSite.status}${written && writtenAfter ? '' : '; the analytics queue was not written within 15 s'}`);
}

// ---- 4 and 5: rotation inside a /48 on the API; pages asked as an API.

async function rotation(title) {
  const answers = [];
  await pool(3_000, 8, async (k) => { answers.push(await http('/ip?ip=8.8.8.8', { headers: { 'x-forwarded-for': `${ROTATION_48}:${k.toString(16)}::1` } })); });
  const f = refusalFigures(answers);
  const cap = NETWORK_FACTOR * RATE_LIMIT;
  verdict(4, title, f.refused > 0 && f.passed <= cap && f.before >= 0.9 * cap,
    `${f.before} answered 200 before the first 429 (cap ${NETWORK_FACTOR} × ${RATE_LIMIT} = ${cap}); in all ${f.tally}`);
}

async function pagesAsApi(title) {
  const answers = [];
  await pool(200, 4, async () => { answers.push(await http('/lookup/8.8.8.8', { headers: { ...BROWSER, 'x-forwarded-for': '81.2.69.163' } })); });
  const f = refusalFigures(answers);
  verdict(5, title, f.refused > 0 && f.retryAfter && f.passed <= PAGE_RATE_LIMIT && f.before >= 0.9 * PAGE_RATE_LIMIT,
    `${f.before} pages before the first 429 (PAGE_RATE_LIMIT ${PAGE_RATE_LIMIT}); in all ${f.tally}; ${f.refused === 0 ? 'no 429 at all' : f.retryAfter ? 'every 429 with Retry-After' : 'a 429 without Retry-After'}`);
}

// ---- 6: what Redis holds.

async function redisKeys(title) {
  if (!REDIS_URL) { verdict(6, title, undefined, 'skipped: set PROBE_REDIS_URL (or TEST_REDIS_URL) to count in Redis'); return; }
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1, lazyConnect: true });
  try {
    await redis.connect();
    const keys = [];
    let cursor = '0';
    for (let i = 0; i < 1_000; i++) {
      const [next, found] = await redis.scan(cursor, 'MATCH', `${redisPrefix}*`, 'COUNT', 1000);
      keys.push(...found);
      cursor = next;
      if (cursor === '0') break;
    }
    const hex48 = (net) => net.split(':').map((g) => g.padStart(4, '0')).join('');
    // A /48's text or hex starts every /64 of it; 81.2.69.16 starts the single clients' .160 to .163.
    const needles = [...honest.map((h) => h.ip), '81.2.69.16', FLOOD_48, ROTATION_48, hex48(FLOOD_48), hex48(ROTATION_48)];
    const leaks = keys.filter((key) => needles.some((n) => key.toLowerCase().includes(n)));
    verdict(6, title, keys.length > 0 && leaks.length === 0,
      `${keys.length} keys under ${redisPrefix}, ${leaks.length} containing a client address (IPv4 text, IPv6 /48 in text or hex)${leaks.length ? `: ${leaks.slice(0, 3).join(', ')}` : ''}`);
    for (let i = 0; i < keys.length; i += 500) await redis.del(...keys.slice(i, i + 500));
  } catch (error) {
    verdict(6, title, false, `Redis at ${REDIS_URL} could not be read: ${error.message}`);
  } finally {
    redis.disconnect();
  }
}

await Promise.all([
  attack(1, 'STUN from UDP source port 0 while /ip is asked', portZero),
  attack(8, 'headers at a byte a second', slowHeaders),
  attack(7, 'X-Forwarded-For "8.8.8.8, unknown"', unparseableHop)
    .then(() => attack(9, 'STUN reflection: 20,000 requests from one source', reflection)),
]);
await attack(2, 'paths that once went unanswered, 2,000 over raw sockets', unansweredPaths);
await attack(3, 'corrections flood from the /64s of one /48', poisoning);
await Promise.all([
  attack(4, '/ip from 3,000 /64s of one /48', rotation),
  attack(5, '/lookup/8.8.8.8 200 times from one client', pagesAsApi),
]);
await attack(6, 'Redis keys hold no client address', redisKeys);

// ---- The end: alive, no worker lost, a clean stop.
const health = await http('/healthz', { fresh: true });
agent.destroy();
const died = (serverOutput.match(/worker \d+ died/g) ?? []).length;
const failedRequests = (serverOutput.match(/request failed:/g) ?? []).length;
server.kill('SIGTERM');
const exit = await Promise.race([serverExit, sleep(25_000).then(() => ({ code: 'none within 25 s' }))]);
verdict('end', 'the server after the attacks', health.status === 200 && died === 0 && failedRequests === 0 && exit.code === 0,
  `/healthz ${health.status}; ${died} workers died, ${failedRequests} requests failed (500); exit code on SIGTERM ${exit.code ?? exit.signal}`);
cleanup();
report();
const failed = failures();
console.log(`${failed.length ? `FAILED: ${failed.join(', ')}` : 'PASSED'} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
if (failed.length) console.log(`server output (last 20 lines):\n${serverOutput.trim().split('\n').slice(-20).join('\n')}`);
process.exit(failed.length ? 1 : 0);
