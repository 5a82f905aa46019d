// `feed --state -o --append` killed (SIGKILL, at a point the test chooses) mid-append and around it: the next run finds each
// record in the file once, every row whole; and the temporary files killed runs leave are removed by the next run.
import {
  copyFileSync,
  existsSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { bundleCliScript } from '../helpers/child-module.js';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { STALE_TEMP_AGE_MS } from '../../src/runtime/files/stale-temps.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { expectedFeed } from '../helpers/expected.js';
import { runMainAgainst } from '../helpers/in-process.js';
import { parseCsvWithPython } from '../helpers/python-csv.js';
import { ALL_KEY, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

const _ROOT = path.resolve(import.meta.dirname, '..', '..');

/**
 * The CLI as bin/recall-feed.cjs runs it, killed by SIGKILL at the point RF_KILL_AT names, as `kill -9` would be:
 * - `journal`: as the append's journal is opened, before anything is added;
 * - `append`: at the first write into RF_KILL_FILE, once half of that write is on the file (a row cut);
 * - `commit`: the append done, as the state is about to be renamed into place;
 * - `settle`: right after the state was renamed into place.
 */
const ENTRY = `import { promises as fsp, readlinkSync, writeSync } from 'node:fs';
import { main } from './src/cli/main.ts';
import { processContext } from './src/runtime/process-context.ts';
const { RF_KILL_AT: at, RF_KILL_FILE: target, RF_KILL_STATE: state } = process.env;
const die = () => { process.kill(process.pid, 'SIGKILL'); return new Promise(() => {}); };
const open = fsp.open;
const rename = fsp.rename;
fsp.open = (file, ...rest) => (at === 'journal' && String(file).endsWith('.appending.json') ? die() : open(file, ...rest));
fsp.rename = async (from, to) => {
  if (at === 'commit' && to === state) return die();
  await rename(from, to);
  if (at === 'settle' && to === state) return die();
};
const probe = await open(process.execPath, 'r');
const handle = Object.getPrototypeOf(probe);
await probe.close();
const write = handle.write;
handle.write = function (buffer, offset, length, ...rest) {
  if (at === 'append' && readlinkSync('/proc/self/fd/' + this.fd) === target && length > 1) {
    writeSync(this.fd, buffer, offset, Math.floor(length / 2));
    return die();
  }
  return write.call(this, buffer, offset, length, ...rest);
};
const { ctx, dispose } = processContext();
process.exitCode = await main(process.argv.slice(2), ctx);
dispose();`;

let cli: string;
let sandbox: Sandbox;

beforeAll(async () => {
  const dir = tempDir('rf-killed-cli-', { scope: 'file' });
  cli = path.join(dir, 'cli.mjs');
  await bundleCliScript(cli, ENTRY, 'killed-cli-entry.ts');
  // The real clock: --state forgets what was published more than 25 hours before now.
  sandbox = await sandboxFor({ seed: 43, recordCount: 300 });
});

interface Files {
  dir: string;
  out: string;
  state: string;
}

/** The files of a cron job appending to `new.<ext>` (its format). */
function files(ext = 'csv'): Files {
  // Real paths: the child is killed on the names the CLI resolves (symbolic links followed).
  const dir = realpathSync(tempDir('rf-append-killed-'));
  return { dir, out: path.join(dir, `new.${ext}`), state: path.join(dir, 'seen.json') };
}

const cron = (f: Files, more: string[] = []) => ['feed', '-o', f.out, '--append', '--state', f.state, ...more];

/** The cron run in a process of its own, killed at `at`; resolves with how it ended. */
async function killedRun(f: Files, at: string) {
  const home = tempDir('rf-killed-home-');
  const child = execa(process.execPath, [cli, '--base-url', sandbox.url, ...cron(f)], {
    cwd: f.dir,
    env: {
      PATH: process.env.PATH,
      TERM: 'dumb',
      HOME: home,
      RECALL_FEED_CONFIG_DIR: path.join(home, 'config'),
      RECALL_FEED_CACHE_DIR: path.join(home, 'cache'),
      RECALL_FEED_API_KEY: ALL_KEY,
      RF_KILL_AT: at,
      RF_KILL_FILE: f.out,
      RF_KILL_STATE: f.state,
    },
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
  });
  const r = await child;
  return { signal: r.signal, pid: child.pid as number, stderr: String(r.stderr) };
}

/** The csv as Python reads it: each row as long as the header, each id once, and every id in the window on the way. */
async function expectEachRecordOnce(file: string, startedAt: number): Promise<void> {
  const text = readFileSync(file, 'utf8');
  expect(text.endsWith('\n')).toBe(true);
  const [header, ...rows] = await parseCsvWithPython(file);
  expect(header?.[0]).toBe('id');
  expect(rows.filter((row) => row.length !== header?.length)).toEqual([]);
  expectWindowOnce(
    rows.map((row) => Number(row[0])),
    startedAt,
  );
}

/** Each of `ids` once, nothing that was not in the window when the test began, all that is still in it now. */
function expectWindowOnce(ids: number[], startedAt: number): void {
  expect(ids.length).toBeGreaterThan(100);
  expect(ids.length - new Set(ids).size).toBe(0);
  const then = new Set(expectedFeed(sandbox, { now: startedAt }).map((r) => r.id));
  expect(ids.filter((id) => !then.has(id))).toEqual([]);
  const got = new Set(ids);
  expect(expectedFeed(sandbox).filter((r) => !got.has(r.id))).toEqual([]);
}

const tookOver = (file: string, pid: number) =>
  new RegExp(
    `^warning: took over the lock on ${file} from another recall-feed run \\(pid ${pid} on [^)]+\\), which has ended$`,
  );

describe('feed --state -o --append killed by SIGKILL, then run again', () => {
  const points = [
    { at: 'journal', what: 'before the append journal is on the disk', cut: false },
    { at: 'append', what: 'half-way through a row of the append', cut: true },
    { at: 'commit', what: 'after the append, before the state is in place', cut: true },
    { at: 'settle', what: 'after the state is in place, before the journal is removed', cut: false },
  ];
  for (const p of points) {
    it(`killed ${p.what}: every record in the file once, every row whole`, async () => {
      const startedAt = Date.now();
      const f = files();
      const first = await runMainAgainst(sandbox, cron(f, ['--max', '5']));
      expect(first.code).toBe(0);
      const before = readFileSync(f.out);

      const killed = await killedRun(f, p.at);
      expect(killed.signal).toBe('SIGKILL');
      const left = readFileSync(f.out);
      // Where the kill came, the file holds: nothing more, half a row, or the whole append.
      if (p.at === 'journal') expect(left).toEqual(before);
      if (p.at === 'append') expect(left.length > before.length && !left.toString().endsWith('\n')).toBe(true);
      if (p.at === 'commit' || p.at === 'settle')
        expect(left.length > before.length && left.toString().endsWith('\n')).toBe(true);

      const again = await runMainAgainst(sandbox, cron(f));
      expect(again.code).toBe(0);
      expect(again.stdout).toBe('');
      // The file as the first run left it, then the rest once.
      expect(readFileSync(f.out).subarray(0, before.length)).toEqual(before);
      await expectEachRecordOnce(f.out, startedAt);
      const warnings = again.stderr.split('\n').filter((l) => l !== '');
      const expected = [tookOver(f.out, killed.pid), tookOver(f.state, killed.pid)];
      if (p.cut) {
        const removed = (left.length - before.length).toLocaleString('en-US');
        const kept = before.length.toLocaleString('en-US');
        expected.push(
          new RegExp(
            `^warning: cut ${f.out} back to its ${kept} bytes before a run that was killed while adding rows to it \\(${removed} bytes removed\\)$`,
          ),
        );
      }
      expect(warnings).toHaveLength(expected.length);
      for (const [i, line] of expected.entries()) expect(warnings[i]).toMatch(line);
      // Nothing else is left beside them: no journal, partial, lock or temporary file.
      expect(readdirSync(f.dir).sort()).toEqual(['new.csv', 'seen.json']);
      // A third run adds nothing and says nothing.
      const third = await runMainAgainst(sandbox, cron(f));
      expect([third.code, third.stderr]).toEqual([0, '']);
    });
  }

  it('a file moved away and copied back since the kill is not cut: one warning says so', async () => {
    const f = files();
    expect((await runMainAgainst(sandbox, cron(f, ['--max', '5']))).code).toBe(0);
    const killed = await killedRun(f, 'append');
    expect(killed.signal).toBe('SIGKILL');
    // Someone took the file away and put a copy back (another file, the same bytes).
    renameSync(f.out, path.join(f.dir, 'taken.csv'));
    copyFileSync(path.join(f.dir, 'taken.csv'), f.out);
    const left = readFileSync(f.out);

    const again = await runMainAgainst(sandbox, cron(f));
    expect(again.code).toBe(0);
    expect(again.stderr.split('\n').at(-2)).toBe(
      `warning: did not cut ${f.out} back after a run that was killed while adding rows to it: it was moved or changed since; its last rows may be cut off or written twice`,
    );
    expect(readFileSync(f.out).subarray(0, left.length)).toEqual(left);
    expect(existsSync(`${f.out}.appending.json`)).toBe(false);
  });
});

describe('the other appends a kill can cut short', () => {
  it('jsonl killed half-way through a line: every line parses, every record once', async () => {
    const startedAt = Date.now();
    const f = files('jsonl');
    expect((await runMainAgainst(sandbox, cron(f, ['--max', '5']))).code).toBe(0);
    const before = readFileSync(f.out, 'utf8');
    const killed = await killedRun(f, 'append');
    expect(killed.signal).toBe('SIGKILL');
    expect(readFileSync(f.out, 'utf8').endsWith('\n')).toBe(false);

    const again = await runMainAgainst(sandbox, cron(f));
    expect(again.code).toBe(0);
    const text = readFileSync(f.out, 'utf8');
    expect(text.startsWith(before) && text.endsWith('\n')).toBe(true);
    const ids = text
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => (JSON.parse(l) as { id: number }).id);
    expectWindowOnce(ids, startedAt);
    expect(again.stderr).toMatch(new RegExp(`\\nwarning: cut ${f.out} back to its [\\d,]+ bytes before a run that`));
  });

  it('a first run killed after its new file was put in place, before its state: the file is emptied, then written once', async () => {
    const startedAt = Date.now();
    const f = files();
    const killed = await killedRun(f, 'commit');
    expect(killed.signal).toBe('SIGKILL');
    expect(existsSync(f.state)).toBe(false);
    const left = readFileSync(f.out);
    expect(left.length).toBeGreaterThan(0);

    const again = await runMainAgainst(sandbox, cron(f));
    expect(again.code).toBe(0);
    await expectEachRecordOnce(f.out, startedAt);
    expect(again.stderr.split('\n').at(-2)).toBe(
      `warning: cut ${f.out} back to its 0 bytes before a run that was killed while adding rows to it (${left.length.toLocaleString('en-US')} bytes removed)`,
    );
    expect(readdirSync(f.dir).sort()).toEqual(['new.csv', 'seen.json']);
  });
});

describe('the temporary files killed runs leave', () => {
  it('the next run removes those whose process has ended once they are old, at once those of a run whose lock it took over, and keeps a running one and a recent one', async () => {
    const startedAt = Date.now();
    const f = files();
    expect((await runMainAgainst(sandbox, cron(f, ['--max', '5']))).code).toBe(0);
    const killed = await killedRun(f, 'commit');
    expect(killed.signal).toBe('SIGKILL');
    const dead = killed.pid;
    // The killed run's staged state, whole.
    const staged = `.seen.json.${dead}.tmp`;
    expect(JSON.parse(readFileSync(path.join(f.dir, staged), 'utf8')).version).toBe(1);
    // What other writers killed at their own moment leave (a partial's state, the metrics file), as they name them,
    // last written 11 minutes ago (past STALE_TEMP_AGE_MS); one as old of a process that still runs (the test
    // runner's parent); and a recent one of a pid that runs no more here: maybe another host's writer, at work now.
    const metrics = path.join(f.dir, 'recall_feed.prom');
    const deadOnes = [`.new.csv.partial.json.${dead}.1.tmp`, `.recall_feed.prom.${dead}.3.tmp`];
    const live = `.recall_feed.prom.${process.ppid}.1.tmp`;
    const recent = `.recall_feed.prom.${dead}.4.tmp`;
    const old = new Date(Date.now() - 11 * 60_000);
    for (const name of [...deadOnes, live, recent]) writeFileSync(path.join(f.dir, name), 'half');
    for (const name of [...deadOnes, live]) utimesSync(path.join(f.dir, name), old, old);
    expect(STALE_TEMP_AGE_MS).toBeLessThan(11 * 60_000);

    const again = await runMainAgainst(sandbox, [...cron(f), '--metrics-file', metrics]);
    expect(again.code).toBe(0);
    // The staged state went at once, though recent: its run's lock on seen.json was taken over as ended.
    // Sorted on both sides: which of the two temporary files comes first depends on the pids this run was given.
    expect(readdirSync(f.dir).sort()).toEqual([live, recent, 'new.csv', 'recall_feed.prom', 'seen.json'].sort());
    await expectEachRecordOnce(f.out, startedAt);
  });
});
