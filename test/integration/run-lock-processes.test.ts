// The run lock across real processes: mutual exclusion, naming the holder, and taking over at once after a SIGKILL.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BusyError } from '../../src/runtime/cli-errors.js';
import { acquireRunLock } from '../../src/runtime/files/run-lock.js';
import { childModule } from '../helpers/child-module.js';
import { deferCleanup } from '../helpers/cleanup.js';
import { tempDir } from '../helpers/temp-dir.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

const LOCK_MODULE = await childModule('src/runtime/files/run-lock.ts');

/** Holds the lock on argv[1] until killed; says "locked" once it has it. */
const HOLDER = `
const { acquireRunLock } = await import(${JSON.stringify(LOCK_MODULE)});
await acquireRunLock([process.argv[1]], { waitMs: 0, staleMs: 2000 });
process.stdout.write('locked\\n');
setInterval(() => {}, 1000);
`;

/**
 * Appends `rounds` lines to argv[1] under the lock. Inside, it creates argv[1].inside exclusively: if
 * another process were inside at the same time, that would fail and the worker would exit 1.
 */
const WORKER = `
import { promises as fs } from 'node:fs';
const { withRunLock } = await import(${JSON.stringify(LOCK_MODULE)});
const [file, rounds] = [process.argv[1], Number(process.argv[2])];
for (let i = 0; i < rounds; i++) {
  await withRunLock([file], { waitMs: 60_000 }, async () => {
    await fs.writeFile(file + '.inside', '', { flag: 'wx' });
    const before = await fs.readFile(file, 'utf8').catch(() => '');
    await new Promise((r) => setImmediate(r));
    await fs.writeFile(file, before + process.pid + ':' + i + '\\n');
    await fs.rm(file + '.inside');
  });
}
`;

function node(script: string, args: string[]) {
  return execa('node', ['--input-type=module', '-e', script, ...args], { reject: false, cwd: ROOT });
}

/** A process holding the lock on `file`, once it has it; `kill()` ends it with SIGKILL and waits for the end. */
async function lockHolder(file: string) {
  const holder = node(HOLDER, [file]);
  deferCleanup(() => {
    holder.kill('SIGKILL');
  });
  await new Promise<void>((resolve, reject) => {
    holder.stdout?.on('data', (d: Buffer) => (d.toString().includes('locked') ? resolve() : undefined));
    holder.once('exit', () => reject(new Error('the holder exited early')));
  });
  // Not the subprocess itself: it is a promise of its end, which an async function would wait for.
  return {
    pid: holder.pid,
    kill: async () => {
      holder.kill('SIGKILL');
      await holder;
    },
  };
}

describe('run lock between processes', () => {
  it('three processes appending under the lock never overlap and lose nothing', async () => {
    const file = path.join(tempDir(), 'log.txt');
    const runs = await Promise.all([0, 1, 2].map(() => node(WORKER, [file, '15'])));
    for (const r of runs) expect({ code: r.exitCode, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    expect(lines).toHaveLength(45);
    expect(new Set(lines).size).toBe(45);
    expect(readdirSync(path.dirname(file))).toEqual(['log.txt']);
  });

  it('a waiting run names the holding process; once that process is killed with SIGKILL, its lock is taken over at once, said once', async () => {
    const file = path.join(tempDir(), 'c.csv');
    const holder = await lockHolder(file);
    const busy = await acquireRunLock([file], { waitMs: 0 }).catch((e: unknown) => e);
    expect(busy).toBeInstanceOf(BusyError);
    expect((busy as Error).message).toContain(`(pid ${holder.pid} on `);
    await holder.kill();
    expect(existsSync(`${file}.lock`)).toBe(true);
    // The dead run's lock is fresh (refreshed a moment ago): without the takeover this would wait for it to
    // go stale (10 s by default), and with no wait allowed, give up.
    const waits: string[] = [];
    const takeovers: string[] = [];
    const lock = await acquireRunLock([file], {
      waitMs: 0,
      onWait: (h) => waits.push(h),
      onTakeOver: (h, f) => takeovers.push(`${h} @ ${f}`),
    });
    expect(waits).toEqual([]);
    expect(takeovers).toEqual([expect.stringContaining(`(pid ${holder.pid} on ${hostname()}`)]);
    expect(takeovers[0]).toMatch(/ @ .*c\.csv$/);
    await lock.release();
    expect(readdirSync(path.dirname(file))).toEqual([]);
  });

  it('a run that is still alive keeps its lock, however its note reads', async () => {
    const file = path.join(tempDir(), 'c.csv');
    const holder = await lockHolder(file);
    let takenOver = 0;
    await expect(acquireRunLock([file], { waitMs: 0, onTakeOver: () => takenOver++ })).rejects.toBeInstanceOf(
      BusyError,
    );
    expect(takenOver).toBe(0);
    await holder.kill();
  });

  it('a note left by a killed run does not speak for the lock another run took after it', async () => {
    const file = path.join(tempDir(), 'c.csv');
    const dead = await lockHolder(file);
    await dead.kill();
    const deadNote = readFileSync(`${file}.lock.json`, 'utf8');
    // A live run takes the lock (over the dead one) and has not written its own note yet: the dead run's is beside it.
    const live = await lockHolder(file);
    writeFileSync(`${file}.lock.json`, deadNote);
    let takenOver = 0;
    await expect(acquireRunLock([file], { waitMs: 0, onTakeOver: () => takenOver++ })).rejects.toBeInstanceOf(
      BusyError,
    );
    expect(takenOver).toBe(0);
    await live.kill();
  });
});
