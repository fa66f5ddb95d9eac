// The hostile client `npm run bench:soak` runs beside its normal loads, for the whole soak:
// - paths that once went unanswered and held their sockets (dot segments, backslashes,
//   encoded dots, overlong UTF-8: src/server/http/app.ts `pageTarget`), 200 at once every second
//   over raw sockets, each given 15 s to be answered (the server's own deadline is 10 s);
// - a corrections flood: POST /api/corrections as the site's own pages send it, from ever
//   new clients (X-Forwarded-For, the soak trusts its loopback proxy): public IPv4
//   addresses and IPv6 /64s rotating inside one /48;
// - STUN Binding requests and garbage at 3,000 packets a second to the UDP responder.
// It counts what came back. Every HTTP request must be answered, a 4xx included (a 429 of
// the rate limit, a 403 or 415 of the corrections endpoint are answers); none with a 5xx.
import { randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';

/** Given this long to be answered; past it, a request counts as unanswered. */
const ANSWER_WAIT_MS = 15_000;
/** Raw-socket requests opened at once, each second. */
const PATH_BURST = 200;
/** Corrections in flight at once, each sent as soon as the last is answered. */
const CORRECTION_CONNECTIONS = 4;
/** STUN packets a second, in ticks of 10 ms; one in three is garbage. */
const STUN_PER_SECOND = 3_000;

/** Dot segments, encoded dots and slashes, double encoding, backslashes, overlong UTF-8, NUL. */
export const HOSTILE_PATHS = [
  '/lookup/.', '/lookup/%2E', '/lookup/a\\', '/lookup/\\\\evil.com', '/lookup/..', '/lookup/%2e%2e', '/lookup/.%2e',
  '/lookup/%252e', '/lookup/%5c', '/lookup/.\\', '/lookup/\\..\\..\\etc\\passwd', '/lookup/%00', '/lookup/%c0%ae',
  '/lookup/%e0%80%ae', '/%6cookup/..', '/\\\\evil.com', '/.', '/%2e%2e', '/ip-2/..', '/api/lookup/..', '/api/lookup/a\\',
  '/json/..', '/AS15169/..', '/_astro/..%2f..%2fpackage.json', '/_astro/\\..\\package.json', '/blog/%2e%2e/%2e%2e/etc/passwd',
];
const ACCEPTS = ['text/html,application/xhtml+xml', 'application/json', '*/*'];

/** A tally of one kind of request: sent, answered by status class, unanswered; and each status's count. */
const tally = () => ({ sent: 0, answered: 0, unanswered: 0, '2xx/3xx': 0, '4xx': 0, '5xx': 0, statuses: {} });
function count(t, status) {
  if (!status) { t.unanswered++; return; }
  t.answered++;
  t[status >= 500 ? '5xx' : status >= 400 ? '4xx' : '2xx/3xx']++;
  t.statuses[status] = (t.statuses[status] ?? 0) + 1;
}

/** One raw-socket request with Connection: close: its status once the server has closed the connection, 0 if it did not answer in time. */
function rawRequest(port, path, accept) {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let head = '';
    const done = (status) => { clearTimeout(timer); socket.destroy(); resolve(status); };
    const timer = setTimeout(() => done(0), ANSWER_WAIT_MS);
    socket.on('data', (d) => { if (head.length < 16) head += d.toString('latin1'); });
    socket.on('close', () => done(Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0)));
    socket.on('error', () => {});
    socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nAccept: ${accept}\r\nUser-Agent: Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0\r\nConnection: close\r\n\r\n`, 'latin1');
  });
}

/** The n-th correction client: in turn a public IPv4 address and an IPv6 /64 of 2a00:1450:4001::/48 (65,536 of them). */
function correctionClient(n, ipv4) {
  if (n % 2 === 0) return ipv4[(n / 2) % ipv4.length];
  const k = (n - 1) / 2;
  return `2a00:1450:4001:${(k % 0x10000).toString(16)}::${((k * 7919) % 0xffff + 1).toString(16)}`;
}

/** One correction as the site's page posts it: its status, 0 if none came in time. */
function postCorrection(agent, port, client) {
  const body = JSON.stringify({ latitude: Math.round((Math.random() * 180 - 90) * 1e4) / 1e4, longitude: Math.round((Math.random() * 360 - 180) * 1e4) / 1e4 });
  return new Promise((resolve) => {
    const req = request({
      agent, host: '127.0.0.1', port, method: 'POST', path: '/api/corrections',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin', 'x-forwarded-for': client, 'content-length': Buffer.byteLength(body) },
    }, (res) => { res.resume(); res.on('end', () => resolve(res.statusCode ?? 0)); });
    req.setTimeout(ANSWER_WAIT_MS, () => req.destroy());
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

/** A STUN Binding request: the 20-byte header, no attributes, a fresh transaction ID. */
function bindingRequest() {
  const packet = Buffer.alloc(20);
  packet.writeUInt16BE(0x0001, 0);
  packet.writeUInt32BE(0x2112a442, 4);
  randomBytes(12).copy(packet, 8);
  return packet;
}

/** Garbage in turn: random bytes, a STUN header whose length lies, one with the wrong magic cookie. */
function garbage(n) {
  if (n % 3 === 0) return randomBytes(1 + (n % 120));
  const packet = bindingRequest();
  if (n % 3 === 1) packet.writeUInt16BE(8, 2);
  else packet.writeUInt32BE(0xdeadbeef, 4);
  return packet;
}

/**
 * Starts the hostile client against the server on `port` (HTTP) and `stunPort` (UDP);
 * `ipv4` are the addresses its corrections come from (none of the normal loads', whose
 * rate limit they would eat into). `stop()` ends it and waits for every request in flight.
 */
export function startHostileClient({ port, stunPort, ipv4 }) {
  const stats = { paths: tally(), corrections: tally(), stun: { sent: 0, answers: 0 } };
  const inFlight = new Set();
  const track = (promise) => { inFlight.add(promise); promise.finally(() => inFlight.delete(promise)); return promise; };
  let running = true;

  let burst = 0;
  const paths = setInterval(() => {
    for (let i = 0; i < PATH_BURST; i++) {
      const n = burst * PATH_BURST + i;
      stats.paths.sent++;
      track(rawRequest(port, HOSTILE_PATHS[n % HOSTILE_PATHS.length], ACCEPTS[n % ACCEPTS.length]).then((status) => count(stats.paths, status)));
    }
    burst++;
  }, 1000);

  const agent = new Agent({ keepAlive: true, maxSockets: CORRECTION_CONNECTIONS });
  let clients = 0;
  const flood = async () => {
    while (running) {
      stats.corrections.sent++;
      count(stats.corrections, await postCorrection(agent, port, correctionClient(clients++, ipv4)));
    }
  };
  const floods = Array.from({ length: CORRECTION_CONNECTIONS }, () => track(flood()));

  const udp = createSocket('udp4');
  udp.on('message', () => { stats.stun.answers++; });
  udp.on('error', () => {});
  let packets = 0;
  const stun = setInterval(() => {
    for (let i = 0; i < STUN_PER_SECOND / 100; i++, packets++) {
      udp.send(packets % 3 === 2 ? garbage(packets) : bindingRequest(), stunPort, '127.0.0.1');
      stats.stun.sent++;
    }
  }, 10);

  return {
    stats,
    async stop() {
      running = false;
      clearInterval(paths);
      clearInterval(stun);
      await Promise.all([...inFlight, ...floods]);
      agent.destroy();
      udp.close();
    },
  };
}

/** Whether the STUN responder answers a Binding request (a few tries, a second apart: the flood may have spent this source's budget). */
export async function stunAnswers(stunPort, tries = 5) {
  const udp = createSocket('udp4');
  try {
    for (let i = 0; i < tries; i++) {
      const answered = new Promise((resolve) => { udp.once('message', () => resolve(true)); setTimeout(() => resolve(false), 1000); });
      udp.send(bindingRequest(), stunPort, '127.0.0.1');
      if (await answered) return true;
    }
    return false;
  } finally {
    udp.close();
  }
}
