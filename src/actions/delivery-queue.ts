// At-least-once delivery: a recall stays pending until every action succeeded for it; successes are never repeated.
import { backoffMs } from '../api/retry.js';
import type { Action } from './action.js';

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

export interface DeliveryQueueOptions {
  actions: readonly Action[];
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

  /** Runs the actions of every waiting recall, oldest first, one at a time. */
  async deliver(): Promise<DeliveryReport> {
    const report: DeliveryReport = { delivered: 0, pending: 0, failed: 0 };
    for (const delivery of [...this.queue]) {
      if (this.opts.signal?.aborted) break;
      let complete = true;
      for (const action of this.opts.actions) {
        if (delivery.done.includes(action.name)) continue;
        const ok = await this.runAction(delivery, action, report);
        if (!ok) complete = false;
      }
      if (complete) {
        this.queue.splice(this.queue.indexOf(delivery), 1);
        this.queued.delete(delivery.id);
        report.delivered++;
        await this.opts.persist();
      }
    }
    report.pending = this.queue.length;
    return report;
  }

  private async runAction(delivery: PendingDelivery, action: Action, report: DeliveryReport): Promise<boolean> {
    const tries = this.opts.attemptsPerPass ?? 3;
    for (let attempt = 0; attempt < tries; attempt++) {
      const result = await action.attempt(delivery.record, this.opts.signal);
      // Interrupted (Ctrl-C): not a failed attempt, nothing to count or warn about; it stays pending as it was.
      if (!result.ok && this.opts.signal?.aborted) return false;
      if (result.ok) {
        delivery.done.push(action.name);
        this.opts.onSuccess?.(delivery, action.name);
        // The recall's last action is saved with its completion, by deliver(): one write, not two.
        if (this.opts.actions.some((a) => !delivery.done.includes(a.name))) await this.opts.persist();
        return true;
      }
      const error = result.error ?? 'failed';
      delivery.attempts++;
      delivery.lastError = `${action.name}: ${error}`;
      report.failed++;
      this.opts.onFailure(delivery, action.name, error);
      await this.opts.persist();
      if (attempt === tries - 1) break;
      const wait = this.delay(attempt, result.retryAfterMs);
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
