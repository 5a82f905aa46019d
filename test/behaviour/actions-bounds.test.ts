// Actions held within bounds, the CLI in process and its commands real processes: a too-long argument, commands that
// outlive their timeout, secrets kept from children, a silent webhook.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { InterruptedError } from '../../src/runtime/cli-errors.js';
import { fakeClock, runMainAgainst } from '../helpers/in-process.js';
import { ALL_KEY, jsonLines, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';
import { handlerServer } from '../helpers/handler-server.js';
import { until } from '../helpers/wait.js';
import { alive, pids } from '../helpers/processes.js';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

function state(file: string): { seen: Record<string, unknown>; pending?: { id: string }[] } {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** One `feed --state` run writing `max` recalls, with the given action flags. */
function feedOnce(s: Sandbox, dir: string, max: number, args: string[], env: Record<string, string> = {}) {
  return runMainAgainst(
    s,
    ['feed', '-f', 'jsonl', '--max', String(max), '--state', path.join(dir, 'state.json'), ...args],
    { env: { PATH: process.env.PATH, ...env } },
  );
}

describe('--exec bounds', () => {
  it('an argument too long for the system gives up that one delivery, once, and the others go through', async () => {
    sandbox = await sandboxFor({ seed: 21, recordCount: 50 });
    const dir = tempDir();
    const log = path.join(dir, 'log');
    const stateFile = path.join(dir, 'state.json');
    const exec = `'${process.execPath}' -e "require('fs').appendFileSync(process.argv[1], process.argv[2].length + '\\n')" -- '${log}' {alert_title}`;
    // The injected clock is the interval and the retry pauses: the two recalls arrive after the first poll; once
    // the other one is acted on and nothing is pending, two more polls must not try the given-up delivery again.
    const live = sandbox;
    let big: { id: number } | undefined;
    let small: { id: number } | undefined;
    let polled = 0;
    let sleeps = 0;
    const stop = new AbortController();
    const clock = fakeClock(Date.now(), () => {
      sleeps++;
      if (sleeps > 200) throw new Error('the other recall was never acted on');
      if (!big) {
        // Linux refuses one argument over 128 KiB (MAX_ARG_STRLEN).
        [big, small] = live.addRecords([{ alert_title: 'x'.repeat(200_000) }, { alert_title: 'fine' }]);
        return;
      }
      if (polled === 0) {
        const done = existsSync(log) && readFileSync(log, 'utf8') === '4\n';
        if (done && existsSync(stateFile) && state(stateFile).pending === undefined) polled = live.requests().length;
        return;
      }
      if (live.requests().length >= polled + 2) stop.abort(new InterruptedError('SIGINT'));
    });
    const r = await runMainAgainst(
      live,
      ['feed', '--watch', '--interval', '1', '--skip-existing', '-f', 'jsonl', '--state', stateFile, '--exec', exec],
      { clock, signal: stop.signal, env: { PATH: process.env.PATH } },
    );
    const err = r.stderr;
    expect(r.code).toBe(130);
    const warning = `exec given up for recall ${big!.id}: an argument is longer than the system allows (E2BIG); it can never succeed for this record, so it will not be retried`;
    expect(err.split(warning)).toHaveLength(2);
    expect(err).not.toContain('unexpected error');
    expect(err).not.toContain(`recall ${small!.id}:`);
    expect(Object.keys(state(stateFile).seen)).toEqual(expect.arrayContaining([String(big!.id), String(small!.id)]));
  }, 60_000);

  it('a timeout ends the command and the child holding its output; nothing is left running', async () => {
    sandbox = await sandboxFor({ seed: 22, recordCount: 20 });
    const dir = tempDir();
    const file = path.join(dir, 'pids');
    const r = await feedOnce(sandbox, dir, 1, [
      '--exec-timeout',
      '1',
      '--exec',
      `sh -c 'echo $$ >> ${file}; sleep 30 & echo $! >> ${file}; wait; echo done'`,
    ]);
    expect(r.code).toBe(0);
    const [id] = jsonLines(r.stdout).map((x) => String(x.id));
    expect(r.stderr).toContain(`exec failed for recall ${id}: timed out after 1 s; it stays pending`);
    expect(r.stderr).not.toContain('done');
    // Three attempts, each a shell and its sleep.
    expect(pids(file)).toHaveLength(6);
    await until('every process gone', () => pids(file).every((pid) => !alive(pid)), 5000);
    expect(state(path.join(dir, 'state.json')).pending?.map((p) => p.id)).toEqual([id]);
  }, 90_000);

  it('a command that ignores SIGTERM is killed after the grace, with everything it started', async () => {
    sandbox = await sandboxFor({ seed: 23, recordCount: 20 });
    const dir = tempDir();
    const file = path.join(dir, 'pids');
    const r = await feedOnce(sandbox, dir, 1, [
      '--exec-timeout',
      '1',
      '--exec',
      `sh -c 'echo $$ >> ${file}; trap "" TERM; sleep 100 & echo $! >> ${file}; wait'`,
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('timed out after 1 s; it stays pending');
    expect(pids(file)).toHaveLength(6);
    await until('every process gone', () => pids(file).every((pid) => !alive(pid)), 5000);
  }, 90_000);

  it('a command that exits 0 while a child it left holds the pipe succeeds at once, is not re-run, and its child is ended', async () => {
    sandbox = await sandboxFor({ seed: 24, recordCount: 20 });
    const dir = tempDir();
    const file = path.join(dir, 'pids');
    const ran = path.join(dir, 'ran');
    // The id comes in as "$1", never inside the script's text.
    const script = `echo "$1" >> ${ran}; echo $$ >> ${file}; sleep 60 & echo $! >> ${file}; echo started`;
    const args = ['--exec-timeout', '20', '--exec', `sh -c '${script}' sh {id}`];
    const r = await feedOnce(sandbox, dir, 1, args);
    expect(r.code).toBe(0);
    const [id] = jsonLines(r.stdout).map((x) => String(x.id));
    expect(r.stderr).toContain(`exec[${id}]: started`);
    expect(r.stderr).not.toContain('failed');
    expect(pids(file)).toHaveLength(2);
    await until('every process gone', () => pids(file).every((pid) => !alive(pid)), 5000);
    expect(state(path.join(dir, 'state.json')).pending).toBeUndefined();
    // The next run acts on the next new recall only: the first is owed nothing and not run again.
    const again = await feedOnce(sandbox, dir, 1, args);
    expect(again.code).toBe(0);
    const [next] = jsonLines(again.stdout).map((x) => String(x.id));
    expect(readFileSync(ran, 'utf8')).toBe(`${id}\n${next}\n`);
  }, 90_000);

  it("the command's environment holds none of our secrets; the record is on its stdin", async () => {
    sandbox = await sandboxFor({ seed: 25, recordCount: 20 });
    const dir = tempDir();
    const secrets = {
      DEEPRECALL_API_KEY: 'dr-secret-key',
      RECALL_FEED_WEBHOOK: 'https://hooks.example.com/T0/B0/webhook-secret',
      RECALL_FEED_SMTP_URL: 'smtps://mailer:smtp-secret@mail.example.com',
      RECALL_FEED_DB: 'postgres://app:db-secret@db.example.com/recalls',
      HTTPS_PROXY: 'http://user:proxy-secret@proxy.example.com:3128',
      all_proxy: 'socks5://user:all-secret@proxy.example.com:1080',
    };
    const printEnv = `'${process.execPath}' -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{for(const [k,v] of Object.entries(process.env))console.log(k+'='+v);console.log('stdin id '+JSON.parse(s).id)})"`;
    const r = await feedOnce(sandbox, dir, 1, ['--exec', printEnv], {
      ...secrets,
      NO_PROXY: '127.0.0.1',
      KEEP_ME: 'kept',
      ftp_proxy: 'http://proxy.example.com:3128',
    });
    expect(r.code).toBe(0);
    const [id] = jsonLines(r.stdout).map((x) => String(x.id));
    const seen = r.stderr
      .split('\n')
      .filter((l) => l.startsWith(`exec[${id}]: `))
      .map((l) => l.slice(`exec[${id}]: `.length));
    expect(seen).toContain('KEEP_ME=kept');
    expect(seen).toContain('ftp_proxy=http://proxy.example.com:3128');
    expect(seen).toContain(`stdin id ${id}`);
    const names = seen.map((l) => l.split('=')[0]);
    for (const name of [...Object.keys(secrets), 'RECALL_FEED_API_KEY']) expect(names).not.toContain(name);
    for (const value of [...Object.values(secrets), ALL_KEY]) expect(r.stderr).not.toContain(value);
  }, 60_000);

  it('a {field} as the program is refused before any request', async () => {
    sandbox = await sandboxFor({ seed: 26, recordCount: 5 });
    const r = await runMainAgainst(sandbox, ['feed', '--watch', '--exec', '{data_source} {id}']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('a {field} cannot be the program, only its arguments: {data_source}');
    expect(sandbox.requests()).toEqual([]);
  });
});

describe('--webhook bounds', () => {
  it('a receiver that never answers rests after timeouts on two recalls; the rest stays pending, said once', async () => {
    sandbox = await sandboxFor({ seed: 27, recordCount: 20 });
    const dir = tempDir();
    // Reads each request and never answers.
    const silent = await handlerServer(() => {});
    const url = `${silent.url}/hooks/T0/B0/secret-token`;
    const r = await feedOnce(sandbox, dir, 5, ['--timeout', '1', '--webhook', url]);
    expect(r.code).toBe(0);
    const ids = jsonLines(r.stdout).map((x) => String(x.id));
    expect(ids).toHaveLength(5);
    // Three attempts for the first recall, one for the second; then the receiver rests for this run.
    expect(silent.requests).toHaveLength(4);
    const warning = `webhook ${silent.url}/… timed out on two recalls in a row: stopped delivering; 5 recalls stay pending for the next run`;
    expect(r.stderr.split(warning)).toHaveLength(2);
    expect(r.stderr).not.toContain('secret-token');
    expect(state(path.join(dir, 'state.json')).pending?.map((p) => p.id)).toEqual(ids);
  }, 90_000);
});
