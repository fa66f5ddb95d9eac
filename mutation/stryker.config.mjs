// @ts-check
/**
 * Mutation testing (`npm run test:mutation`): StrykerJS changes one thing at a time in the
 * rules below and expects a test to fail for each change. Tests come from
 * vitest.stryker.config.ts; mutants the TypeScript checker rejects are not counted.
 * Surviving mutants that cannot change behaviour are listed, one line each, in
 * equivalent.md beside this file. Paths here are from the project root, where it runs.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.stryker.config.ts' },
  checkers: ['typescript'],
  tsconfigFile: 'tsconfig.stryker.json',
  coverageAnalysis: 'perTest',
  // Static mutants (module-level tables and constants, run once when a module loads) can
  // only be tested by the whole suite, about 35 s each here: the 469 of them would take
  // longer than CI and a working day. They are not run; the tables they change (reserved
  // ranges, agent names, thresholds) have edge tests of their own, and the report counts
  // them as ignored, not as detected.
  ignoreStatic: true,
  mutate: [
    'src/lib/**/*.ts',
    '!src/lib/**/*.test.ts',
    // The pages' reads of `astro:content` (getCollection, getEntry): they run only inside
    // Astro's build, which no per-mutant test run can start; the content suite and every
    // built page check what they return.
    '!src/lib/content/queries.ts',
    // The server's rules: client address, rate limit, the API's answers and bulk CSV,
    // the command-line answers (agent match), record building, place merge, network
    // type, city search, the analytics rollup plan, the UDP responders' per-source budget;
    // the route table (what claims a request, its limits and CORS) and the limit classes, a
    // step on a maybe-pending value, the timed lookup, the one backoff rule.
    'src/server/http/client-ip.ts',
    'src/server/http/handler.ts',
    'src/server/http/route-table.ts',
    'src/server/rate-limit/limit.ts',
    'src/server/rate-limit/classes.ts',
    'src/server/utils/maybe-promise.ts',
    'src/server/utils/backoff.ts',
    'src/server/lookup/timed-lookup.ts',
    'src/server/rate-limit/memory-store.ts',
    'src/server/handlers/lookup-api.ts',
    'src/server/handlers/command-line-api.ts',
    'src/server/lookup/engine.ts',
    'src/server/lookup/merge-place.ts',
    'src/server/lookup/network-type.ts',
    'src/server/cities/city-index.ts',
    'src/server/cities/fold.ts',
    'src/server/storage/plan.ts',
    'src/server/udp/source-budget.ts',
    // Beyond the rules: the analytics queue and the network key of a row (storage/'s logic;
    // the SQL stores are checked by their contract suite against both databases), the
    // browser stores (fetch, stale answers, GPS, correction, WebRTC, host names, port and
    // leak checks; the export's download is DOM only and checked in the browser), and the
    // islands' logic kept out of their markup.
    'src/server/storage/queue.ts',
    'src/server/storage/event.ts',
    'src/stores/*.ts',
    '!src/stores/*.test.ts',
    '!src/stores/export.ts',
    'src/islands/failure-text.ts',
    'src/islands/page-record.ts',
  ],
  // '/data' is the analytics DATA_DIR; dist/data (the built ASN and city indexes) must reach the sandbox.
  ignorePatterns: ['/reports', '/coverage', '/data', '.astro/**/*.js'],
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  // The targets (85% overall, 90% on src/lib/) are checked per area by
  // scripts/test-mutation.mjs, which also reads the list of equivalent mutants.
  thresholds: { high: 90, low: 85, break: null },
  incremental: true,
  // scripts/test-mutation.mjs unpacks the committed record (incremental.json.gz beside this
  // file) here before a run, and packs it back with --record.
  incrementalFile: 'reports/mutation/incremental.json',
  // Generous: on a shared, busy machine a slow run is not a hang. Real endless loops are
  // caught sooner by Stryker's hit limit, which does not wait for the clock.
  timeoutMS: 60_000,
  timeoutFactor: 3,
  tempDirName: '.stryker-tmp',
};
