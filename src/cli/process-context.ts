// Builds the real Context from the process: streams, environment, clock, and SIGINT/SIGTERM as an abort signal.
import { InterruptedError } from './cli-errors.js';
import { sleep } from '../api/sleep.js';
import type { Context } from './context.js';

export function processContext(): { ctx: Context; dispose: () => void } {
  const controller = new AbortController();
  let firstSignalAt: number | undefined;
  const onSignal = (name: NodeJS.Signals) => {
    if (firstSignalAt === undefined) {
      firstSignalAt = Date.now();
      controller.abort(new InterruptedError(name));
      return;
    }
    // A second Ctrl-C means "now": leave without the orderly shutdown. One that follows within half
    // a second is not the user: exit-hook libraries (signal-exit, under proper-lockfile) may re-raise it.
    if (Date.now() - firstSignalAt > 500) process.exit(130);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // Past a file-size limit (`ulimit -f`, common on shared cron hosts) the kernel sends SIGXFSZ, whose
  // default is to kill: caught, the write fails with EFBIG instead and the run says what it could not write.
  const onFileTooLarge = () => {};
  process.on('SIGXFSZ', onFileTooLarge);
  // A closed pipe (`recall-feed feed | head`) is a normal way for a reader to say "enough".
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
    sleep,
    signal: controller.signal,
  };
  return {
    ctx,
    dispose: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      process.off('SIGXFSZ', onFileTooLarge);
    },
  };
}
