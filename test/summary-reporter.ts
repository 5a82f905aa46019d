// Prints one plain closing line, "N passed, N failed, N skipped", that any CI log reader understands.
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const mod of modules) {
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed++;
        else if (state === 'failed') counts.failed++;
        else counts.skipped++;
      }
      if (mod.state() === 'failed' && !mod.children.size) counts.failed++;
    }
    process.stdout.write(`\nvitest: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`);
    // Set by the PostgreSQL globalSetup when no server could be had: said again where the run ends.
    if ((globalThis as { rfPgSkipped?: boolean }).rfPgSkipped)
      process.stdout.write(
        'vitest: the PostgreSQL half of the archive tests was SKIPPED (PostgreSQL is not installed)\n',
      );
  }
}
