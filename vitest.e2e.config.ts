// End-to-end tests: a real Chromium (playwright-core) against the built server.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.test.ts'],
    testTimeout: 60_000,
    globalSetup: ['tests/support/temp-root.ts'],
    hookTimeout: 60_000,
    // Two cores: one browser at a time keeps timings honest.
    fileParallelism: false,
  },
});
