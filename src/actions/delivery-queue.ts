// At-least-once delivery: a recall stays pending until every action succeeded for it; successes are never repeated.
import { backoffMs } from '../api/retry.js';
import type { Action, AttemptResult } from './action.js';
import { type BatchAction, outcomeAt, partGate } from './batch-action.js';
import {
  DEFAULT_PASS_BUDGET_MS,
  type DeliveryQueueOptions,
  type DeliveryReport,
  type PendingDelivery,
} from './delivery-model.js';
import { TimeoutStreaks } from './timeout-streaks.js';
import { finishUnderStop } from './under-way.js';

export type { BatchAction, BatchResult } from './batch-action.js';
export { DEFAULT_PASS_BUDGET_MS, type DeliveryQueueOptions, type DeliveryReport, type PendingDelivery };

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

  /** Every action's name: a recall is complete when each of them is settled for it. */
  private get names(): string[] {
    return [...(this.opts.batchActions ?? []), ...this.opts.actions].map((a) => a.name);
  }

  private isComplete(delivery: PendingDelivery): boolean {
    return this.names.every((name) => settled(delivery, name));
  }

  /** Removes the completed recalls from the queue; returns how many of them were delivered (not only given up). */
  private settle(deliveries: readonly PendingDelivery[]): number {
    let delivered = 0;
    for (const delivery of deliveries) {
      if (!this.isComplete(delivery) || !this.queued.has(delivery.id)) continue;
      this.queue.splice(this.queue.indexOf(delivery), 1);
      this.queued.delete(delivery.id);
      if (delivery.done.length > 0) delivered++;
    }
    return delivered;
  }

  /** Runs the batch actions, then the actions of every waiting recall, oldest first, one at a time, within the pass's bounds. */
  async deliver(): Promise<DeliveryReport> {
    const now = this.opts.now ?? (() => performance.now());
    const pass: Pass = {
      report: { delivered: 0, pending: 0, failed: 0, givenUp: 0, rested: [], outOfTime: false },
      deadline: now() + (this.opts.passBudgetMs ?? DEFAULT_PASS_BUDGET_MS),
      timeouts: new TimeoutStreaks(),
    };
    for (const action of this.opts.batchActions ?? []) {
      if (this.opts.signal?.aborted || this.outOfTime(pass)) break;
      await this.runBatch(action, pass);
    }
    for (const delivery of [...this.queue]) {
      if (this.opts.signal?.aborted || pass.report.outOfTime) break;
      for (const action of this.opts.actions) {
        if (settled(delivery, action.name) || pass.report.rested.includes(action.name)) continue;
        // Stopped: no new attempt, not even the recall's next action.
        if (this.opts.signal?.aborted || this.outOfTime(pass)) break;
        await this.runAction(delivery, action, pass);
      }
      if (this.isComplete(delivery)) {
        pass.report.delivered += this.settle([delivery]);
        await this.opts.persist();
      }
    }
    pass.report.pending = this.queue.length;
    return pass.report;
  }

  /** True (and noted in the report) once the pass has used its time budget. */
  private outOfTime(pass: Pass): boolean {
    if ((this.opts.now ?? (() => performance.now()))() < pass.deadline) return false;
    pass.report.outOfTime = true;
    return true;
  }

  /**
   * One attempt (and its retries) for every recall still owing `action`. Accepted: all of them are marked and saved in
   * one write, so a crash right after the acceptance repeats that one batch, never part of it. When it went in parts
   * (`each`), those accepted are marked at once; a retry leaves out a record refused for good (too large even alone).
   */
  private async runBatch(action: BatchAction, pass: Pass): Promise<void> {
    let owed = this.queue.filter((d) => !settled(d, action.name));
    if (owed.length === 0) return;
    /** The records the last attempt failed for, each with its own error. */
    let failing: { d: PendingDelivery; error?: string }[] = [];
    const took = async (done: readonly PendingDelivery[]) => {
      for (const d of done) {
        d.done.push(action.name);
        this.opts.onSuccess?.(d, action.name);
      }
      pass.report.delivered += this.settle(done);
      await this.opts.persist();
    };
    const attempt = async () => {
      // A batch in parts keeps to the pass's bounds before each part: a part not sent waits, untouched, for the next pass.
      const { untried, beforePart } = partGate(() => !this.opts.signal?.aborted && !this.outOfTime(pass));
      const records = owed.map((d) => d.record);
      const result = await this.finishing(action.name, () => action.attemptAll(records, { beforePart }));
      const outcomes = owed.map((_, i) => outcomeAt(result, i));
      const failed = (i: number) => !outcomes[i]!.ok && !untried.has(i);
      failing = owed.flatMap((d, i) => (failed(i) ? [{ d, error: outcomes[i]!.error }] : []));
      if (result.ok || !result.each) return result;
      const done = owed.filter((_, i) => outcomes[i]!.ok);
      owed = owed.filter((_, i) => failed(i) && !outcomes[i]!.refused);
      if (done.length > 0) await took(done);
      return result;
    };
    const ok = await this.retrying(attempt, pass, async (result, error) => {
      // One warning per way it failed (one message: one line), each recall keeping its own error.
      const byError = new Map<string, PendingDelivery[]>();
      for (const { d, error: own } of failing) {
        const why = own ?? error;
        d.attempts++;
        d.lastError = `${action.name}: ${why}`;
        if (!byError.get(why)?.push(d)) byError.set(why, [d]);
      }
      pass.report.failed++;
      for (const [why, ds] of byError) {
        if (this.opts.onBatchFailure) this.opts.onBatchFailure(ds, action.name, why);
        else for (const d of ds) this.opts.onFailure(d, action.name, why);
      }
      await this.opts.persist();
      return Boolean(result.timedOut) && this.restAfterTimeout(pass, action.name, 'batch');
    });
    if (ok) await took(owed);
  }

  private async runAction(delivery: PendingDelivery, action: Action, pass: Pass): Promise<void> {
    const ok = await this.retrying(
      () => this.finishing(action.name, () => action.attempt(delivery.record)),
      pass,
      async (result, error) => {
        delivery.attempts++;
        delivery.lastError = `${action.name}: ${error}`;
        pass.report.failed++;
        if (result.permanent) {
          // Retrying cannot help: the recall is not held pending for ever, nor reported at every run.
          delivery.gaveUp = [...(delivery.gaveUp ?? []), action.name];
          pass.report.givenUp++;
          this.opts.onGiveUp(delivery, action.name, error);
          if (!this.isComplete(delivery)) await this.opts.persist();
          return true;
        }
        this.opts.onFailure(delivery, action.name, error);
        await this.opts.persist();
        return Boolean(result.timedOut) && this.restAfterTimeout(pass, action.name, delivery.id);
      },
    );
    if (!ok) return;
    pass.timeouts.succeeded(action.name);
    delivery.done.push(action.name);
    this.opts.onSuccess?.(delivery, action.name);
    // The recall's last action is saved with its completion, by deliver(): one write, not two.
    if (!this.isComplete(delivery)) await this.opts.persist();
  }

  /**
   * Up to attemptsPerPass attempts with backoff between them, never sleeping past the pass's deadline;
   * true when one succeeded. `failed` records a failure and says whether to stop trying in this pass.
   */
  private async retrying(
    attempt: () => Promise<AttemptResult>,
    pass: Pass,
    failed: (result: AttemptResult, error: string) => Promise<boolean>,
  ): Promise<boolean> {
    const tries = this.opts.attemptsPerPass ?? 3;
    const now = this.opts.now ?? (() => performance.now());
    for (let n = 0; n < tries; n++) {
      const result = await attempt();
      if (result.ok) return true;
      // An attempt let finish as the run stops is recorded as any other; no new one starts after the stop.
      if ((await failed(result, result.error ?? 'failed')) || this.opts.signal?.aborted) return false;
      // Refused (a webhook's 4xx): the same request now would be refused again; it waits for the next pass.
      if (result.refused || n === tries - 1) break;
      const wait = this.delay(n, result.retryAfterMs);
      if (wait === undefined) break;
      if (now() + wait >= pass.deadline) {
        pass.report.outOfTime = true;
        break;
      }
      try {
        await this.opts.sleep(wait, this.opts.signal);
      } catch {
        break;
      }
    }
    return false;
  }

  /** One attempt, left to finish when the run is stopped meanwhile (the stop said once): its receiver may have it. */
  private finishing<T>(action: string, attempt: () => Promise<T>): Promise<T> {
    return finishUnderStop(attempt, this.opts.signal, () => this.opts.onStopDuring?.(action));
  }

  /** Counts a timeout; true (and the action rested for the pass) when it timed out on two recalls in a row. */
  private restAfterTimeout(pass: Pass, action: string, id: string): boolean {
    if (!pass.timeouts.timedOut(action, id)) return false;
    pass.report.rested.push(action);
    return true;
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

/** What one pass of deliver() keeps track of. */
interface Pass {
  report: DeliveryReport;
  deadline: number;
  /** Per action, the recalls it timed out on since its last success. */
  timeouts: TimeoutStreaks;
}

/** Nothing more to run for it: the action succeeded, or was given up. */
function settled(delivery: PendingDelivery, action: string): boolean {
  return delivery.done.includes(action) || (delivery.gaveUp?.includes(action) ?? false);
}
