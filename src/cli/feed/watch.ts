// `feed --watch` and `feed --state`: write only recalls not written before; poll on, surviving faults.
import { QuotaExhaustedError } from '../../api/errors.js';
import { nextMonthlyReset } from '../../api/retry.js';
import { InterruptedError } from '../errors.js';
import type { FeedPlan } from '../commands/feed.js';
import type { Context } from '../context.js';
import { describeError, EXIT } from '../exit-codes.js';
import { openTarget } from '../files/output-target.js';
import { stdoutTarget } from '../files/file-target.js';
import type { Session } from '../session.js';
import type { Format } from '../settings.js';
import { recordRenderer, type PageSink } from './record-sink.js';
import { feedParams, pagesOf } from './export.js';
import { publishedMs, SeenState } from './seen-state.js';

/** Answers that no later poll can fix: they end the watch with their own exit code. */
const FATAL: ReadonlySet<number> = new Set([EXIT.usage, EXIT.auth, EXIT.notPermitted]);
/** The longest pause between polls after repeated failures (unless the interval itself is longer). */
const MAX_BACKOFF_MS = 10 * 60_000;

interface PollResult {
  fresh: number;
  pages: number;
}

interface Poller {
  poll(opts: { silent: boolean; savePerPage: boolean }): Promise<PollResult>;
}

function poller(plan: FeedPlan, session: Session, ctx: Context, sink: PageSink, state: SeenState): Poller {
  const params = feedParams(plan, session);
  return {
    async poll({ silent, savePerPage }) {
      let fresh = 0;
      let pages = 0;
      for await (const page of pagesOf(session, plan, params)) {
        pages++;
        const now = ctx.now();
        const news = page.data.filter((r) => r.id === undefined || !state.has(r.id));
        if (!silent) await session.status.around(() => sink.write(news));
        for (const r of news) if (r.id !== undefined) state.add(r.id, publishedMs(r, now));
        fresh += news.length;
        // Saved only after the records it covers were written: a crash can repeat one, never lose one.
        if (savePerPage) await state.save();
        if (ctx.signal.aborted) throw ctx.signal.reason;
      }
      state.prune(ctx.now());
      return { fresh, pages };
    },
  };
}

/** `--state` without `--watch`: one poll, e.g. from cron; the state is saved once the output is in place. */
async function runOnce(plan: FeedPlan, session: Session, ctx: Context, format: Format, state: SeenState) {
  const target = await openTarget(session.settings, ctx, { append: plan.append });
  const sink = recordRenderer({ plan, format, session, target });
  const toStdout = !session.settings.output;
  let result: PollResult;
  try {
    result = await poller(plan, session, ctx, sink, state).poll({ silent: false, savePerPage: toStdout });
    await sink.end();
    await target.commit();
  } catch (err) {
    await target.discard();
    throw err;
  }
  await state.save();
  session.status.note(`${result.fresh} new recalls; ${state.size} ids remembered in ${plan.state}`);
}

/** Stretches the interval so that polling until the monthly reset fits in the credits left. */
function quotaInterval(session: Session, now: number, intervalMs: number, requestsPerPoll: number): number {
  const rate = session.client.lastRateLimit;
  if (!rate || rate.remaining_credits <= 0) return intervalMs;
  const msLeft = nextMonthlyReset(now).getTime() - now;
  const needed = (msLeft / intervalMs) * requestsPerPoll;
  if (needed <= rate.remaining_credits) return intervalMs;
  return Math.ceil((msLeft * requestsPerPoll) / rate.remaining_credits);
}

function clock(ms: number): string {
  return new Date(ms).toISOString().slice(11, 19);
}

export async function runWatch(plan: FeedPlan, session: Session, ctx: Context, format: Format): Promise<void> {
  const state = plan.state ? await SeenState.load(plan.state) : SeenState.memory();
  if (!plan.watch) return runOnce(plan, session, ctx, format, state);
  const { intervalMs, skipExisting } = plan.watch;
  const sink = recordRenderer({ plan, format, session, target: stdoutTarget(ctx.stdout) });
  const source = poller(plan, session, ctx, sink, state);
  await session.status.start('first poll…');
  let first = true;
  let failures = 0;
  let stretchedTo = intervalMs;
  try {
    while (!ctx.signal.aborted) {
      const started = ctx.now();
      let delay: number;
      try {
        const { fresh, pages } = await source.poll({ silent: first && skipExisting, savePerPage: true });
        await state.save(); // the prune at the end of the poll
        first = false;
        failures = 0;
        const interval = quotaInterval(session, ctx.now(), intervalMs, Math.max(1, pages));
        // Said when stretching starts, and again only if the stretch moves by more than a tenth.
        if (interval > intervalMs && Math.abs(interval - stretchedTo) > stretchedTo / 10) {
          const left = session.client.lastRateLimit?.remaining_credits ?? 0;
          session.status.note(
            `recall-feed: polling every ${Math.round(intervalMs / 1000)} s would use up the monthly quota (${left} left) before it resets; polling every ${Math.ceil(interval / 1000)} s instead`,
          );
        }
        stretchedTo = interval;
        delay = Math.max(0, interval - (ctx.now() - started));
        const quota = session.client.lastRateLimit?.remaining_credits;
        const quotaText = quota === undefined ? '' : ` · quota left ${quota.toLocaleString('en-US')}`;
        session.status.countdown(`last poll ${clock(started)} · ${fresh} new${quotaText}`, delay);
      } catch (err) {
        if (ctx.signal.aborted) break;
        const report = describeError(err);
        if (FATAL.has(report.code) || err instanceof QuotaExhaustedError) throw err;
        failures++;
        delay = Math.min(stretchedTo * 2 ** (failures - 1), Math.max(stretchedTo, MAX_BACKOFF_MS));
        session.status.note(`recall-feed: poll failed: ${report.message}; next poll in ${Math.ceil(delay / 1000)} s`);
      }
      try {
        await ctx.sleep(delay, ctx.signal);
      } catch {
        break;
      }
    }
  } finally {
    await sink.end();
    await state.save();
  }
  throw ctx.signal.reason ?? new InterruptedError('SIGINT');
}
