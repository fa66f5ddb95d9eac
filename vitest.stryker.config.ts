// The tests mutation testing runs (stryker.config.mjs): unit and in-process integration
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
      // Content schemas and shipped-JS budgets: no mutated module is on their path.
      'tests/content.test.ts',
      'tests/js-budget.test.ts',
      // 400 random requests per run: slow, and every rule it reaches has its own table.
      'tests/no-5xx.property.test.ts',
    ],
    testTimeout: 20_000,
    // A server start in beforeAll can take this long on a busy machine.
    hookTimeout: 60_000,
    sequence: { sequencer: FastFirstSequencer },
  },
});
