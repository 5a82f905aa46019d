// A run whose files another run holds (the run lock): it waits --lock-wait on the injected clock, then exits 9 naming
// the holder, having sent nothing (runs overlapping as real processes: test/e2e/concurrent-runs.test.ts).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMainAgainst } from '../helpers/in-process.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

describe('the run lock from the CLI', () => {
  it('a run that cannot get the lock in time exits 9 and names the holder', async () => {
    const sandbox = await sandboxFor({ seed: 5, recordCount: 50 });
    const dir = tempDir();
    const out = path.join(dir, 'slow.jsonl');
    const { acquireRunLock } = await import('../../src/runtime/files/run-lock.js');
    const lock = await acquireRunLock([out], { waitMs: 0 });
    try {
      const r = await runMainAgainst(sandbox, ['feed', '-o', out, '--lock-wait', '1']);
      expect(r.code).toBe(9);
      expect(r.stderr).toMatch(new RegExp(`in use by .*pid ${process.pid}`));
      expect(r.stderr).toMatch(/^error: .*slow\.jsonl/m);
      expect(r.stderr).toContain('--lock-wait');
      const log = (await (await fetch(`${sandbox.url}/_sandbox/requests`)).json()) as { requests: unknown[] };
      expect(log.requests).toEqual([]);
    } finally {
      await lock.release();
    }
  });
});
