// The tests mutation testing runs (mutation/stryker.config.mjs): unit and in-process integration
// tests of the mutated rules only. No browser, no build step, no content or size checks,
// and no Astro Vite plugins (none of these tests imports an .astro file): each mutant
// re-runs the tests that cover it, so every second here is paid per mutant.
import { defineConfig } from 'vitest/config';
import FastFirstSequencer from './tests/support/fast-first-sequencer.ts';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'tests/*.test.ts'],
    exclude: [
      'tests/e2e/**',
      'node_modules/**',
      'dist/**',
      // No mutated module on their path: content schemas, shipped-JS budgets, the import
      // graph's shape, the accuracy bench's fixed split, README's settings table.
      'tests/content.test.ts',
      'tests/js-budget.test.ts',
      'tests/architecture.test.ts',
      'tests/accuracy-bench.test.ts',
      'tests/config-docs.test.ts',
      // Processes and databases started, stopped and killed: minutes a run, and every
      // rule they reach has its own table elsewhere.
      'tests/lifecycle.test.ts',
      'tests/analytics-outage.test.ts',
      'tests/analytics-workers.test.ts',
      'tests/stun-responder.test.ts',
      // Slow clients and deadlines, timed in seconds over sockets: dispatch's last resort,
      // which no mutated module decides.
      'tests/answer-deadline.test.ts',
      // 3,000 corrections through the API: the rule it shows (storage/plan.ts) has its
      // table in plan.test.ts and the stores' contract in analytics-store.test.ts.
      'tests/corrections-flood.test.ts',
      // 400 random requests per run: slow, and every rule it reaches has its own table.
      'tests/no-5xx.property.test.ts',
      // The `/` shell against Astro's render: both come from the build (the island bundle,
      // Astro's server entry), which a mutant of the sources does not change.
      'tests/page-shell.test.ts',
      // 100,000 addresses, old path against new (half a minute): an equivalence guard for
      // speed work; the shared verdicts it guards have their table in privacy-memo.test.ts.
      'tests/json-differential.test.ts',
    ],
    testTimeout: 20_000,
    // A server start in beforeAll can take this long on a busy machine.
    hookTimeout: 60_000,
    sequence: { sequencer: FastFirstSequencer },
  },
});
