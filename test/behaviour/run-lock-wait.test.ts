// A run whose files another run holds (the run lock): it waits --lock-wait on the injected clock, then exits 9 naming
// the holder, having sent nothing (runs overlapping as real processes: test/e2e/concurrent-runs.test.ts).
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { childModule } from '../helpers/child-module.js';
import { deferCleanup } from '../helpers/cleanup.js';
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

  it('after a run was killed, the next run takes its lock over at once and says so in one line', async () => {
    const sandbox = await sandboxFor({ seed: 5, recordCount: 20 });
    const dir = tempDir();
    const out = path.join(dir, 'new.jsonl');
    const lockModule = await childModule('src/runtime/files/run-lock.ts');
    // A run that holds the lock on the output when it is killed (SIGKILL: nothing of it runs after).
    const holder = execa(
      'node',
      [
        '--input-type=module',
        '-e',
        `const { acquireRunLock } = await import(${JSON.stringify(lockModule)});
await acquireRunLock([process.argv[1]], { waitMs: 0 });
process.stdout.write('locked\\n');
setInterval(() => {}, 1000);`,
        out,
      ],
      { reject: false },
    );
    deferCleanup(() => {
      holder.kill('SIGKILL');
    });
    await new Promise<void>((resolve, reject) => {
      holder.stdout?.on('data', (d: Buffer) => (d.toString().includes('locked') ? resolve() : undefined));
      holder.once('exit', () => reject(new Error('the holder exited early')));
    });
    holder.kill('SIGKILL');
    await holder;
    // No time to wait: the lock is fresh, so only the takeover lets this run through.
    const r = await runMainAgainst(sandbox, ['feed', '-o', out, '--lock-wait', '0']);
    expect(r.code).toBe(0);
    expect(r.stderr.split('\n').filter(Boolean)).toEqual([
      `warning: took over the lock on ${out} from another recall-feed run (pid ${holder.pid} on ${hostname()}, started ${
        /started ([^)]+)\)/.exec(r.stderr)?.[1]
      }), which has ended`,
    ]);
    expect(readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(20);
  });
});
