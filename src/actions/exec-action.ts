// --exec: runs a command once per recall, never through a shell; the record is on its stdin as one JSON line.
import { type ChildProcess, spawn } from 'node:child_process';
import type { Action, AttemptResult } from './action.js';
import { stripControls } from '../output/control-escapes.js';
import { fillWords } from './command-words.js';
import { type OutputBounds, OutputTail } from './exec-output.js';

export interface ExecActionOptions {
  /** The command's words, as splitWords made them; {field}s are filled per record. */
  words: readonly string[];
  timeoutMs: number;
  /** Each line the command printed on stdout or stderr (the last ones, within `output`), once it ended. */
  onOutput: (line: string, record: Record<string, unknown>) => void;
  /** Grace between SIGTERM and SIGKILL, at a timeout and for what the command left running. Default 2 s. */
  killGraceMs?: number;
  /** The command's environment (without our secrets: see childEnv); default ours. */
  env?: Record<string, string>;
  output?: OutputBounds;
}

/** Abandoned (the attempt's signal), a command that ignores SIGTERM is killed this soon. */
/** How long a command's group is given after SIGTERM (its timeout, a stop) before SIGKILL. */
export const KILL_GRACE_MS = 2000;
const INTERRUPT_GRACE_MS = 500;

export function execAction(opts: ExecActionOptions): Action {
  return { name: 'exec', attempt: (record, signal) => runOnce(opts, record, signal) };
}

/** Why a spawn failed, in words; E2BIG is for good, since the same record gives the same arguments. */
function spawnFailure(err: NodeJS.ErrnoException, file: string): AttemptResult {
  const shown = stripControls(file);
  if (err.code === 'ENOENT') return { ok: false, error: `command not found: ${shown}` };
  if (err.code === 'EACCES') return { ok: false, error: `not executable: ${shown}` };
  if (err.code === 'E2BIG')
    return { ok: false, permanent: true, error: 'an argument is longer than the system allows (E2BIG)' };
  return { ok: false, error: stripControls(err.message) };
}

/** Signals the command's whole process group; nothing to do when it is gone already. */
function signalGroup(child: ChildProcess, sig: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, sig);
  } catch {
    // ESRCH: every process of the group has ended.
  }
}

function runOnce(
  opts: ExecActionOptions,
  record: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<AttemptResult> {
  const [file, ...args] = fillWords(opts.words, record) as [string, ...string[]];
  const grace = opts.killGraceMs ?? KILL_GRACE_MS;
  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      // Its own process group (detached), so that a timeout or its end reaches whatever it started.
      child = spawn(file, args, { shell: false, detached: true, stdio: ['pipe', 'pipe', 'pipe'], env: opts.env });
    } catch (err) {
      // Node throws, rather than emits, some failures (E2BIG): one delivery fails, not the run.
      resolve(spawnFailure(err as NodeJS.ErrnoException, file));
      return;
    }
    const tail = new OutputTail(opts.output);
    let settled = false;
    let timedOut = false;
    let exit: AttemptResult | undefined;
    let closed = false;
    let killed = false;
    let killer: NodeJS.Timeout | undefined;
    const finish = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(killer);
      signal?.removeEventListener('abort', interrupt);
      process.off('exit', leaving);
      // A process that left the group may still hold the pipes: we stop reading them.
      child.stdout?.destroy();
      child.stderr?.destroy();
      for (const line of tail.lines()) opts.onOutput(line, record);
      resolve(result);
    };
    // Done when the command has exited and its pipes are closed, or what it left was killed.
    const maybeFinish = () => {
      if (exit !== undefined && (closed || killed)) finish(exit);
    };
    // TERM to the group now, KILL after the grace: at a timeout, when abandoned, and once the command exits.
    const stop = (graceMs = grace) => {
      if (killer !== undefined || settled) return;
      signalGroup(child, 'SIGTERM');
      killer = setTimeout(() => {
        signalGroup(child, 'SIGKILL');
        killed = true;
        maybeFinish();
      }, graceMs);
    };
    // Abandoned: Ctrl-C no longer reaches a detached group from the terminal, so we end it, and wait less for it. The
    // run's own stop lets the command finish instead (under-way.ts): it never passes its signal here.
    const interrupt = () => stop(Math.min(grace, INTERRUPT_GRACE_MS));
    // The process leaving while the command runs (a second Ctrl-C: process.exit) leaves nothing of its group behind.
    const leaving = () => signalGroup(child, 'SIGKILL');
    process.once('exit', leaving);
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, opts.timeoutMs);
    if (signal?.aborted) interrupt();
    signal?.addEventListener('abort', interrupt, { once: true });
    child.stdout?.on('data', (d: Buffer) => tail.push('stdout', d));
    child.stderr?.on('data', (d: Buffer) => tail.push('stderr', d));
    child.stdin?.on('error', () => {}); // a command that does not read its stdin is fine
    child.stdin?.end(`${JSON.stringify(record)}\n`);
    child.on('error', (err: NodeJS.ErrnoException) => finish(spawnFailure(err, file)));
    // Success is the exit status, not the pipes closing: a background child may hold them for minutes.
    child.on('exit', (code, sig) => {
      if (timedOut)
        exit = { ok: false, timedOut: true, error: `timed out after ${Math.round(opts.timeoutMs / 1000)} s` };
      else if (code === 0) exit = { ok: true };
      else exit = { ok: false, error: sig ? `killed by ${sig}` : `exit code ${code}` };
      stop();
      maybeFinish();
    });
    child.on('close', () => {
      closed = true;
      maybeFinish();
    });
  });
}
