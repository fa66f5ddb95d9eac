/// <reference types="vitest/config" />
// Unit and integration tests (no browser). getViteConfig lets tests import .astro files.
import { getViteConfig } from 'astro/config';

export default getViteConfig({
  test: {
    include: ['src/**/*.test.ts', 'tests/**/*.test.ts'],
    exclude: ['tests/e2e/**', 'node_modules/**', 'dist/**'],
    testTimeout: 20_000,
    globalSetup: ['tests/support/temp-root.ts'],
    // Per-file times to reports/test-times/unit.json (docs/testing.md).
    reporters: ['default', ['./tests/support/durations-reporter.ts', { name: 'unit' }]],
  },
});
