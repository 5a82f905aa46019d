// --exec's bounds on real processes: the whole process group ends, E2BIG is one failure, output is kept within bounds.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { childEnv } from '../../src/actions/child-env.js';
import { splitWords } from '../../src/actions/command-words.js';
import { execAction } from '../../src/actions/exec-action.js';
import { OutputTail } from '../../src/actions/exec-output.js';
import { tempDir } from '../helpers/temp-dir.js';
import { until } from '../helpers/wait.js';
import { alive, pids } from '../helpers/processes.js';

const dir = tempDir('rf-exec-');
const NODE = process.execPath;

// A SIGKILL takes effect a moment after it is sent: the checks wait (briefly) for the processes to go.

function run(command: string, timeoutMs = 10_000) {
  const lines: string[] = [];
  const action = execAction({
    words: splitWords(command),
    timeoutMs,
    killGraceMs: 300,
    onOutput: (l) => lines.push(l),
  });
  return { lines, attempt: () => action.attempt({ id: 1 }) };
}

describe('exec process groups', () => {
  it('a timeout ends the command and the child holding its output', async () => {
    const file = path.join(dir, 'timeout.pids');
    const r = run(`sh -c 'echo $$ > ${file}; sleep 30 & echo $! >> ${file}; wait; echo done'`, 300);
    expect(await r.attempt()).toEqual({ ok: false, timedOut: true, error: 'timed out after 0 s' });
    expect(pids(file)).toHaveLength(2);
    await until('every process of the command gone', () => pids(file).every((pid) => !alive(pid)), 5000);
    expect(r.lines).not.toContain('done');
  });

  it('a command that ignores SIGTERM is killed after the grace, with what it started', async () => {
    const file = path.join(dir, 'trap.pids');
    const r = run(`sh -c 'echo $$ > ${file}; trap "" TERM; sleep 100 & echo $! >> ${file}; wait'`, 300);
    expect(await r.attempt()).toMatchObject({ ok: false, timedOut: true });
    expect(pids(file)).toHaveLength(2);
    await until('every process of the command gone', () => pids(file).every((pid) => !alive(pid)), 5000);
  });

  it('success is the exit status: a background child holding the pipe does not hold the result, and is ended', async () => {
    const file = path.join(dir, 'background.pids');
    const r = run(`sh -c 'echo $$ > ${file}; sleep 60 & echo $! >> ${file}; echo started'`, 5000);
    expect(await r.attempt()).toEqual({ ok: true });
    expect(r.lines).toEqual(['started']);
    expect(pids(file)).toHaveLength(2);
    await until('every process of the command gone', () => pids(file).every((pid) => !alive(pid)), 5000);
  });
  it('Ctrl-C (the run signal) ends the whole group, which the terminal no longer reaches', async () => {
    const file = path.join(dir, 'abort.pids');
    const controller = new AbortController();
    const action = execAction({
      words: splitWords(`sh -c 'echo $$ > ${file}; trap "" TERM; sleep 100 & echo $! >> ${file}; wait'`),
      timeoutMs: 60_000,
      killGraceMs: 300,
      onOutput: () => {},
    });
    const attempt = action.attempt({ id: 1 }, controller.signal);
    await until('the command started', () => pids(file).length === 2);
    controller.abort(new Error('interrupted'));
    expect(await attempt).toEqual({ ok: false, error: 'killed by SIGKILL' });
    await until('every process of the command gone', () => pids(file).every((pid) => !alive(pid)), 5000);
  });
});

describe('exec failures', () => {
  it('an argument longer than the system allows is one permanent failure, not a throw', async () => {
    // Linux caps one argument at 128 KiB (MAX_ARG_STRLEN).
    const action = execAction({ words: [NODE, '-e', '0', '{alert_title}'], timeoutMs: 10_000, onOutput: () => {} });
    expect(await action.attempt({ alert_title: 'x'.repeat(200_000) })).toEqual({
      ok: false,
      permanent: true,
      error: 'an argument is longer than the system allows (E2BIG)',
    });
    expect(await action.attempt({ alert_title: 'short' })).toEqual({ ok: true });
  });

  it('a missing command is named without control characters', async () => {
    const action = execAction({ words: ['rf-no-\u001b]0;x\u0007such'], timeoutMs: 10_000, onOutput: () => {} });
    expect(await action.attempt({})).toEqual({ ok: false, error: 'command not found: rf-no-]0;xsuch' });
  });

  it('a {field} is never the program', () => {
    expect(() => splitWords('{alert_title} --now')).toThrow(/a \{field\} cannot be the program/);
    expect(() => splitWords('/usr/bin/{data_source}-notify x')).toThrow(/cannot be the program/);
    expect(splitWords('notify-send -- {alert_title}')).toEqual(['notify-send', '--', '{alert_title}']);
  });
});

describe('exec output', () => {
  it('keeps the last lines within the byte budget and cuts each line, counting what it dropped', () => {
    const tail = new OutputTail({ keepBytes: 50, lineBytes: 8 });
    const produced = Array.from({ length: 20 }, (_, i) => `line ${String(i).padStart(2, '0')}`);
    // Fed in awkward chunks: lines split across chunks, and a long last line (no newline) in pieces.
    const text = `${produced.join('\n')}\n${'z'.repeat(100)}`;
    for (let i = 0; i < text.length; i += 7) tail.push('stdout', Buffer.from(text.slice(i, i + 7)));
    // The long line: 8 bytes kept + " … (92 more bytes)" = 28 bytes; three 7-byte lines fit beside it (49 <= 50).
    expect(tail.lines()).toEqual([
      '… 17 earlier lines not kept',
      'line 17',
      'line 18',
      'line 19',
      'zzzzzzzz … (92 more bytes)',
    ]);
  });

  it('a flood of lines keeps the last 64 KiB of them', async () => {
    const r = run(`sh -c 'yes | head -n 3000000'`);
    expect(await r.attempt()).toEqual({ ok: true });
    // Every line is "y" (1 byte): 65,536 of them fit.
    expect(r.lines[0]).toBe(`… ${3_000_000 - 65_536} earlier lines not kept`);
    expect(r.lines.slice(1)).toEqual(Array(65_536).fill('y'));
  });

  it('one endless line keeps its first 4 KiB', async () => {
    const size = 30_000_000;
    const r = run(`${NODE} -e "process.stdout.write(Buffer.alloc(${size}, 97))"`);
    expect(await r.attempt()).toEqual({ ok: true });
    expect(r.lines).toEqual([`${'a'.repeat(4096)} … (${size - 4096} more bytes)`]);
  });
});

describe('childEnv', () => {
  it('drops our secrets, and proxies or a database URL carrying a password; keeps the rest', () => {
    const env = childEnv({
      PATH: '/usr/bin',
      HOME: '/home/u',
      RECALL_FEED_API_KEY: 'k',
      DEEPRECALL_API_KEY: 'k2',
      RECALL_FEED_WEBHOOK: 'https://hooks.example.com/T/B/x',
      RECALL_FEED_SMTP_URL: 'smtps://u:p@mail.example.com',
      PGPASSWORD: 'pgpw',
      RECALL_FEED_DB: 'postgres://app:pw@db.example.com/recalls',
      HTTPS_PROXY: 'http://u:p%40ss@proxy.example.com:3128',
      http_proxy: 'u:pw@proxy.example.com:3128',
      All_Proxy: 'socks5://u:pw@proxy.example.com:1080',
      ftp_proxy: 'http://proxy.example.com:3128',
      NO_PROXY: 'localhost',
      RECALL_FEED_TIMEOUT: '20',
      UNSET: undefined,
    });
    expect(env).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/u',
      ftp_proxy: 'http://proxy.example.com:3128',
      NO_PROXY: 'localhost',
      RECALL_FEED_TIMEOUT: '20',
    });
    expect(childEnv({ RECALL_FEED_DB: '/srv/recalls.db' })).toEqual({ RECALL_FEED_DB: '/srv/recalls.db' });
    expect(childEnv({ RECALL_FEED_DB: 'postgres://db.example.com/r?password=pw' })).toEqual({});
  });
});
