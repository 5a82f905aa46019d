// The run lock in one process: waiting with an injected clock, giving up naming the holder, stale takeover, aborts, order.
import { existsSync, mkdirSync, readdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BusyError } from '../../src/runtime/cli-errors.js';
import { acquireRunLock, withRunLock, type RunLockOptions } from '../../src/runtime/files/run-lock.js';
import { tempDir } from '../helpers/temp-dir.js';
import { until } from '../helpers/wait.js';

/** A clock that only moves when the code under test sleeps; `onSleep` runs at each sleep. */
function fakeTime(onSleep: (n: number) => Promise<void> | void = () => {}) {
  let t = 1_000_000;
  let sleeps = 0;
  return {
    now: () => t,
    sleep: async (ms: number, signal?: AbortSignal) => {
      if (signal?.aborted) throw signal.reason;
      t += ms;
      await onSleep(++sleeps);
      if (signal?.aborted) throw signal.reason;
    },
    get sleeps() {
      return sleeps;
    },
  };
}

const quick = (extra: Partial<RunLockOptions> = {}): RunLockOptions => ({ waitMs: 0, ...extra });

describe('run lock', () => {
  it('a second run gives up after the wait with BusyError naming the holder; after release it gets the lock', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'c.csv');
    const first = await acquireRunLock([file], quick());
    expect(first.files).toEqual([file]);
    const waits: string[] = [];
    const time = fakeTime();
    const second = acquireRunLock([file], { waitMs: 5000, onWait: (h, f) => waits.push(`${h} @ ${f}`), ...time });
    const err = await second.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(BusyError);
    const busy = err as BusyError;
    expect(busy.message).toContain(`${file} is in use by another recall-feed run (pid ${process.pid} on ${hostname()}`);
    expect(busy.message).toContain('gave up after waiting 5 s');
    expect(busy.hint).toMatch(/let that run finish/);
    // Said once, however many times it looked again.
    expect(waits).toEqual([expect.stringContaining(`(pid ${process.pid} on `)]);
    expect(time.sleeps).toBeGreaterThan(1);
    await first.release();
    expect(readdirSync(dir)).toEqual([]);
    const third = await acquireRunLock([file], quick());
    await third.release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a waiting run gets the lock as soon as the holder releases it', async () => {
    const file = path.join(tempDir(), 'state.json');
    const first = await acquireRunLock([file], quick());
    const time = fakeTime(async (n) => {
      if (n === 3) await first.release();
    });
    let told = 0;
    const second = await acquireRunLock([file], { waitMs: 60_000, onWait: () => told++, ...time });
    expect(told).toBe(1);
    expect(time.sleeps).toBe(3);
    await second.release();
  });

  it('with a wait of 0 it gives up at once, without saying it waits', async () => {
    const file = path.join(tempDir(), 'x.jsonl');
    const first = await acquireRunLock([file], quick());
    let told = 0;
    await expect(acquireRunLock([file], quick({ onWait: () => told++ }))).rejects.toBeInstanceOf(BusyError);
    expect(told).toBe(0);
    await first.release();
  });

  it('takes over the lock of a run that died (not refreshed for longer than staleMs)', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'c.csv');
    // What a run killed with SIGKILL leaves: the lock folder and its holder note, no longer refreshed.
    mkdirSync(`${file}.lock`);
    writeFileSync(
      `${file}.lock.json`,
      JSON.stringify({ pid: 999999, host: 'gone', started: '2026-01-01T00:00:00.000Z' }),
    );
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${file}.lock`, old, old);
    const lock = await acquireRunLock([file], quick({ staleMs: 5000 }));
    await lock.release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a fresh lock left by another run is not taken over', async () => {
    const file = path.join(tempDir(), 'c.csv');
    mkdirSync(`${file}.lock`);
    writeFileSync(`${file}.lock.json`, JSON.stringify({ pid: 4242, host: 'box', started: '2026-01-01T00:00:00.000Z' }));
    await expect(acquireRunLock([file], quick({ staleMs: 5000 }))).rejects.toThrow(
      /in use by another recall-feed run \(pid 4242 on box, started 2026-01-01T00:00:00.000Z\)/,
    );
  });

  it('locks the file behind a symlink, and a file that does not exist yet', async () => {
    const dir = tempDir();
    const real = path.join(dir, 'real.csv');
    writeFileSync(real, 'id\n');
    const link = path.join(dir, 'link.csv');
    symlinkSync(real, link);
    const viaLink = await acquireRunLock([link, path.join(dir, 'new.json')], quick());
    expect(viaLink.files).toEqual([path.join(dir, 'new.json'), real]);
    await expect(acquireRunLock([real], quick())).rejects.toBeInstanceOf(BusyError);
    await viaLink.release();
    expect(readdirSync(dir).sort()).toEqual(['link.csv', 'real.csv']);
  });

  it('on giving up releases what it had already locked, so runs wanting files in any order cannot deadlock', async () => {
    const dir = tempDir();
    const [a, b] = [path.join(dir, 'a.csv'), path.join(dir, 'b.json')];
    const holdsB = await acquireRunLock([b], quick());
    await expect(acquireRunLock([b, a], quick())).rejects.toBeInstanceOf(BusyError);
    // `a` was locked first (sorted order) and released again.
    const takesA = await acquireRunLock([a], quick());
    await Promise.all([takesA.release(), holdsB.release()]);
  });

  it('an abort ends the wait with the signal reason and leaves no lock behind', async () => {
    const dir = tempDir();
    const [a, b] = [path.join(dir, 'a.csv'), path.join(dir, 'b.csv')];
    const holdsB = await acquireRunLock([b], quick());
    const controller = new AbortController();
    const time = fakeTime((n) => {
      if (n === 2) controller.abort(new Error('interrupted'));
    });
    await expect(acquireRunLock([a, b], { waitMs: 60_000, signal: controller.signal, ...time })).rejects.toThrow(
      'interrupted',
    );
    await holdsB.release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('devices and stdout need no lock', async () => {
    const lock = await acquireRunLock(['/dev/null', '-'], quick());
    expect(lock.files).toEqual([]);
    await lock.release();
    expect(existsSync('/dev/null.lock')).toBe(false);
  });

  it('a lock taken away from a live run is noticed: check() then throws BusyError, so the run commits nothing', async () => {
    const file = path.join(tempDir(), 'd.csv');
    // The shortest refresh proper-lockfile allows (stale 2 s, refreshed each second).
    const lock = await acquireRunLock([file], quick({ staleMs: 2000 }));
    try {
      lock.check();
      // What a takeover by another run looks like to this one: its lock is gone at the next refresh.
      rmSync(`${file}.lock`, { recursive: true, force: true });
      await until('the lost lock to be noticed', () => {
        try {
          lock.check();
          return false;
        } catch (err) {
          expect(err).toBeInstanceOf(BusyError);
          expect((err as Error).message).toMatch(/^lost the lock on .*d\.csv: this run stalled for over 2 s/);
          return true;
        }
      });
    } finally {
      await lock.release();
    }
  });

  it('withRunLock releases however the work ends', async () => {
    const file = path.join(tempDir(), 'c.csv');
    await expect(withRunLock([file], quick(), async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    const value = await withRunLock([file], quick(), async (lock) => {
      lock.check();
      return 42;
    });
    expect(value).toBe(42);
  });
});
