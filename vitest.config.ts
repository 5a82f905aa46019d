// Test runner settings: a fast in-process unit project, in-process integration and behaviour projects, and a spawning end-to-end project, with generous timeouts for a shared 2-core box.
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// One throwaway PostgreSQL cluster for the run (or RECALL_FEED_TEST_PG): the archive suites' second engine.
// Shared by every project that lists it; `unit` does not (no unit file needs it, and starting one costs seconds).
const PG_CLUSTER = 'test/global/postgres-cluster.ts';

export default defineConfig({
  test: {
    // The end-to-end files mostly wait (spawned CLIs, real poll intervals and rate windows): two at
    // once even on a 2-core box, where vitest's default (cores - 1) would run them one by one.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Disposes each test's temp folders, sandboxes and child processes (test/helpers/cleanup.ts).
    setupFiles: ['test/setup.ts'],
    // Anything a unit file stubs or mocks is undone after each test: unit files share their modules.
    restoreMocks: true,
    unstubEnvs: true,
    unstubGlobals: true,
    reporters: ['default', './test/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          // In process, no real sleeps: sharing one module graph per worker halves the run.
          pool: 'threads',
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          // In process like `unit`, but with real outside parts: the PostgreSQL cluster, child processes,
          // real timeouts and lock refreshes. Apart from `unit` so that `unit` stays quick (issue 27);
          // run the same way as `unit` was (one module graph per worker).
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          globalSetup: [PG_CLUSTER],
          pool: 'threads',
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          // The CLI in process (runMain) against real loopback servers, a real PostgreSQL and real
          // files, on the injected clock: what used to be spawned end to end without needing a process.
          // Apart from `unit` so that the unit project stays quick. One module graph per worker, as `unit`: importing
          // the CLI afresh for each of 88 files was a third of this project's time (258 s -> 178 s side by side).
          // So a file must leave shared modules as it found them (servers closed, registries restored).
          name: 'behaviour',
          include: ['test/behaviour/**/*.test.ts'],
          globalSetup: [PG_CLUSTER],
          pool: 'threads',
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/**/*.test.ts'],
          globalSetup: [PG_CLUSTER],
          exclude: ['test/unit/**', 'test/integration/**', 'test/behaviour/**'],
          pool: 'forks',
        },
      },
    ],
  },
});
