// Before/after of lookup() in one run (`npm run bench:lookup:compare -- <other checkout>`):
// loads this checkout's engine and the other one's (e.g. `git worktree add /tmp/base main`,
// with its node_modules linked) into one process, and times them in alternating rounds over
// the same addresses, so load from other processes falls on both alike. Prints, per
// scenario, the median of the paired ratios this/other (CPU time and wall clock), once with
// each engine loaded first (load order alone moves results by a few percent), and their mean.
// On a busy machine an A/A run (the same checkout twice) shows the noise: compare against it.
// Options (env): ROUNDS=40 pairs after WARMUP=10, DIST_DIR for the compiled ASN index.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { addressLists, BROWSER_CONTEXTS } from './addresses.mjs';

const ROUNDS = Number(process.env.ROUNDS || 40);
const WARMUP = Number(process.env.WARMUP || 10);
const COUNT = 10_000;
const here = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const other = process.argv[2] && path.resolve(process.argv[2]);
if (!other) {
  console.error('usage: npm run bench:lookup:compare -- <path of the other checkout>');
  process.exit(2);
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function child(first) {
  const load = async (dir) => (await import(pathToFileURL(path.join(dir, 'src/server/lookup/engine.ts')).href))
    .createEngine({ distDir: process.env.DIST_DIR || path.join(here, 'dist') });
  const engines = {};
  for (const [name, dir] of first === 'this' ? [['this', here], ['other', other]] : [['other', other], ['this', here]]) engines[name] = await load(dir);
  const makeAddresses = addressLists(0x1b873593, COUNT);
  const fixed = makeAddresses();
  const fresh = Array.from({ length: WARMUP + ROUNDS }, makeAddresses);
  const scenarios = [
    ['lookup(ip)', () => fixed, () => undefined],
    ['lookup(ip, browser context)', () => fixed, (i) => BROWSER_CONTEXTS[i % 5]],
    ['lookup(ip), a new list every round', (round) => fresh[round], () => undefined],
  ];
  const out = [];
  let sink = 0;
  for (const [label, listFor, contextFor] of scenarios) {
    const cpu = { this: [], other: [] };
    const wall = { this: [], other: [] };
    for (let round = 0; round < WARMUP + ROUNDS; round++) {
      for (const name of round % 2 ? ['this', 'other'] : ['other', 'this']) {
        const list = listFor(round);
        const t = performance.now();
        const c = process.cpuUsage();
        for (let i = 0; i < COUNT; i++) sink += engines[name].lookup(list[i], contextFor(i)).data.accuracy_radius;
        const used = process.cpuUsage(c);
        if (round < WARMUP) continue;
        cpu[name].push(COUNT / ((used.user + used.system) / 1e6));
        wall[name].push(COUNT / ((performance.now() - t) / 1000));
      }
    }
    const ratio = (m) => median(m.this.map((v, i) => v / m.other[i]));
    out.push({ label, cpu: ratio(cpu), wall: ratio(wall), thisRate: median(cpu.this), otherRate: median(cpu.other) });
  }
  if (sink < 0) console.log(sink);
  console.log(JSON.stringify(out));
}

if (process.env.LOOKUP_COMPARE_FIRST) {
  await child(process.env.LOOKUP_COMPARE_FIRST);
} else {
  console.log(`this: ${here}\nother: ${other}\n${ROUNDS} pairs of ${COUNT.toLocaleString('en-US')} lookups per scenario; ratios this/other, above 1 means this is faster`);
  const runs = ['this', 'other'].map((first) => {
    const run = spawnSync(process.execPath, [fileURLToPath(import.meta.url), other], { env: { ...process.env, LOOKUP_COMPARE_FIRST: first }, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(run.stderr);
    return JSON.parse(run.stdout.trim().split('\n').at(-1));
  });
  for (const [i, { label }] of runs[0].entries()) {
    const [a, b] = [runs[0][i], runs[1][i]];
    const f = (v) => v.toFixed(3);
    console.log(`${label.padEnd(36)} CPU ${f(a.cpu)} (this first) ${f(b.cpu)} (other first) mean ${f((a.cpu + b.cpu) / 2)}   wall mean ${f((a.wall + b.wall) / 2)}   (this ${Math.round((a.thisRate + b.thisRate) / 2).toLocaleString('en-US')}/s CPU, other ${Math.round((a.otherRate + b.otherRate) / 2).toLocaleString('en-US')}/s)`);
  }
}
