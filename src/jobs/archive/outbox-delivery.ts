// sync's actions (--exec, --webhook, --email): delivered from the archive's outbox, claimed under a lease, so that any
// number of hosts syncing one archive deliver each recall once per action (at least once; a kill may repeat one).
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { AttemptResult } from '../../actions/action.js';
// A pass delivers within feed's bounds; what is left waits for the next pass (or another host).
import { DEFAULT_PASS_BUDGET_MS } from '../../actions/delivery-queue.js';
import { outcomeAt, partGate } from '../../actions/batch-action.js';
import { TimeoutStreaks } from '../../actions/timeout-streaks.js';
import { finishUnderStop } from '../../actions/under-way.js';
import { maskWebhookUrl } from '../../actions/webhook-url.js';
import { ArchiveDatabaseError } from '../../archive/archive-errors.js';
import type { OutboxActions, OutboxItem, OutboxOutcome } from '../../archive/outbox-model.js';
import type { ArchiveStore } from '../../archive/store.js';
import { writing } from '../../runtime/archive/archive-file.js';
import { UsageError } from '../../runtime/cli-errors.js';
import { type Context, monotonicClock } from '../../runtime/context.js';
import type { ActionsPlan } from '../watch/plan.js';
import { buildActions } from '../watch/build-actions.js';
import { cutShortWarning, stopWaitNote } from '../watch/deliveries.js';
import type { ApiSession } from '../../runtime/api-session.js';

/** Rows claimed at once (their lease renewed before each attempt): a host killed mid-delivery leaves these to wait for it. */
const CLAIM = 10;
/** Rows a batch action (--email) takes at once: one message holds them all. */
const BATCH_CLAIM = 1000;
/** A failed attempt is retried after 30 s, doubling up to 15 minutes (or after the receiver's Retry-After). */
const RETRY_BASE_MS = 30_000;
const RETRY_CAP_MS = 15 * 60_000;

/** A row tried, with how it went. */
type Tried = [OutboxItem, AttemptResult];

export interface OutboxReport {
  delivered: number;
  failed: number;
  /** Actions that stopped for the rest of this pass: they timed out on two recalls in a row. */
  rested: string[];
  /** The pass stopped at its time budget. */
  outOfTime: boolean;
}

export interface OutboxDelivery {
  /** The actions pages queue: set on the archive before the first page is stored. */
  readonly queued: OutboxActions;
  /** Delivers what the outbox owes this host's actions, until it is empty or the pass's budget is spent. */
  deliver(): Promise<OutboxReport>;
  close(): Promise<void>;
}

/**
 * How long a claim holds: longer than any one attempt may take (its timeout), so that a live host never loses a row
 * it is delivering; RECALL_FEED_OUTBOX_LEASE (seconds) sets it.
 */
export function leaseMs(env: Record<string, string | undefined>, longestAttemptMs: number): number {
  const raw = env.RECALL_FEED_OUTBOX_LEASE?.trim();
  if (raw === undefined || raw === '') return Math.max(120_000, longestAttemptMs * 2 + 30_000);
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 86_400)
    throw new UsageError(
      `RECALL_FEED_OUTBOX_LEASE must be a number of seconds (up to 86400), not '${raw}'`,
      'example: RECALL_FEED_OUTBOX_LEASE=300',
    );
  return seconds * 1000;
}

function outcomeOf(result: AttemptResult, attempts: number): OutboxOutcome {
  if (result.ok) return { ok: true };
  const backoff = Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1));
  return {
    ok: false,
    error: result.error ?? 'failed',
    retryInMs: Math.max(backoff, result.retryAfterMs ?? 0),
    giveUp: result.permanent === true,
  };
}

/**
 * Why marking a row may be tried once more: the database connection was lost (the engine connects again on the next
 * call), or the stop cancelled the statement as it ran (one sent after the stop is not cancelled).
 */
function worthRetrying(err: unknown, signal: AbortSignal): boolean {
  if (signal.aborted && err === signal.reason) return true;
  return err instanceof ArchiveDatabaseError && (err.problem === 'lost' || err.problem === 'lost-page');
}

export function openOutboxDelivery(
  archive: ArchiveStore,
  plan: ActionsPlan,
  onUpdate: boolean,
  session: ApiSession,
  ctx: Context,
): OutboxDelivery {
  const timeoutMs = session.settings.timeoutMs;
  const { actions, batches, close } = buildActions(plan, session, ctx);
  const names = [...actions.map((a) => a.name), ...batches.map((b) => b.name)];
  const queued: OutboxActions = { onNew: names, onUpdate: onUpdate ? names : [] };
  const lease = leaseMs(ctx.env, Math.max(timeoutMs, plan.exec?.timeoutMs ?? 0));
  const host = `${os.hostname()} pid ${process.pid} ${randomBytes(3).toString('hex')}`;
  const where = plan.webhook ? ` ${maskWebhookUrl(plan.webhook.url)}` : '';
  /** The rows this pass claimed and has not tried (yet): released if the run is stopped or fails. */
  const held = new Set<number>();
  /** The outbox's writes fail as every archive write does: a full disk or read-only file is exit 10, naming the archive. */
  const write = <T>(fn: () => Promise<T>) => writing(archive.name, fn);
  const stopNote = stopWaitNote(plan, session, "that delivery then stays in the archive's outbox for the next sync");
  /** An attempt under way when the run is stopped finishes, and is settled: its receiver may have it already. */
  const finishing = <T>(name: string, attempt: () => Promise<T>) =>
    finishUnderStop(attempt, ctx.signal, () => stopNote(name));

  /**
   * Marks how an attempt went, once more after a lost connection: the receiver may have the recall, and a row left
   * pending goes out again after its lease. (A row tried is out of `held` already: released, it would go out at once.)
   */
  const mark = async (item: OutboxItem, outcome: OutboxOutcome) => {
    const once = () => write(() => archive.settleOutbox(item.id, outcome, ctx.now()));
    await once().catch((err: unknown) => {
      if (!worthRetrying(err, ctx.signal)) throw err;
      return once();
    });
  };

  const settle = async (item: OutboxItem, result: AttemptResult, report: OutboxReport, quiet = false) => {
    const outcome = outcomeOf(result, item.attempts);
    await mark(item, outcome);
    const what = `recall ${item.recallId}${item.kind === 'update' ? ` (version ${item.version})` : ''}`;
    if (outcome.ok) {
      report.delivered++;
      if (session.settings.verbose && !quiet)
        session.status.note(`${item.action}${item.action === 'webhook' ? where : ''}: ${what} delivered`);
      return outcome;
    }
    report.failed++;
    // Error text can hold what a receiver or a record said: the status reporter prints it without control codes.
    if (!quiet)
      session.status.warn(
        outcome.giveUp
          ? `${item.action} given up for ${what}: ${outcome.error}; it can never succeed for this record`
          : `${item.action} failed for ${what}: ${outcome.error}; it stays in the archive's outbox and is retried`,
      );
    return outcome;
  };

  /** A batch's rows settled quietly, then one line per way it ended (one message: one line), with the count. */
  const settleBatch = async (name: string, tried: readonly Tried[], report: OutboxReport) => {
    for (const [item] of tried) held.delete(item.id);
    const failures = new Map<string, number>();
    let delivered = 0;
    for (const [item, result] of tried) {
      const outcome = await settle(item, result, report, true);
      if (outcome.ok) delivered++;
      else failures.set(outcome.error, (failures.get(outcome.error) ?? 0) + 1);
    }
    if (delivered > 0 && session.settings.verbose)
      session.status.note(`${name}: ${delivered} ${delivered === 1 ? 'recall' : 'recalls'} delivered`);
    for (const [error, n] of failures)
      session.status.warn(
        `${name} failed for ${n} ${n === 1 ? 'recall' : 'recalls'}: ${error}; ${n === 1 ? 'it stays' : 'they stay'} in the archive's outbox and ${n === 1 ? 'is' : 'are'} retried`,
      );
  };

  /**
   * The lease covers one attempt, not the whole claim: before each attempt (each part of a batch) the rows not yet
   * settled get a fresh one, so a live host keeps what it claimed however slow the receiver. False when a row of
   * `next` (by default the first of `rest`) is no longer this host's (its lease ran out first and another host took
   * it): that host delivers it.
   */
  const stillHeld = async (rest: readonly OutboxItem[], next = rest.slice(0, 1)) => {
    const ids = rest.map((r) => r.id);
    const renewed = await write(() => archive.renewOutbox({ host, ids, leaseMs: lease, nowMs: ctx.now() }));
    const kept = new Set(renewed.map(Number));
    return next.every((r) => kept.has(Number(r.id)));
  };

  /**
   * Stopped (Ctrl-C, SIGTERM), or `failed` (an error ends the run): the rows claimed and not tried are released, so
   * that the next sync, or another host, takes them at once and in order rather than after their lease; the attempt
   * each claim counted is given back.
   */
  const releaseHeld = async (failed = false) => {
    if ((!failed && !ctx.signal.aborted) || held.size === 0) return;
    await write(() => archive.releaseOutbox({ host, ids: [...held] }));
    held.clear();
  };

  /** A pass cut short says, once, what the outbox still owes: the next sync (or another host) delivers it. */
  const sayWhatWaits = async (report: OutboxReport) => {
    if (report.rested.length === 0 && !report.outOfTime) return;
    const { pending } = await archive.outboxBacklog();
    const waiting = `${pending} ${pending === 1 ? 'delivery stays' : 'deliveries stay'} pending in the archive's outbox; the next sync retries them`;
    const warning = cutShortWarning({ ...report, pending }, DEFAULT_PASS_BUDGET_MS, where.trim(), waiting);
    if (warning !== undefined) session.status.warn(warning);
  };

  /** One pass over the outbox, the rows it claimed and did not try left in `held`. */
  const pass = async (report: OutboxReport) => {
    // feed's bounds (docs/cron.md): the budget before each attempt, and an action resting after two timeouts in a row.
    // The budget is on the monotonic clock (the leases stay on the wall clock: other hosts read them).
    const mono = monotonicClock(ctx);
    const deadline = mono() + DEFAULT_PASS_BUDGET_MS;
    const streaks = new TimeoutStreaks();
    const inBudget = () => {
      if (mono() < deadline) return true;
      report.outOfTime = true;
      return false;
    };
    const going = () => !ctx.signal.aborted && inBudget();
    const countStreak = (name: string, result: AttemptResult, first: OutboxItem) => {
      if (result.ok) streaks.succeeded(name);
      else if (result.timedOut && streaks.timedOut(name, String(first.id))) report.rested.push(name);
    };
    const claim = async (names: string[], limit: number) => {
      const items = await write(() =>
        archive.claimOutbox({ host, actions: names, leaseMs: lease, limit, nowMs: ctx.now() }),
      );
      for (const item of items) held.add(item.id);
      return items;
    };
    // A batch action (--email) takes everything owed to it at once: one message per sync, not one per claim.
    for (const batch of batches) {
      while (!report.rested.includes(batch.name) && going()) {
        const owed = await claim([batch.name], BATCH_CLAIM);
        if (owed.length === 0) break;
        // A batch that goes in parts checks the pass's budget and renews its claim before each part; a part it may
        // not send is not tried: its rows wait for their lease, then any host delivers them.
        const { untried, beforePart } = partGate(
          async (from, to) => going() && (await stillHeld(owed, owed.slice(from, to))),
        );
        const records = owed.map((i) => i.record);
        const changes = owed.map((i) => i.kind);
        const result = await finishing(batch.name, () => batch.attemptAll(records, { changes, beforePart }));
        // Every part sent is settled as it ended, stopped or not; a part not sent (stopped first) is released for the
        // next sync (or another host).
        const tried = owed.flatMap((item, i): Tried[] => (untried.has(i) ? [] : [[item, outcomeAt(result, i)]]));
        await settleBatch(batch.name, tried, report);
        if (ctx.signal.aborted) break;
        countStreak(batch.name, result, owed[0]!);
      }
    }
    const perRecall = () => actions.map((a) => a.name).filter((name) => !report.rested.includes(name));
    while (perRecall().length > 0 && going()) {
      const items = await claim(perRecall(), CLAIM);
      if (items.length === 0) break;
      for (const [i, item] of items.entries()) {
        const action = actions.find((a) => a.name === item.action);
        // Out of time or resting: what is claimed but not tried waits for its lease, then any host delivers it; stopped:
        // it is released.
        if (!action || report.rested.includes(action.name) || !going()) continue;
        if (i > 0 && !(await stillHeld(items.slice(i)))) continue;
        // An attempt that ended during a stop (it was let finish) is recorded as any other: a failure counts.
        held.delete(item.id);
        const result = await finishing(action.name, () => action.attempt(item.record));
        await settle(item, result, report);
        countStreak(action.name, result, item);
      }
    }
  };

  return {
    queued,
    async deliver() {
      const report: OutboxReport = { delivered: 0, failed: 0, rested: [], outOfTime: false };
      held.clear();
      try {
        await pass(report);
      } catch (err) {
        // Best effort: the archive may be what failed, and the original error is the one to report.
        await releaseHeld(true).catch(() => {});
        throw err;
      }
      await releaseHeld();
      await sayWhatWaits(report);
      return report;
    },
    async close() {
      await close();
    },
  };
}
