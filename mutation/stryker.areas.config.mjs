// @ts-check
/**
 * Mutation testing's second run (scripts/test-mutation.mjs runs both): what the server loads
 * and keeps fresh, and what it answers `/` with. Every request an app-building test sends
 * reaches this code too, and Stryker re-runs each covering test file for a mutant: an app
 * build of seconds per file per mutant, over two thousand mutants. So this run leaves out the
 * test files that build the app for every test or before all of them
 * (vitest.stryker-areas.config.ts); the modules' own unit tests reach every line in process.
 * Its score is a floor: the files left out could only kill more. Everything else is as in
 * stryker.config.mjs.
 */
import base from './stryker.config.mjs';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  ...base,
  vitest: { configFile: 'vitest.stryker-areas.config.ts' },
  mutate: [
    // The privacy lists (read, polled, reloaded).
    'src/server/data/privacy-lists.ts',
    // The data update: downloads, the upstream list formats, tarballs, the refresher, freshness.
    'src/server/data-update/*.ts',
    '!src/server/data-update/*.test.ts',
    // A child process's entry: its code runs where Stryker's coverage cannot see; what it calls is mutated and tested in process.
    '!src/server/data-update/*-child.ts',
    // The cities loader: the pbf reader, the index file, where the index comes from; the one
    // format and loader of the built indexes under it.
    'src/server/cities/load.ts',
    'src/server/cities/index-file.ts',
    'src/server/cities/city-data.ts',
    'src/server/built-index/*.ts',
    '!src/server/built-index/*.test.ts',
    // The file watcher the privacy lists and the databases' stamp reload by.
    'src/server/utils/watch-file.ts',
    // The page shell: compiled from Astro's render at start, filled and compressed per request.
    'src/server/shell/*.ts',
    '!src/server/shell/*.test.ts',
  ],
  htmlReporter: { fileName: 'reports/mutation/areas.html' },
  jsonReporter: { fileName: 'reports/mutation/areas.json' },
  incrementalFile: 'reports/mutation/incremental-areas.json',
};
