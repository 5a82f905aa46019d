// --exec: runs a command once per recall, never through a shell; the record is on its stdin as one JSON line.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Action, AttemptResult } from './action.js';
import { stripControls } from './action.js';
import { fillWords } from './command-words.js';

export interface ExecActionOptions {
  /** The command's words, as splitWords made them; {field}s are filled per record. */
  words: readonly string[];
  timeoutMs: number;
  /** Each line the command prints on stdout or stderr, control characters removed. */
  onOutput: (line: string, record: Record<string, unknown>) => void;
  /** Grace between SIGTERM and SIGKILL after a timeout. */
  killGraceMs?: number;
}

export function execAction(opts: ExecActionOptions): Action {
  return { name: 'exec', attempt: (record, signal) => runOnce(opts, record, signal) };
}

function runOnce(
  opts: ExecActionOptions,
  record: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<AttemptResult> {
  const [file, ...args] = fillWords(opts.words, record) as [string, ...string[]];
  return new Promise((resolve) => {
    let settled = false;
    let timedOut = false;
    const child = spawn(file, args, { shell: false, stdio: ['pipe', 'pipe', 'pipe'], signal });
    const done = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(killer);
      resolve(result);
    };
    let killer: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGTERM');
      killer = setTimeout(() => child.kill('SIGKILL'), opts.killGraceMs ?? 2000);
      killer.unref();
    }, opts.timeoutMs);
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY }).on('line', (line) =>
        opts.onOutput(stripControls(line), record),
      );
    }
    child.stdin.on('error', () => {}); // a command that does not read its stdin is fine
    child.stdin.end(`${JSON.stringify(record)}\n`);
    child.on('error', (err: NodeJS.ErrnoException) => {
      const why =
        err.code === 'ENOENT'
          ? `command not found: ${file}`
          : err.code === 'EACCES'
            ? `not executable: ${file}`
            : err.message;
      done({ ok: false, error: why });
    });
    child.on('close', (code, sig) => {
      if (timedOut) done({ ok: false, error: `timed out after ${Math.round(opts.timeoutMs / 1000)} s` });
      else if (code === 0) done({ ok: true });
      else done({ ok: false, error: sig ? `killed by ${sig}` : `exit code ${code}` });
    });
  });
}
