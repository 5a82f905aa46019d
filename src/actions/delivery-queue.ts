// At-least-once delivery: a recall stays pending until every action succeeded for it; successes are never repeated.
import { backoffMs } from '../api/retry.js';
import type { Action, AttemptResult } from './action.js';

/** One recall waiting for its actions; kept in the --state file so a restart retries it. */
export interface PendingDelivery {
  id: string;
  /** The record as written, so a restart can deliver it after it left the feed's window. */
  record: Record<string, unknown>;
  /** Names of the actions that already succeeded for it: never run again. */
  done: string[];
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
}

/** An action that takes every recall still owed to it at once: one e-mail per poll, never one per recall. */
export interface BatchAction {
  name: string;
  attemptAll(records: readonly Record<string, unknown>[], signal?: AbortSignal): Promise<AttemptResult>;
}

export interface DeliveryQueueOptions {
  actions: readonly Action[];
  /** Run before the per-recall actions, each once per pass over all the recalls that still owe it. */
  batchActions?: readonly BatchAction[];
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  signal?: AbortSignal;
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
  /** Every action that succeeded (for --verbose). */
  onSuccess?: (delivery: PendingDelivery, action: string) => void;
}

export class DeliveryQueue {
  private readonly queue: PendingDelivery[];
  /** The ids in `queue`, so that queueing each recall written stays cheap on a large first run. */
  private readonly queued: Set<string>;

  constructor(
    private readonly opts: DeliveryQueueOptions,
    restored: readonly PendingDelivery[] = [],
  ) {
    this.queue = restored.map((d) => ({ ...d, done: [...d.done] }));
    this.queued = new Set(this.queue.map((d) => d.id));
  }

  /** What the state file keeps. */
  snapshot(): PendingDelivery[] {
    return this.queue.map((d) => ({ ...d, done: [...d.done] }));
  }

  /** Queues a recall just written; one already waiting is not queued twice. */
  add(id: string, record: Record<string, unknown>): void {
    if (this.queued.has(id)) return;
    this.queued.add(id);
    this.queue.push({ id, record, done: [], attempts: 0 });
  }

  /** Every action's name: a recall is complete when all of them are in its `done`. */
  private get names(): string[] {
    return [...(this.opts.batchActions ?? []), ...this.opts.actions].map((a) => a.name);
  }

  private isComplete(delivery: PendingDelivery): boolean {
    return this.names.every((name) => delivery.done.includes(name));
  }

  /** Removes the completed recalls from the queue; returns how many. */
  private settle(deliveries: readonly PendingDelivery[]): number {
    let n = 0;
    for (const delivery of deliveries) {
      if (!this.isComplete(delivery) || !this.queued.has(delivery.id)) continue;
      this.queue.splice(this.queue.indexOf(delivery), 1);
      this.queued.delete(delivery.id);
      n++;
    }
    return n;
  }

  /** Runs the actions of every waiting recall, oldest first, one at a time. */
  async deliver(): Promise<DeliveryReport> {
    const report: DeliveryReport = { delivered: 0, pending: 0, failed: 0 };
    for (const action of this.opts.batchActions ?? []) await this.runBatch(action, report);
    for (const delivery of [...this.queue]) {
      if (this.opts.signal?.aborted) break;
      for (const action of this.opts.actions) {
        if (delivery.done.includes(action.name)) continue;
        await this.runAction(delivery, action, report);
      }
      if (this.settle([delivery]) === 1) {
        report.delivered++;
        await this.opts.persist();
      }
    }
    report.pending = this.queue.length;
    return report;
  }

  /**
   * One attempt (and its retries) for every recall still owing `action`. Accepted: all of them are marked
   * and saved in one write, so a crash right after the acceptance repeats that one batch, never part of it.
   */
  private async runBatch(action: BatchAction, report: DeliveryReport): Promise<void> {
    const owed = this.queue.filter((d) => !d.done.includes(action.name));
    if (owed.length === 0 || this.opts.signal?.aborted) return;
    const ok = await this.retrying(
      () =>
        action.attemptAll(
          owed.map((d) => d.record),
          this.opts.signal,
        ),
      async (error) => {
        for (const d of owed) {
          d.attempts++;
          d.lastError = `${action.name}: ${error}`;
        }
        report.failed++;
        if (this.opts.onBatchFailure) this.opts.onBatchFailure(owed, action.name, error);
        else for (const d of owed) this.opts.onFailure(d, action.name, error);
        await this.opts.persist();
      },
    );
    if (!ok) return;
    for (const d of owed) {
      d.done.push(action.name);
      this.opts.onSuccess?.(d, action.name);
    }
    report.delivered += this.settle(owed);
    await this.opts.persist();
  }

  private async runAction(delivery: PendingDelivery, action: Action, report: DeliveryReport): Promise<boolean> {
    const ok = await this.retrying(
      () => action.attempt(delivery.record, this.opts.signal),
      async (error) => {
        delivery.attempts++;
        delivery.lastError = `${action.name}: ${error}`;
        report.failed++;
        this.opts.onFailure(delivery, action.name, error);
        await this.opts.persist();
      },
    );
    if (!ok) return false;
    delivery.done.push(action.name);
    this.opts.onSuccess?.(delivery, action.name);
    // The recall's last action is saved with its completion, by deliver(): one write, not two.
    if (!this.isComplete(delivery)) await this.opts.persist();
    return true;
  }

  /** Up to attemptsPerPass attempts with backoff between them; true when one succeeded. */
  private async retrying(attempt: () => Promise<AttemptResult>, failed: (error: string) => Promise<void>) {
    const tries = this.opts.attemptsPerPass ?? 3;
    for (let n = 0; n < tries; n++) {
      const result = await attempt();
      // Interrupted (Ctrl-C): not a failed attempt, nothing to count or warn about; it stays pending as it was.
      if (!result.ok && this.opts.signal?.aborted) return false;
      if (result.ok) return true;
      await failed(result.error ?? 'failed');
      if (n === tries - 1) break;
      const wait = this.delay(n, result.retryAfterMs);
      if (wait === undefined) break;
      try {
        await this.opts.sleep(wait, this.opts.signal);
      } catch {
        break;
      }
    }
    return false;
  }

  /** The pause before the next attempt; undefined when the receiver asked for longer than a pass may wait. */
  private delay(attempt: number, retryAfterMs: number | undefined): number | undefined {
    if (retryAfterMs !== undefined)
      return retryAfterMs > (this.opts.maxRetryAfterMs ?? 60_000) ? undefined : retryAfterMs;
    return backoffMs(
      attempt,
      this.opts.random ?? Math.random,
      this.opts.baseDelayMs ?? 1000,
      this.opts.maxDelayMs ?? 30_000,
    );
  }
}
