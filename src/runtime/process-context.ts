// Builds the real Context from the process: streams, environment, clocks, and SIGINT/SIGTERM/SIGHUP as an abort signal.
import { fstatSync, readlinkSync, writeSync } from 'node:fs';
import { InterruptedError } from './cli-errors.js';
import { sleep } from '../api/sleep.js';
import type { Context, OutStream } from './context.js';

/**
 * The signals that stop a run in order (exit 130, its last word said): Ctrl-C, a stop (systemd, docker, kill), and a
 * hang-up (the terminal or SSH session closed). bin/recall-feed.cjs catches the same ones while the CLI loads.
 */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** The real process's monotonic clock: what the run measures elapsed time and deadlines on (Context.monotonic). */
const monotonic = () => performance.now();

/**
 * The run's context. `received`: a stop signal the launcher caught while the CLI loaded, before these handlers were
 * installed; the run then starts interrupted, as if it had come now.
 */
export function processContext(received?: NodeJS.Signals): { ctx: Context; dispose: () => void } {
  const controller = new AbortController();
  let firstSignalAt: number | undefined;
  const onSignal = (name: NodeJS.Signals) => {
    if (firstSignalAt === undefined) {
      firstSignalAt = monotonic();
      controller.abort(new InterruptedError(name));
      return;
    }
    // A second Ctrl-C means "now": leave without the orderly shutdown. One that follows within half
    // a second is not the user: exit-hook libraries (signal-exit, under proper-lockfile) may re-raise it.
    if (monotonic() - firstSignalAt > 500) process.exit(130);
  };
  for (const name of STOP_SIGNALS) process.on(name, onSignal);
  if (received !== undefined) onSignal(received);
  // Past a file-size limit (`ulimit -f`, common on shared cron hosts) the kernel sends SIGXFSZ, whose
  // default is to kill: caught, the write fails with EFBIG instead and the run says what it could not write.
  const onFileTooLarge = () => {};
  process.on('SIGXFSZ', onFileTooLarge);
  // A closed pipe (`recall-feed feed | head`) is a normal way for a reader to say "enough". Any other failure (a
  // full disk) stays on the stream (`errored`), and main() ends the run with it as the error it is (exit 10).
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  });
  const ctx: Context = {
    stdout: process.stdout,
    stderr: process.stderr,
    // A getter: process.stdin opens a stream on first use, which only a prompt or a piped key needs.
    get stdin() {
      return process.stdin;
    },
    env: process.env,
    now: Date.now,
    monotonic,
    sleep,
    signal: controller.signal,
  };
  return {
    ctx,
    dispose: () => {
      for (const name of STOP_SIGNALS) process.off(name, onSignal);
      process.off('SIGXFSZ', onFileTooLarge);
    },
  };
}

/**
 * Whether `fd` is certainly no terminal: a file, a pipe, a socket, or /dev/null (a character device, as a
 * terminal is: told apart by its name where /proc says it). In doubt, false.
 */
function surelyNoTerminal(fd: 1 | 2): boolean {
  try {
    const stat = fstatSync(fd);
    if (stat.isFile() || stat.isFIFO() || stat.isSocket()) return true;
    return stat.isCharacterDevice() && readlinkSync(`/proc/self/fd/${fd}`) === '/dev/null';
  } catch {
    return false;
  }
}

/**
 * Writes straight to `fd` with fs.writeSync, as Node's own stream does for a file, without creating
 * process.stdout: that loads Node's streams, 1.5-2 ms to a file or /dev/null and 4-6 ms to a pipe, when a
 * bare Node start is about 20 ms. A closed pipe ends the writing (the reader has gone, as `recall-feed
 * --help | head` means); any other failure hands the rest to the real stream.
 */
function directOut(fd: 1 | 2, stream: () => OutStream): OutStream {
  const write = (chunk: string | Uint8Array): boolean => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let done = 0;
    try {
      while (done < bytes.length) done += writeSync(fd, bytes, done);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EPIPE') return stream().write(bytes.subarray(done));
    }
    return true;
  };
  return { isTTY: false, write } as unknown as OutStream;
}

/**
 * The context for a run that only prints help (bin/recall-feed.cjs, with dist/cli/front.cjs): stdout and
 * stderr written directly where they are surely no terminal, and no signal handling (nothing runs long
 * enough to interrupt). A run that goes on to main() gets processContext().
 */
export function helpContext(): Context {
  const out = (fd: 1 | 2, stream: () => OutStream) => (surelyNoTerminal(fd) ? directOut(fd, stream) : stream());
  return {
    stdout: out(1, () => process.stdout),
    stderr: out(2, () => process.stderr),
    get stdin() {
      return process.stdin;
    },
    env: process.env,
    now: Date.now,
    sleep,
    signal: new AbortController().signal,
  };
}
