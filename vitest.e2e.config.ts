// End-to-end tests: a real Chromium (playwright-core) against the built server.
import { defineConfig } from 'vitest/config';
import SlowestFirstSequencer from './tests/support/slowest-first-sequencer.ts';

export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.test.ts'],
    testTimeout: 60_000,
    // One built server and one Chromium for the run, shared by the files that need only those.
    globalSetup: ['tests/support/temp-root.ts', 'tests/support/e2e-fixture.ts'],
    hookTimeout: 60_000,
    // Per-file times to reports/test-times/e2e.json (docs/testing.md).
    reporters: ['default', ['./tests/support/durations-reporter.ts', { name: 'e2e' }]],
    // Two files at a time, on two cores, the slowest first so that no file of minutes starts
    // last. What gains is the files that mostly wait (hydration, timers, servers starting); the
    // two axe files are CPU-bound and take as long side by side as one after the other.
    fileParallelism: true,
    maxWorkers: 2,
    sequence: { sequencer: SlowestFirstSequencer },
  },
});
