// A batch action (--email): one attempt for every recall still owed to it, and how that went for each of them.
import type { AttemptResult, Change } from './action.js';

/**
 * How a batch went. `each`, when the records did not share one outcome (the server refused the whole as too large,
 * so they went in smaller messages): the outcome of each record, in order. `ok` only when every record went;
 * `refused` only when every record that failed was refused for good (too large even alone): then no retry can help.
 */
export interface BatchResult extends AttemptResult {
  each?: readonly AttemptResult[];
}

/** The outcome of the batch's record `i`. */
export const outcomeAt = (result: BatchResult, i: number): AttemptResult => result.each?.[i] ?? result;

export interface BatchAttempt {
  /** Abandons the attempt at once (see Action.attempt): not the run's stop signal, which `beforePart` heeds. */
  signal?: AbortSignal;
  /** `changes` (sync --on-update), record by record: new, or a new version of a recall already stored. */
  changes?: readonly Change[];
  /**
   * Asked before each part of a batch that went in parts (records `from` to `to`), never before the whole: false
   * (the caller's claim on them lapsed, or its time is up) and the part is not sent; its records fail as not tried.
   */
  beforePart?: (from: number, to: number) => Promise<boolean>;
}

/** An action that takes every recall still owed to it at once: one e-mail per poll, never one per recall. */
export interface BatchAction {
  name: string;
  attemptAll(records: readonly Record<string, unknown>[], attempt?: BatchAttempt): Promise<BatchResult>;
}

/**
 * A beforePart that lets a part go while `go(from, to)` says so, and remembers the records of the parts it stopped:
 * those were not tried, and their caller leaves them as they were (pending, no attempt counted).
 */
export function partGate(go: (from: number, to: number) => boolean | Promise<boolean>) {
  const untried = new Set<number>();
  const beforePart = async (from: number, to: number) => {
    if (await go(from, to)) return true;
    for (let i = from; i < to; i++) untried.add(i);
    return false;
  };
  return { untried, beforePart };
}
