// `npm run bench:lighthouse`: Lighthouse (the `lighthouse` package, its default mobile preset
// with simulated throttling) with the system Chromium over the pages a visitor meets first:
// `/`, an address's page, `/ip-2`, a city landing page and a blog post. Each page is run 3
// times (LIGHTHOUSE_RUNS; LIGHTHOUSE_PAGES picks pages) and the run with the median performance score is reported: every
// category's score, LCP, TBT and CLS, and the main-thread tasks over 50 ms that start within
// the first 5 s of the throttled load, with the script they come from. Writes
// bench/results/lighthouse.json.
//
// The server is the built one (`npm run build` first), on a free loopback port, with nothing
// fetched from outside: blank map tiles, no STUN, no data refresh, no reverse DNS.
// BASELINE_DIST=<another build inside the repository> also serves that build and audits each
// page against it run by run, alternating, so a busy machine's drift hits both alike: the
// table then holds both, and each page's median TBT and score of the two.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
// The load benches pin themselves to core 0 and their servers to core 1 (servers.mjs).
// Here that would put Chromium's browser, renderer and GPU processes on one core, the server
// alone on the other, and stretch every main-thread task beyond what Lighthouse's simulated
// throttling assumes (an unloaded machine): `/` measured 78-535 ms of TBT with the bench and
// Chromium on core 0, 112-671 with only Chromium unpinned, 2-108 with nothing pinned
// (2026-11-27, same build, quiet machine; six, three and six runs). So nothing is pinned here.
process.env.BENCH_PIN = '0';
const { median, start } = await import('./servers.mjs');

const RUNS = Number(process.env.LIGHTHOUSE_RUNS || 3);
const CHROME_PATH = process.env.CHROME_PATH || process.env.CHROMIUM_PATH || '/usr/bin/chromium';
/** LIGHTHOUSE_PAGES (comma-separated paths) audits only those. */
const PAGES = process.env.LIGHTHOUSE_PAGES?.split(',') ?? ['/', '/lookup/8.8.8.8', '/ip-2', '/ip-lookup/berlin', '/blog/how-ip-geolocation-works'];
const BLANK_TILE = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
/** A long task is one over this many ms, counted when it starts within the first LONG_TASK_WINDOW_MS. */
const LONG_TASK_MS = 50;
const LONG_TASK_WINDOW_MS = 5000;

const BASELINE_DIST = process.env.BASELINE_DIST;
const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-lighthouse-'));
const env = {
  DATA_DIR: dataDir, DATABASE_URL: '', DATA_REFRESH: 'off', REVERSE_DNS: 'off',
  PUBLIC_TILE_URL: BLANK_TILE, STUN_PORT: '0', PUBLIC_STUN_URL: 'stun:127.0.0.1:9',
};
const servers = [['this build', await start('ours', ['src/server/main.ts'], env)]];
if (BASELINE_DIST) servers.push([`baseline ${BASELINE_DIST}`, await start('baseline', ['src/server/main.ts'], { ...env, DIST_DIR: BASELINE_DIST })]);
/** One Lighthouse run of a page, in a browser of its own as Lighthouse's CLI runs it: the scores (0-100), the metrics and the long tasks. */
async function audit(url) {
  const chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'] });
  let lhr;
  try {
    ({ lhr } = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error' }));
  } finally {
    await chrome.kill();
  }
  const scores = Object.fromEntries(Object.entries(lhr.categories).map(([id, c]) => [id, Math.round(c.score * 100)]));
  const value = (id) => lhr.audits[id]?.numericValue ?? NaN;
  const longTasks = (lhr.audits['long-tasks']?.details?.items ?? [])
    .filter((t) => t.duration > LONG_TASK_MS && t.startTime < LONG_TASK_WINDOW_MS)
    .map((t) => ({ source: t.url, startMs: Math.round(t.startTime), ms: Math.round(t.duration) }))
    .sort((a, b) => a.startMs - b.startMs);
  return { scores, lcpMs: Math.round(value('largest-contentful-paint')), tbtMs: Math.round(value('total-blocking-time')), cls: +value('cumulative-layout-shift').toFixed(3), longTasks };
}

const results = [];
try {
  for (const page of PAGES) {
    const runs = servers.map(() => []);
    for (let i = 0; i < RUNS; i++) for (const [k, [, server]] of servers.entries()) runs[k].push(await audit(server.url + page));
    for (const [k, [build]] of servers.entries()) {
      // The run whose performance score is the median one, so its metrics belong together.
      const mid = median(runs[k].map((r) => r.scores.performance));
      const chosen = runs[k].find((r) => r.scores.performance === mid) ?? runs[k][0];
      results.push({ page, build, ...chosen, performanceRuns: runs[k].map((r) => r.scores.performance), tbtRuns: runs[k].map((r) => r.tbtMs) });
    }
  }
} finally {
  for (const [, server] of servers) server.child.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}

console.log(`\nLighthouse ${(await import('lighthouse/package.json', { with: { type: 'json' } })).default.version}, mobile preset (simulated throttling), median of ${RUNS} runs by performance score`);
console.table(results.map((r) => ({ page: r.page, ...(BASELINE_DIST ? { build: r.build } : {}), ...r.scores, 'LCP ms': r.lcpMs, 'TBT ms': r.tbtMs, CLS: r.cls, 'perf runs': r.performanceRuns.join(' '), 'TBT runs': r.tbtRuns.join(' ') })));
for (const r of results) {
  console.log(`${r.page}${BASELINE_DIST ? ` (${r.build})` : ''}: ${r.longTasks.length} task(s) over ${LONG_TASK_MS} ms in the first ${LONG_TASK_WINDOW_MS / 1000} s`);
  for (const t of r.longTasks) console.log(`  at ${t.startMs} ms, ${t.ms} ms: ${t.source}`);
}
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/lighthouse.json', JSON.stringify({ date: new Date().toISOString(), runs: RUNS, results }, null, 2));
