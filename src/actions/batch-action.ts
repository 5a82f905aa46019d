// A batch action (--email): one attempt for every recall still owed to it, and how that went for each of them.
import type { AttemptResult, Change } from './action.js';

/**
 * How a batch went. `each`, when the records did not share one outcome (the server refused the whole as too large,
 * so they went in smaller messages): the outcome of each record, in order. `ok` only when every record went.
 */
export interface BatchResult extends AttemptResult {
  each?: readonly AttemptResult[];
}

/** The outcome of the batch's record `i`. */
export const outcomeAt = (result: BatchResult, i: number): AttemptResult => result.each?.[i] ?? result;

/** An action that takes every recall still owed to it at once: one e-mail per poll, never one per recall. */
export interface BatchAction {
  name: string;
  /** `changes` (sync --on-update), record by record: new, or a new version of a recall already stored. */
  attemptAll(
    records: readonly Record<string, unknown>[],
    signal?: AbortSignal,
    changes?: readonly Change[],
  ): Promise<BatchResult>;
}
