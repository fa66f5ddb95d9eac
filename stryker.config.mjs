// @ts-check
/**
 * Mutation testing (`npm run test:mutation`): StrykerJS changes one thing at a time in the
 * rules below and expects a test to fail for each change. Tests come from
 * vitest.stryker.config.ts; mutants the TypeScript checker rejects are not counted.
 * Surviving mutants that cannot change behaviour are listed, one line each, in
 * stryker-equivalent.md beside this file.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.stryker.config.ts' },
  checkers: ['typescript'],
  tsconfigFile: 'tsconfig.json',
  coverageAnalysis: 'perTest',
  mutate: [
    'src/lib/**/*.ts',
    '!src/lib/**/*.test.ts',
    // The server's rules: client address, rate limit, bulk lookup and CSV, the
    // command-line answers (agent match), record building, place merge, network type.
    'src/server/client-ip.ts',
    'src/server/rate-limit.ts',
    'src/server/api.ts',
    'src/server/text-endpoints.ts',
    'src/server/lookup/engine.ts',
    'src/server/lookup/merge-place.ts',
    'src/server/lookup/network-type.ts',
  ],
  ignorePatterns: ['reports', 'coverage', 'data', '.astro/**/*.js'],
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 90, low: 85, break: 85 },
  concurrency: 2,
  tempDirName: '.stryker-tmp',
};
