// `npm run bench:data-swap`: what swapping in newer databases costs a running server
// (src/server/lookup/engine-holder.ts). The built server answers /json over 10,000
// addresses under wrk (closed loop, 20 connections) for SWAP_SECONDS (default 40); after a
// quarter of it, a newer copy of the DB-IP City and ASN packages (SWAP_PACKAGES; the installed ones, under
// a new version number: the same size as a real update) is unpacked under DATA_DIR and
// announced, as the refresher does. Prints RSS after the warm-up, its peak while both
// databases are held, and at the end; the swap's time and the network index's rebuild
// from the new data (src/server/networks/load.ts) from the server's log; and wrk's
// errors, which must be 0. Exits 1 on an error or an RSS at the end more than 10% above the
// warm-up's.
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { publicAddresses } from './seeded-random.mjs';
import { rssMb, wrk } from './wrk.mjs';
import { NODE_FLAGS } from './node-flags.mjs';

const SECONDS = Number(process.env.SWAP_SECONDS || 40);
/** The packages updated (SWAP_PACKAGES, comma-separated). */
const PACKAGES = (process.env.SWAP_PACKAGES || 'dbip-city-mmdb,asn').split(',');
const require = createRequire(import.meta.url);
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-swap-'));
const port = await new Promise((resolve) => { const s = createServer().listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); }); });
const server = spawn(process.execPath, [...NODE_FLAGS, 'src/server/main.ts'], {
  env: { ...process.env, DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port), STUN_PORT: '0', TRUST_PROXY: 'loopback', DATA_REFRESH: 'off', REVERSE_DNS: 'off', ANALYTICS: 'off', RATE_LIMIT: '0' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
let log = '';
server.stdout.on('data', (chunk) => { log += chunk; });
const base = `http://127.0.0.1:${port}`;
while (!/listening on/.test(log)) await new Promise((r) => setTimeout(r, 100));

const addresses = await publicAddresses(0x5eed);
const samples = [];
const sampler = setInterval(() => samples.push({ at: Date.now(), rss: rssMb(server.pid) }), 250);
// Warm-up: the caches fill before the figure that counts.
await wrk({ base, requests: addresses.map((ip) => [`/json?ip=${ip}`]), seconds: 10, connections: 20 });
const warm = rssMb(server.pid);

const load = wrk({ base, requests: addresses.map((ip) => [`/json?ip=${ip}`]), seconds: SECONDS, connections: 20 });
await new Promise((r) => setTimeout(r, (SECONDS * 1000) / 4));
const announced = Date.now();
for (const pkg of PACKAGES) {
  const from = path.dirname(require.resolve(`@ip-location-db/${pkg}/package.json`));
  const to = path.join(dataDir, 'ip-location-db', pkg);
  cpSync(from, to, { recursive: true });
  const meta = JSON.parse(readFileSync(path.join(to, 'package.json'), 'utf8'));
  writeFileSync(path.join(to, 'package.json'), JSON.stringify({ ...meta, version: `${meta.version}9` }));
}
writeFileSync(path.join(dataDir, 'ip-location-db', 'updated'), new Date().toISOString());
const result = await load;
clearInterval(sampler);
const end = rssMb(server.pid);
const swapped = /swapped them in \((\d+) ms(?:, old data released in (\d+) ms)?/.exec(log);
const rebuilt = /rebuilt the network index from the newer data and swapped it in \((\d+) ms/.exec(log);
const during = samples.filter((s) => s.at >= announced);
const peak = Math.max(...during.map((s) => s.rss));
console.log(`/json over 10k addresses, ${SECONDS} s under wrk: ${Math.round(result.rps)} req/s, p99 ${result.p99} ms, max ${result.max} ms, ${result.errors} errors`);
console.log(`swap of ${PACKAGES.join(', ')}: ${swapped ? `opened and swapped in ${swapped[1]} ms after the stamp was seen${swapped[2] ? `, the old data released in ${swapped[2]} ms` : ''}` : 'did not happen'}`);
console.log(`network index: ${rebuilt ? `rebuilt from the new data and swapped in ${rebuilt[1]} ms after the engine's swap` : 'not rebuilt'}`);
console.log(`RSS: ${warm.toFixed(0)} MB after the warm-up, ${peak.toFixed(0)} MB at the peak while both were held, ${end.toFixed(0)} MB at the end (${(end / warm).toFixed(2)}x)`);
server.kill('SIGTERM');
rmSync(dataDir, { recursive: true, force: true });
process.exitCode = result.errors === 0 && swapped && end <= warm * 1.1 ? 0 : 1;
