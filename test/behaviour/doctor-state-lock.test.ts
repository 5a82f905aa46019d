// doctor --state and --lock judge the files as the run will: a state behind a link into a folder that is gone fails
// as the run's exit 10 says it, and a lock a killed run left is the one the next run takes over at once.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../src/runtime/exit-codes.js';
import { acquireRunLock } from '../../src/runtime/files/run-lock.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { runMainAgainst } from '../helpers/in-process.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';
import type { CheckResult as Check } from '../../src/jobs/doctor/check.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxFor({ recordCount: 5, seed: 52 });
});
afterAll(async () => {
  await sandbox?.close();
});

async function doctor(args: string[]) {
  const r = await runMainAgainst(sandbox, ['doctor', ...args, '-f', 'json']);
  const report = JSON.parse(r.stdout) as { checks: Check[] };
  return { ...r, check: (name: string) => report.checks.find((c) => c.name === name) };
}

const STATE_HINT =
  'give --state a file in a folder this user can write to: the state is what keeps each recall from being written twice';

describe('doctor --state, as the run finds the file', () => {
  it('a link into a folder that is gone: a failure in the run’s words (the run then exits 10)', async () => {
    const dir = tempDir('rf-doctor-state-');
    const gone = path.join(dir, 'gone', 'seen.json');
    const state = path.join(dir, 'seen.json');
    symlinkSync(gone, state);
    const r = await doctor(['--state', state]);
    expect(r.check(`state ${state}`)).toEqual({
      name: `state ${state}`,
      status: 'fail',
      detail: `cannot write ${gone}: its folder does not exist`,
      hint: STATE_HINT,
    });
    expect(r.code).toBe(EXIT.doctorFailed);

    const out = path.join(dir, 'o.csv');
    const run = await runMainAgainst(sandbox, ['feed', '--hours', '1', '--state', state, '-o', out]);
    expect(run.code).toBe(EXIT.cannotWrite);
    expect(run.stderr.split('\n')[0]).toBe(`error: ${r.check(`state ${state}`)?.detail}`);
    expect(readdirSync(dir).sort()).toEqual(['seen.json']);
  });

  it('a plain path into a missing folder: the same words, no raw Node error', async () => {
    const dir = tempDir('rf-doctor-state-');
    const state = path.join(dir, 'missing', 'seen.json');
    const r = await doctor(['--state', state]);
    expect(r.check(`state ${state}`)?.detail).toBe(`cannot write ${state}: its folder does not exist`);
    expect(r.check(`state ${state}`)?.hint).toBe(STATE_HINT);
  });

  it('a link to a state file that is there: read through the link', async () => {
    const dir = tempDir('rf-doctor-state-');
    mkdirSync(path.join(dir, 'vol'));
    const real = path.join(dir, 'vol', 'seen.json');
    writeFileSync(real, `${JSON.stringify({ version: 1, seen: { a: 1780000000, b: 1780000001 } })}\n`);
    const state = path.join(dir, 'seen.json');
    symlinkSync(real, state);
    const r = await doctor(['--state', state]);
    expect(r.check(`state ${state}`)).toMatchObject({ status: 'ok', detail: '2 ids remembered' });
  });
});

describe('doctor --lock', () => {
  it('a lock whose run was killed: ok, and the next run takes it over at once, as doctor says', async () => {
    const dir = tempDir('rf-doctor-lock-');
    const file = path.join(dir, 'new.csv');
    const lock = await acquireRunLock([file], { waitMs: 0 });
    try {
      // As a run killed with SIGKILL leaves it: the lock fresh, its note naming a pid no process has any more.
      const dead = spawnSync(process.execPath, ['-e', '0']).pid as number;
      const note = `${file}.lock.json`;
      const holder = JSON.parse(readFileSync(note, 'utf8')) as Record<string, unknown>;
      writeFileSync(note, JSON.stringify({ ...holder, pid: dead }));
      const named = `another recall-feed run (pid ${dead} on ${hostname()}, started ${String(holder.started)})`;
      const r = await doctor(['--lock', file]);
      expect(r.check(`lock ${file}`)).toEqual({
        name: `lock ${file}`,
        status: 'ok',
        detail: `left by ${named}, which has ended: the next run takes it over at once`,
      });
      expect(r.code).toBe(0);
      expect(existsSync(`${file}.lock`)).toBe(true);
      const takeovers: string[] = [];
      const next = await acquireRunLock([file], { waitMs: 0, onTakeOver: (h) => takeovers.push(h) });
      await next.release();
      expect(takeovers).toEqual([named]);
    } finally {
      await lock.release();
    }
    expect((await doctor(['--lock', file])).check(`lock ${file}`)).toMatchObject({ status: 'ok', detail: 'free' });
  });

  it('a lock a running job holds: a warning naming it (exit 15)', async () => {
    const file = path.join(tempDir('rf-doctor-lock-'), 'new.csv');
    const lock = await acquireRunLock([file], { waitMs: 0 });
    try {
      const r = await doctor(['--lock', file]);
      expect(r.check(`lock ${file}`)?.status).toBe('warn');
      expect(r.check(`lock ${file}`)?.detail).toMatch(
        new RegExp(`^held: another recall-feed run \\(pid ${process.pid} on .*, started .*\\) is using it now$`),
      );
      expect(r.code).toBe(EXIT.doctorWarnings);
    } finally {
      await lock.release();
    }
  });
});
