// What the delivery queue keeps for each recall, what a pass reports, and the queue's options.
import type { Action } from './action.js';
import type { BatchAction } from './batch-action.js';

/** One recall waiting for its actions; kept in the --state file so a restart retries it. */
export interface PendingDelivery {
  id: string;
  /** The record as written, so a restart can deliver it after it left the feed's window. */
  record: Record<string, unknown>;
  /** Names of the actions that already succeeded for it: never run again. */
  done: string[];
  /** Names of the actions given up for it (they can never succeed for this record): never run again. */
  gaveUp?: string[];
  /** Failed attempts so far, over all passes. */
  attempts: number;
  lastError?: string;
}

export interface DeliveryReport {
  /** Recalls whose last action succeeded in this pass. */
  delivered: number;
  /** Recalls still waiting after this pass. */
  pending: number;
  /** Failed attempts in this pass. */
  failed: number;
  /** Actions given up in this pass (one per recall and action that can never succeed). */
  givenUp: number;
  /** Actions that stopped for the rest of this pass: their receiver timed out on two recalls in a row. */
  rested: string[];
  /** The pass stopped at its time budget; what it did not reach waits for the next one. */
  outOfTime: boolean;
}

/** A pass delivers for at most this long (plus the attempt under way): a cron run is never held for long. */
export const DEFAULT_PASS_BUDGET_MS = 120_000;

export interface DeliveryQueueOptions {
  actions: readonly Action[];
  /** Run before the per-recall actions, each once per pass over all the recalls that still owe it. */
  batchActions?: readonly BatchAction[];
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  /**
   * The run's stop (Ctrl-C, SIGTERM, SIGHUP): no attempt starts after it, and one under way finishes (within its own
   * timeout) and is recorded, since its receiver may have it already (under-way.ts).
   */
  signal?: AbortSignal;
  /** The stop came while an attempt of `action` was under way: the run waits for it (said once per attempt). */
  onStopDuring?: (action: string) => void;
  /** Attempts per action and recall within one pass; what still fails waits for the next pass. Default 3. */
  attemptsPerPass?: number;
  /** Backoff between attempts: full jitter over base * 2^n, capped. Defaults 1 s and 30 s. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** The longest Retry-After honoured within a pass; a longer one moves the recall to the next pass. Default 60 s. */
  maxRetryAfterMs?: number;
  /** Called after every success and every failure, so the state file always says what is done. */
  persist: () => Promise<void>;
  /** Every failed attempt, so a recall that keeps failing is reported each time. */
  onFailure: (delivery: PendingDelivery, action: string, error: string) => void;
  /** A failed attempt of a batch action, once for the whole batch (default: onFailure for each recall). */
  onBatchFailure?: (deliveries: readonly PendingDelivery[], action: string, error: string) => void;
  /** An action given up for a recall: it will never be run for it again. */
  onGiveUp: (delivery: PendingDelivery, action: string, error: string) => void;
  /** Milliseconds on a monotonic clock, for the pass's time budget; default performance.now. */
  now?: () => number;
  /** How long one pass may deliver; default DEFAULT_PASS_BUDGET_MS. */
  passBudgetMs?: number;
  /** Every action that succeeded (for --verbose). */
  onSuccess?: (delivery: PendingDelivery, action: string) => void;
}
