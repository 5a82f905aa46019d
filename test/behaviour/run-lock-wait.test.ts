// A run whose files another run holds (the run lock): it waits --lock-wait on the injected clock, then exits 9 naming
// the holder, having sent nothing (runs overlapping as real processes: test/e2e/concurrent-runs.test.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { childModule } from '../helpers/child-module.js';
import { deferCleanup } from '../helpers/cleanup.js';
import { fakeClock, runMainAgainst } from '../helpers/in-process.js';
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
  it('match, query and digest -o take turns on their output as feed does: exit 9 naming the holder, the file kept', async () => {
    const sandbox = await sandboxFor({ seed: 5, recordCount: 30 });
    const dir = tempDir();
    const catalog = path.join(dir, 'products.csv');
    writeFileSync(catalog, 'sku,brand,name\nA-1,Acme,Kettle\n');
    const db = path.join(dir, 'a.db');
    expect((await runMainAgainst(sandbox, ['sync', '--db', db, '-q'])).code).toBe(0);
    const out = path.join(dir, 'out.csv');
    writeFileSync(out, 'the last good run\n');
    const { acquireRunLock } = await import('../../src/runtime/files/run-lock.js');
    const lock = await acquireRunLock([out], { waitMs: 0 });
    try {
      for (const args of [
        ['match', '--catalog', catalog, '-o', out],
        ['query', '--db', db, '-o', out],
        ['digest', '--db', db, '-f', 'markdown', '-o', out],
      ]) {
        const r = await runMainAgainst(sandbox, args);
        expect(r.code, args[0]).toBe(9);
        // Off a terminal the wait itself is not said (cron would mail it); the error that ends it names the holder.
        expect(r.stderr).not.toContain('waiting up to 60 s');
        expect(r.stderr).toMatch(/^error: .*out\.csv/m);
        // The whole wait, on the run's clock.
        expect(r.sleeps.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(60_000);
        expect(readFileSync(out, 'utf8')).toBe('the last good run\n');
      }
    } finally {
      await lock.release();
    }
  });

  it('match -o goes on once the other run lets its output go, and writes it whole', async () => {
    const sandbox = await sandboxFor({ seed: 5, recordCount: 30 });
    const dir = tempDir();
    const catalog = path.join(dir, 'products.csv');
    writeFileSync(catalog, 'sku,brand,name\nA-1,Acme,Kettle\n');
    const out = path.join(dir, 'out.jsonl');
    const { acquireRunLock } = await import('../../src/runtime/files/run-lock.js');
    const lock = await acquireRunLock([out], { waitMs: 0 });
    // The other run ends during this one's first wait.
    const clock = fakeClock(Date.now(), () => lock.release());
    // With -v the wait is said, off a terminal too.
    const r = await runMainAgainst(sandbox, ['-v', 'match', '--catalog', catalog, '-f', 'jsonl', '-o', out], { clock });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`warning: ${out} is in use by another recall-feed run`);
    const alone = await runMainAgainst(sandbox, ['match', '--catalog', catalog, '-f', 'jsonl']);
    expect(readFileSync(out, 'utf8')).toBe(alone.stdout);
  });
});
