// `npm test`: every gate CI runs, in order (types, lint, build, unit, e2e), each timed against
// a budget. Stops at the first stage that fails, with its exit code. A stage over its budget
// prints a warning line (`stage X took Ns, over its budget of Ms`); with TEST_BUDGETS=enforce
// that fails the run too (exit 3). After the Vitest stages it prints their slowest files from
// reports/test-times/<stage>.json (tests/support/durations-reporter.ts).
//   node scripts/test.mjs              every stage
//   node scripts/test.mjs unit e2e     only these, in the usual order
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

/** Budgets in seconds, for two cores: together at most 10 minutes (docs/testing.md). */
const STAGES = [
  { name: 'types', script: 'typecheck', budget: 45 },
  { name: 'lint', script: 'lint', budget: 30 },
  { name: 'build', script: 'build', budget: 75 },
  { name: 'unit', script: 'test:unit', budget: 210, times: 'reports/test-times/unit.json' },
  { name: 'e2e', script: 'test:e2e', budget: 240, times: 'reports/test-times/e2e.json' },
];

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !STAGES.some((stage) => stage.name === name));
if (unknown.length) {
  console.error(`unknown stage ${unknown.join(', ')}; stages: ${STAGES.map((s) => s.name).join(', ')}`);
  process.exit(2);
}
const enforce = process.env.TEST_BUDGETS === 'enforce';
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const results = [];

function slowestFiles(file, count = 5) {
  if (!file || !existsSync(file)) return [];
  const { files } = JSON.parse(readFileSync(file, 'utf8'));
  return files.slice(0, count).map((f) => `      ${(f.ms / 1000).toFixed(1).padStart(6)} s  ${f.file}`);
}

function summary() {
  console.log('\n== test stages');
  for (const r of results) {
    const mark = r.code !== 0 ? 'FAILED' : r.over ? 'OVER BUDGET' : 'ok';
    console.log(`  ${r.name.padEnd(6)} ${r.seconds.toFixed(1).padStart(6)} s  (budget ${r.budget} s)  ${mark}`);
    for (const line of slowestFiles(r.times)) console.log(line);
  }
  const total = results.reduce((sum, r) => sum + r.seconds, 0);
  const budget = results.reduce((sum, r) => sum + r.budget, 0);
  console.log(`  total  ${total.toFixed(1).padStart(6)} s  (budget ${budget} s)`);
  for (const r of results.filter((x) => x.over)) {
    console.log(`WARNING: stage ${r.name} took ${Math.round(r.seconds)}s, over its budget of ${r.budget}s`);
  }
}

for (const stage of STAGES.filter((s) => !wanted.length || wanted.includes(s.name))) {
  console.log(`\n== ${stage.name} (npm run ${stage.script}; budget ${stage.budget} s)`);
  const started = performance.now();
  const run = spawnSync(npm, ['run', '--silent', stage.script], { stdio: 'inherit' });
  const seconds = (performance.now() - started) / 1000;
  const code = run.status ?? 1;
  const over = seconds > stage.budget;
  results.push({ ...stage, seconds, code, over });
  if (over) console.log(`\nWARNING: stage ${stage.name} took ${Math.round(seconds)}s, over its budget of ${stage.budget}s`);
  if (code !== 0) {
    summary();
    console.log(`\nstage ${stage.name} failed (exit ${code}); later stages not run`);
    process.exit(code);
  }
}
summary();
if (enforce && results.some((r) => r.over)) {
  console.log('TEST_BUDGETS=enforce: a stage over its budget fails the run');
  process.exit(3);
}
