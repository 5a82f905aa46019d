// Runs the CLI's main(argv, ctx) inside the test process: in-memory streams, a test env, a fake clock and sleep.
import { PassThrough, Writable } from 'node:stream';
import type { Context, InStream, OutStream } from '../../src/runtime/context.js';
import { main } from '../../src/cli/main.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { ALL_KEY } from './sandbox.js';
import { tempDir } from './temp-dir.js';

/** A clock that moves only when slept on: sleeping returns at once and advances the time. */
export interface FakeClock {
  /** The wall clock (Context.now). */
  now(): number;
  /** The monotonic clock (Context.monotonic): moves with every sleep and advance, as `now` does, but never with a step. */
  monotonic(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Every sleep asked for, in milliseconds, in order. */
  readonly sleeps: number[];
  /** Moves the time on without a sleep: what a receiver or another host took meanwhile. */
  advance(ms: number): void;
  /** Steps the wall clock alone, by `ms` (negative: back), as NTP or a resumed VM does; the monotonic clock stays. */
  step(ms: number): void;
}

/**
 * `start` defaults to the real time, so that it agrees with a sandbox on the real clock. `onSleep`
 * runs inside each sleep, after the time moved: the place to change the world between two polls; `count` is how
 * many sleeps there were, this one included.
 */
export function fakeClock(start = Date.now(), onSleep?: (ms: number, count: number) => unknown): FakeClock {
  let now = start;
  let monotonic = 0;
  const sleeps: number[] = [];
  return {
    now: () => now,
    monotonic: () => monotonic,
    sleeps,
    async sleep(ms, signal) {
      signal?.throwIfAborted();
      sleeps.push(ms);
      now += ms;
      monotonic += ms;
      await onSleep?.(ms, sleeps.length);
      signal?.throwIfAborted();
    },
    advance(ms) {
      now += ms;
      monotonic += ms;
    },
    step(ms) {
      now += ms;
    },
  };
}

export interface MainOptions {
  /** Added to a clean env: TERM=dumb and a config dir of its own unless given. */
  env?: Record<string, string | undefined>;
  /** What stdin holds; it ends after it. Empty by default, like </dev/null. */
  stdin?: string;
  stdinIsTTY?: boolean;
  stdoutIsTTY?: boolean;
  stderrIsTTY?: boolean;
  /** The width the terminal reports on stdout and stderr. */
  columns?: number;
  clock?: FakeClock;
  signal?: AbortSignal;
  /** Sees each chunk as it is written, for a test that acts while the run goes on (between two polls, say). */
  onOutput?: (stream: 'stdout' | 'stderr', text: string) => void;
}

export interface MainResult {
  code: number;
  stdout: string;
  stderr: string;
  /** The sleeps the run asked for (backoff, pacing, intervals), none of them real. */
  sleeps: number[];
}

class MemoryOut extends Writable {
  isTTY?: boolean;
  columns?: number;
  private readonly chunks: Buffer[] = [];
  onChunk?: (text: string) => void;

  override _write(chunk: Buffer | string, _enc: BufferEncoding, callback: () => void): void {
    this.chunks.push(Buffer.from(chunk));
    this.onChunk?.(Buffer.from(chunk).toString('utf8'));
    callback();
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }

  // What a terminal's stream has beyond writing, for a spinner (ora) drawn on a fake terminal: cursor moves are not text.
  cursorTo(_x: number, _y?: unknown, done?: () => void): boolean {
    if (typeof _y === 'function') _y();
    done?.();
    return true;
  }
  moveCursor(_dx: number, _dy: number, done?: () => void): boolean {
    done?.();
    return true;
  }
  clearLine(_dir: number, done?: () => void): boolean {
    done?.();
    return true;
  }
}

function memoryOut(isTTY: boolean | undefined, columns: number | undefined): MemoryOut & OutStream {
  const out = new MemoryOut();
  if (isTTY !== undefined) out.isTTY = isTTY;
  if (columns !== undefined) out.columns = columns;
  return out;
}

function memoryIn(text: string, isTTY: boolean | undefined): InStream {
  const input: InStream = new PassThrough();
  if (isTTY) {
    input.isTTY = true;
    input.setRawMode = () => input;
  }
  (input as PassThrough).end(text);
  return input;
}

/** `recall-feed <args>` in process; never throws for what the CLI reports itself (that is the exit code). */
export async function runMain(args: string[], opts: MainOptions = {}): Promise<MainResult> {
  const stdout = memoryOut(opts.stdoutIsTTY, opts.columns);
  const stderr = memoryOut(opts.stderrIsTTY, opts.columns);
  const { onOutput } = opts;
  if (onOutput) {
    stdout.onChunk = (text) => onOutput('stdout', text);
    stderr.onChunk = (text) => onOutput('stderr', text);
  }
  const clock = opts.clock ?? fakeClock();
  const env: Record<string, string | undefined> = { TERM: 'dumb', ...opts.env };
  // Never the user's own config: without a dir of its own the store falls back to the real home.
  if (!env.RECALL_FEED_CONFIG_DIR) env.RECALL_FEED_CONFIG_DIR = tempDir('rf-config-');
  // Nor the user's cache (match --archive keeps its state there).
  if (!('RECALL_FEED_CACHE_DIR' in env)) env.RECALL_FEED_CACHE_DIR = tempDir('rf-cache-');
  const ctx: Context = {
    stdout,
    stderr,
    stdin: memoryIn(opts.stdin ?? '', opts.stdinIsTTY),
    env,
    now: () => clock.now(),
    monotonic: () => clock.monotonic(),
    sleep: (ms, signal) => clock.sleep(ms, signal),
    signal: opts.signal ?? new AbortController().signal,
  };
  const before = clock.sleeps.length;
  const code = await main(args, ctx);
  return { code, stdout: stdout.text(), stderr: stderr.text(), sleeps: clock.sleeps.slice(before) };
}

/** `runMain` against `sandbox` with the all-sources demo key (in the env, as a user would). */
export function runMainAgainst(sandbox: Sandbox, args: string[], opts: MainOptions = {}): Promise<MainResult> {
  return runMain(['--base-url', sandbox.url, ...args], { ...opts, env: { RECALL_FEED_API_KEY: ALL_KEY, ...opts.env } });
}
