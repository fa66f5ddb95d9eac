// `npm run test:mutation [-- --record | --force | stryker options | --score-only]`: makes sure
// the build is current (the integration tests serve it), runs Stryker twice, once per config
// (mutation/stryker.config.mjs: the rules, storage, stores and islands' logic;
// mutation/stryker.areas.config.mjs: the privacy lists, data update, cities loader, built indexes
// and page shell, on the tests that do not build the app), each incremental: only mutants whose code or
// covering tests changed since its record (mutation/incremental.json.gz,
// mutation/incremental-areas.json.gz) are run again; `--force` runs all. Then it reads both JSON
// reports: prints the mutation score per file and per area, lists every surviving mutant that
// is neither killed nor explained in mutation/equivalent.md, and exits 1 below the targets: 85%
// overall and in every area, 90% on src/lib/, and no unexplained survivor.
//
// The record: Stryker reads and writes a plain JSON file (reports/mutation/incremental*.json,
// not committed); this script unpacks the committed record there before a run, and with
// `--record` packs the run's result back into it, compact and without the per-mutant
// messages the reuse does not read (about 0.3 MB, against 8 MB as Stryker writes it). A run
// without `--record` (CI's) leaves the committed record alone, so it changes once per change
// of the rules or their tests, not once per run.
//
// Score as Stryker counts it: detected (killed, timed out) over detected plus undetected
// (survived, no coverage); compile and runtime errors and ignored mutants are left out.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { matchesGlob } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import rulesConfig from '../mutation/stryker.config.mjs';
import areasConfig from '../mutation/stryker.areas.config.mjs';

const EQUIVALENT = 'mutation/equivalent.md';
/**
 * The two runs: each its config, its committed record, and (from the config) where Stryker
 * reads and writes that record and writes its JSON report. Their `mutate` lists do not overlap.
 */
const RUNS = [
  { config: 'mutation/stryker.config.mjs', options: rulesConfig, record: 'mutation/incremental.json.gz' },
  { config: 'mutation/stryker.areas.config.mjs', options: areasConfig, record: 'mutation/incremental-areas.json.gz' },
];
const TARGETS = [
  { area: 'all mutated files', match: () => true, min: 85 },
  { area: 'src/lib/', match: (file) => file.startsWith('src/lib/'), min: 90 },
  { area: 'src/server/ rules', match: (file) => file.startsWith('src/server/'), min: 0 },
  { area: 'src/server/storage/', match: (file) => file.startsWith('src/server/storage/'), min: 85 },
  { area: 'src/stores/', match: (file) => file.startsWith('src/stores/'), min: 85 },
  { area: 'the islands\' logic', match: (file) => file.startsWith('src/islands/'), min: 85 },
  { area: 'the privacy lists', match: (file) => file === 'src/server/data/privacy-lists.ts', min: 85 },
  { area: 'the data update', match: (file) => file.startsWith('src/server/data-update/'), min: 85 },
  { area: 'the cities loader and the built indexes', match: (file) => /^src\/server\/(cities\/(load|index-file|city-data)|built-index\/\w+)\.ts$/.test(file), min: 85 },
  { area: 'the page shell', match: (file) => file.startsWith('src/server/shell/'), min: 85 },
];
const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);

/**
 * Whether a config's `mutate` globs take in a file, read in order as Stryker reads them (a
 * `!` glob takes out what the globs before it took in). Stryker's report carries over the
 * record's results of files since taken out of `mutate`: they are neither scored nor listed.
 */
function mutatedBy(options, file) {
  let taken = false;
  for (const glob of options.mutate) {
    if (glob.startsWith('!')) taken &&= !matchesGlob(file, glob.slice(1));
    else taken ||= matchesGlob(file, glob);
  }
  return taken;
}

const mutated = (file) => RUNS.some(({ options }) => mutatedBy(options, file));

const squash = (text) => text.replace(/\s+/g, ' ').trim();

/**
 * Equivalent mutants, one list item each (a snippet holding a backtick goes in double
 * backticks, as Markdown writes it):
 * - `file` MutatorName `original code` → `replacement`: why it cannot change behaviour
 * The original may be the start of a longer snippet (a block's first line).
 */
function readEquivalents(text) {
  const items = [];
  for (const line of text.split('\n')) {
    const m = /^- `([^`]+)` (\w+) (``?)(.+?)\3 → (``?)(.*?)\5: (.+)$/.exec(line);
    if (m) items.push({ file: m[1], mutator: m[2], original: squash(m[4]), replacement: squash(m[6]), why: m[7], used: 0 });
  }
  return items;
}

/** A snippet as a Markdown code span. */
const code = (text) => (text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``);

/** The source text a mutant replaces (report locations are 1-based lines and columns). */
function originalOf(source, { start, end }) {
  const lines = source.split('\n');
  if (start.line === end.line) return lines[start.line - 1].slice(start.column - 1, end.column - 1);
  return [lines[start.line - 1].slice(start.column - 1), ...lines.slice(start.line, end.line - 1), lines[end.line - 1].slice(0, end.column - 1)].join('\n');
}

const pct = (detected, total) => (total === 0 ? 100 : (100 * detected) / total);
const fmt = (n) => n.toFixed(2).padStart(6);

/** Runs a command in the foreground; exits with its status when it fails. */
function run(command, args) {
  const { status } = spawnSync(command, args, { stdio: 'inherit' });
  if (status !== 0) process.exit(status ?? 1);
}

// The storage rules' and the shared rate limit's tests run on a real PostgreSQL and Redis.
// Without them those tests skip, the mutants they would kill survive, and the run would
// report them as unexplained survivors: say what is missing instead, before any work.
const SERVICES = {
  TEST_DATABASE_URL: 'a PostgreSQL database the tests may write to, e.g. postgres://ci:ci@127.0.0.1:5432/whatismyip_test',
  TEST_REDIS_URL: 'a Redis, e.g. redis://127.0.0.1:6379',
};
const missing = Object.keys(SERVICES).filter((name) => !process.env[name]);
if (missing.length > 0 && !process.argv.includes('--score-only')) {
  console.error('npm run test:mutation needs the services the storage and rate-limit tests run on:');
  for (const name of missing) console.error(`  ${name}: ${SERVICES[name]}`);
  console.error('.ci/run shows how to install and start both on Debian (then export the two variables).');
  process.exit(2);
}

/** A run's record as committed: compact JSON, gzip, no per-mutant messages (the reuse reads status, coverage and location). */
function packRecord({ options, record: committed }) {
  const record = JSON.parse(readFileSync(options.incrementalFile, 'utf8'));
  for (const name of Object.keys(record.files)) if (!mutatedBy(options, name)) delete record.files[name];
  for (const file of Object.values(record.files)) for (const mutant of file.mutants) delete mutant.statusReason;
  writeFileSync(committed, gzipSync(JSON.stringify(record), { level: 9 }));
  console.log(`recorded ${committed} (${Math.round(readFileSync(committed).length / 1024)} KB): commit it with the change`);
}

const args = process.argv.slice(2);
const record = args.includes('--record');
// `--score-only`: read the last report again without running anything.
if (!args.includes('--score-only')) {
  run(process.execPath, ['scripts/ensure-build.mjs']);
  mkdirSync('reports/mutation', { recursive: true });
  for (const one of RUNS) {
    if (existsSync(one.record)) writeFileSync(one.options.incrementalFile, gunzipSync(readFileSync(one.record)));
    const started = performance.now();
    run(process.execPath, ['node_modules/@stryker-mutator/core/bin/stryker.js', 'run', one.config, ...args.filter((a) => a !== '--record')]);
    console.log(`\nstryker run of ${one.config}: ${((performance.now() - started) / 60_000).toFixed(1)} min`);
    if (record) packRecord(one);
  }
}
// Each report's files as its own config mutates them.
const reported = {};
for (const { options } of RUNS) {
  const file = options.jsonReporter.fileName;
  if (!existsSync(file)) {
    console.error(`${file} is missing: run \`npm run test:mutation\``);
    process.exit(1);
  }
  for (const [name, result] of Object.entries(JSON.parse(readFileSync(file, 'utf8')).files)) if (mutatedBy(options, name)) reported[name] = result;
}
const equivalents = existsSync(EQUIVALENT) ? readEquivalents(readFileSync(EQUIVALENT, 'utf8')) : [];

const perFile = [];
const unexplained = [];
for (const [file, { source, mutants }] of Object.entries(reported).sort(([a], [b]) => a.localeCompare(b))) {
  let detected = 0;
  let undetected = 0;
  let explained = 0;
  for (const mutant of mutants) {
    if (DETECTED.has(mutant.status)) detected++;
    else if (UNDETECTED.has(mutant.status)) {
      undetected++;
      const original = squash(originalOf(source, mutant.location));
      const replacement = squash(mutant.replacement ?? '');
      const known = equivalents.find((e) => e.file === file && e.mutator === mutant.mutatorName
        && original.startsWith(e.original) && e.replacement === replacement);
      if (known) {
        known.used++;
        explained++;
      } else {
        // Printed as an entry of the list, ready to be explained (or killed).
        unexplained.push(`- \`${file}\` ${mutant.mutatorName} ${code(original.slice(0, 100))} → ${code(replacement)}: `
          + `(${mutant.status}, line ${mutant.location.start.line})`);
      }
    }
  }
  perFile.push({ file, detected, undetected, explained });
}

console.log('\nmutation score (killed + timeout) / (killed + timeout + survived + no coverage)\n');
console.log(' score  detected  undetected  equivalent  file');
for (const f of perFile) {
  console.log(`${fmt(pct(f.detected, f.detected + f.undetected))}  ${String(f.detected).padStart(8)}  ${String(f.undetected).padStart(10)}  ${String(f.explained).padStart(10)}  ${f.file}`);
}
let failed = false;
console.log('');
for (const { area, match, min } of TARGETS) {
  const files = perFile.filter((f) => match(f.file));
  const detected = files.reduce((n, f) => n + f.detected, 0);
  const total = files.reduce((n, f) => n + f.detected + f.undetected, 0);
  const score = pct(detected, total);
  const ok = score >= min;
  failed ||= !ok;
  console.log(`${fmt(score)}  ${area} (${detected} of ${total})${min ? `, target ${min}%: ${ok ? 'met' : 'MISSED'}` : ''}`);
}
// Entries of files not (yet) in `mutate` wait for them, and are not stale.
for (const e of equivalents.filter((item) => item.used === 0 && mutated(item.file))) {
  console.log(`stale entry in ${EQUIVALENT} (no such surviving mutant): ${e.file} ${e.mutator} \`${e.original}\``);
}
if (unexplained.length > 0) {
  failed = true;
  console.log(`\n${unexplained.length} surviving mutant(s) neither killed nor explained in ${EQUIVALENT}:`);
  for (const line of unexplained) console.log(line);
}
process.exit(failed ? 1 : 0);
