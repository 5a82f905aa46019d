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
  /** Milliseconds since the epoch. */
  now: () => number;
  /**
   * Set when `now` is pinned (--sandbox-now): the sandbox's world then has one time, the archive's commit stamps too.
   * Otherwise they keep the archive's own clock, whatever the run's (a sync host whose clock is slow).
   */
  pinned?: true;
  /** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Aborts on SIGINT or SIGTERM; long-running commands stop at the next safe point. */
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
