// What a command gets to work with: streams, environment, clock and sleep, all injectable for tests.
import type { Readable, Writable } from 'node:stream';
import type { RunHooks } from './ops/run-hooks.js';

export type OutStream = Writable & { isTTY?: boolean; columns?: number };
export type InStream = Readable & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };

export interface Context {
  stdout: OutStream;
  stderr: OutStream;
  stdin: InStream;
  /** The process environment; read here and in config resolution only. */
  env: Record<string, string | undefined>;
  /** Milliseconds since the epoch: the wall clock, for dates and timestamps. It may step back or jump ahead (NTP). */
  now: () => number;
  /**
   * Milliseconds on a clock that never steps back (processContext: performance.now()), for elapsed time and deadlines
   * only, never a date. A context without one (a test's) measures on `now`: read it through monotonicClock().
   */
  monotonic?: () => number;
  /**
   * Set when `now` is pinned (--sandbox-now): the sandbox's world then has one time, the archive's commit stamps too.
   * Otherwise they keep the archive's own clock, whatever the run's (a sync host whose clock is slow).
   */
  pinned?: true;
  /** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Aborts on SIGINT, SIGTERM or SIGHUP; long-running commands stop at the next safe point. */
  signal: AbortSignal;
  /** The command line as typed (without `node` and the script), for printing resume commands. */
  argv?: readonly string[];
  /** --monitor and --metrics-file: what the run reports to them (src/cli/ops); absent for other commands. */
  ops?: RunHooks;
  /** Secrets the run learnt (the profile's key, webhook, SMTP and database URLs): masked in any server text printed or stored. */
  secrets?: Set<string>;
  /** The profiles this run has read (src/runtime/config/open-store.ts readProfile): the config file is opened once per run. */
  profiles?: Map<string, Promise<Record<string, string | number | undefined>>>;
}

/** The run's monotonic clock (Context.monotonic), or its `now` where it has none: the one reading of elapsed time. */
export function monotonicClock(ctx: Pick<Context, 'now' | 'monotonic'>): () => number {
  return ctx.monotonic ?? ctx.now;
}
