// The run lock across real processes: mutual exclusion, naming the holder, and taking over after a SIGKILL.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BusyError } from '../../src/runtime/cli-errors.js';
import { acquireRunLock } from '../../src/runtime/files/run-lock.js';
import { childModule } from '../helpers/child-module.js';
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

  it('a waiting run names the holding process; after that process is killed with SIGKILL, its lock is taken over', async () => {
    const file = path.join(tempDir(), 'c.csv');
    const holder = node(HOLDER, [file]);
    await new Promise<void>((resolve, reject) => {
      holder.stdout?.on('data', (d: Buffer) => (d.toString().includes('locked') ? resolve() : undefined));
      holder.once('exit', () => reject(new Error('the holder exited early')));
    });
    const busy = await acquireRunLock([file], { waitMs: 0 }).catch((e: unknown) => e);
    expect(busy).toBeInstanceOf(BusyError);
    expect((busy as Error).message).toContain(`(pid ${holder.pid} on `);
    holder.kill('SIGKILL');
    await holder;
    expect(existsSync(`${file}.lock`)).toBe(true);
    // Waits (polling) until the dead run's lock has gone stale, then takes it.
    let told = '';
    const lock = await acquireRunLock([file], { waitMs: 60_000, staleMs: 2000, onWait: (h) => (told = h) });
    expect(told).toContain(`pid ${holder.pid}`);
    await lock.release();
    expect(readdirSync(path.dirname(file))).toEqual([]);
  });
});
