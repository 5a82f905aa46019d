// Runs `feed`: pages through the API and streams each page to the renderer; on failure keeps what can be resumed.
import type { FeedParams } from '../../api/schemas.js';
import type { PagedResult } from '../../api/pagination.js';
import { ResumableError, UsageError } from '../errors.js';
import { DEFAULT_PAGE_SIZE, type FeedPlan } from '../commands/feed.js';
import type { Context } from '../context.js';
import { describeError, EXIT } from '../exit-codes.js';
import { chooseFormat, openTarget } from '../files/output-target.js';
import { openSession, type Session } from '../session.js';
import type { GlobalFlags } from '../settings.js';
import { resumeCommand } from './resume-command.js';
import { recordRenderer, type PageSink } from './record-sink.js';
import { summaryLine } from './summary.js';

type Page = PagedResult<Record<string, unknown>>;

/** Failures worth resuming: rate limits, an unavailable API, a broken answer, an interrupt. */
const RESUMABLE: ReadonlySet<number> = new Set([EXIT.rateLimited, EXIT.unavailable, EXIT.invalidResponse, EXIT.interrupted]);

/** The API parameters of a plan, with the profile's defaults filled in. */
export function feedParams(plan: FeedPlan, session: Session): FeedParams {
  const profile = session.settings.profileValues;
  const pageSize = plan.pageSize ?? Number(profile['page-size'] ?? DEFAULT_PAGE_SIZE);
  const sources =
    plan.sources ?? (profile.sources ? String(profile.sources).split(',').map((s) => s.trim()) : undefined);
  return {
    dataSources: sources,
    hoursAgo: plan.hours,
    sortBy: plan.sortBy,
    sortOrder: plan.sortOrder,
    // With --max, no page larger than needed: `--max 10` costs one request of 10 records.
    limit: plan.max === undefined ? pageSize : Math.min(pageSize, plan.max),
  };
}

export function pagesOf(session: Session, plan: FeedPlan, params: FeedParams): AsyncGenerator<Page> {
  return plan.custom
    ? session.client.customFeedPages(plan.custom, params)
    : (session.client.feedPages(params) as AsyncGenerator<Page>);
}

/** The options that shape the output file; a --resume with other ones is refused. */
function fingerprint(plan: FeedPlan, format: string, params: FeedParams): string {
  return JSON.stringify({ format, custom: plan.custom, columns: plan.columns, guard: plan.formulaGuard, ...params });
}

export async function runFeed(plan: FeedPlan, globals: GlobalFlags, ctx: Context): Promise<void> {
  const session = await openSession(globals, ctx, { needsKey: true });
  try {
    const format = chooseFormat(session.settings, session.terminal);
    if (plan.append && format === 'json') {
      throw new UsageError('--append cannot add to a JSON array', 'use -f jsonl or -f csv to append');
    }
    if (plan.watch || plan.state) {
      const { runWatch } = await import('./watch.js');
      await runWatch(plan, session, ctx, format);
      return;
    }
    await runExport(plan, session, ctx, format);
  } finally {
    await session.close();
  }
}

async function runExport(plan: FeedPlan, session: Session, ctx: Context, format: ReturnType<typeof chooseFormat>) {
  const params = feedParams(plan, session);
  const print = fingerprint(plan, format, params);
  const target = await openTarget(session.settings, ctx, { append: plan.append, resume: plan.resume, fingerprint: print });
  const resumed = target.resumed;
  const sink: PageSink = recordRenderer({ plan, format, session, target });
  let written = resumed?.count ?? 0;
  let cursor = resumed ? resumed.cursor : plan.cursor;
  let last: Page | undefined;
  await session.status.start('fetching recalls…');
  try {
    if (!resumed || resumed.cursor !== undefined || resumed.count === 0) {
      for await (const page of pagesOf(session, plan, { ...params, cursor })) {
        last = page;
        const room = plan.max === undefined ? page.data.length : plan.max - written;
        await sink.write(page.data.slice(0, room));
        written += Math.min(room, page.data.length);
        cursor = page.nextCursor;
        session.status.progress(`fetching recalls… ${written} of ${page.pagination.total_count}`);
        if (plan.max !== undefined && written >= plan.max) break;
        if (!plan.paginate) {
          if (page.nextCursor) session.status.note(`next cursor: ${page.nextCursor}`);
          break;
        }
        if (ctx.signal.aborted) throw ctx.signal.reason;
      }
    }
    await sink.end();
    await target.commit();
  } catch (err) {
    throw await failed(err, { plan, session, ctx, target, written, cursor });
  }
  session.status.stop();
  if (format === 'table' || session.settings.verbose) {
    session.status.note(summaryLine(written, last, session.client.lastRateLimit));
  }
}

interface FailureContext {
  plan: FeedPlan;
  session: Session;
  ctx: Context;
  target: Awaited<ReturnType<typeof openTarget>>;
  written: number;
  cursor: string | undefined;
}

/** Keeps what can be resumed and says how; anything else leaves no trace. Returns the error to throw. */
async function failed(err: unknown, f: FailureContext): Promise<unknown> {
  f.session.status.stop();
  if (!RESUMABLE.has(describeError(err).code)) {
    await f.target.discard();
    return err;
  }
  const argv = f.ctx.argv ?? [];
  const keyNote = f.session.settings.apiKeySource === 'flag' ? ' (give the key again, e.g. in RECALL_FEED_API_KEY)' : '';
  const partial = await f.target.keep({ cursor: f.cursor, count: f.written });
  if (partial !== undefined) {
    return new ResumableError(
      err,
      resumeCommand(argv, ['--resume']),
      `${f.session.settings.output} is unchanged; ${f.written} records are kept in ${partial}. To finish${keyNote}, run:`,
    );
  }
  const continueWith = f.cursor === undefined ? [] : ['--cursor', f.cursor];
  return new ResumableError(
    err,
    resumeCommand(argv, continueWith),
    `${f.written} records were written. To continue right after them${keyNote}, run:`,
  );
}
