// Test runner settings: unit and end-to-end suites, generous timeouts for spawned CLIs on a shared 2-core box.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Disposes each test's temp folders, sandboxes and child processes (test/helpers/cleanup.ts).
    setupFiles: ['test/setup.ts'],
    reporters: ['default', './test/summary-reporter.ts'],
  },
});
