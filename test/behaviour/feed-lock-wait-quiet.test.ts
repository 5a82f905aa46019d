// Overlapping cron runs of feed (docs/cron.md): a run that waits for another's lock and then succeeds is silent off a
// terminal, as every successful run is, so cron mails nothing; the wait is said on a terminal, with -v and in the JSON
// log; a wait that runs out is the error alone (exit 9).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/runtime/exit-codes.js';
import { acquireRunLock, type RunLock } from '../../src/runtime/files/run-lock.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { fakeClock, type MainOptions, runMainAgainst } from '../helpers/in-process.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxFor({ seed: 7, recordCount: 12 });
});
afterAll(async () => {
  await sandbox?.close();
});

/** feed as cron runs it, while another run holds its output until this one first sleeps (its first look at the lock). */
async function overlapped(opts: MainOptions, extra: string[] = []) {
  const dir = tempDir('rf-lock-quiet-');
  const out = path.join(dir, 'new.csv');
  const state = path.join(dir, 'seen.json');
  const lock: RunLock = await acquireRunLock([out], { waitMs: 0 });
  const clock = fakeClock(Date.now(), () => lock.release());
  try {
    const args = ['feed', '--hours', '24', '--state', state, '-f', 'csv', '-o', out, '--append', ...extra];
    const r = await runMainAgainst(sandbox, args, { ...opts, clock });
    return { ...r, out, written: readFileSync(out, 'utf8') };
  } finally {
    await lock.release();
  }
}

const waited = (out: string) =>
  new RegExp(
    `^warning: ${out.replaceAll('.', '\\.')} is in use by another recall-feed run \\(pid ${process.pid} on .*\\); waiting up to 60 s$`,
    'm',
  );

describe('feed waiting for another run’s lock', () => {
  it('off a terminal it waits in silence and succeeds: nothing on stderr for cron to mail', async () => {
    const r = await overlapped({});
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.written.split('\n').length).toBeGreaterThan(12);
    // It did wait: the other run's lock was let go during its first pause.
    expect(r.sleeps.length).toBeGreaterThan(0);
  });

  it('with -v, on a terminal and in the JSON log the wait is said', async () => {
    const verbose = await overlapped({}, ['-v']);
    expect(verbose.code).toBe(0);
    expect(verbose.stderr).toMatch(waited(verbose.out));

    const terminal = await overlapped({ stderrIsTTY: true, columns: 100 });
    expect(terminal.code).toBe(0);
    expect(terminal.stderr).toMatch(waited(terminal.out));

    const json = await overlapped({}, ['--log-format', 'json']);
    expect(json.code).toBe(0);
    const records = json.stderr
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { level: string; msg: string });
    expect(records.filter((r) => r.msg.includes('is in use by'))).toEqual([
      expect.objectContaining({ level: 'warn', msg: expect.stringMatching(/; waiting up to 60 s$/) }),
    ]);
  });

  it('a wait that runs out off a terminal: the error and its hint alone, exit 9', async () => {
    const dir = tempDir('rf-lock-quiet-');
    const out = path.join(dir, 'new.csv');
    const lock = await acquireRunLock([out], { waitMs: 0 });
    try {
      const r = await runMainAgainst(sandbox, ['feed', '-f', 'csv', '-o', out, '--lock-wait', '1']);
      expect(r.code).toBe(EXIT.busy);
      const lines = r.stderr.split('\n');
      expect(lines).toHaveLength(3);
      expect(lines[0]).toMatch(
        new RegExp(`^error: .*new\\.csv is in use by .*pid ${process.pid}.*; gave up after waiting 1 s$`),
      );
      expect(lines[1]).toMatch(/^hint: let that run finish, or wait longer with --lock-wait <seconds>/);
      expect(lines[2]).toBe('');
    } finally {
      await lock.release();
    }
  });
});
