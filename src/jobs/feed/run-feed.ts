// `feed`: loads the settings, plans the run, then runs it as an export, a one-off `--state` poll or a `--watch`.
import type { Context } from '../../runtime/context.js';
import type { GlobalFlags } from '../../runtime/settings.js';
import { runExport } from './export.js';
import type { FeedOptions } from '../watch/plan.js';
import { withFeedRun } from '../watch/feed-run.js';

export function runFeed(opts: FeedOptions, globals: GlobalFlags, ctx: Context): Promise<void> {
  return withFeedRun(opts, globals, ctx, async (plan, session) => {
    const { watch, state } = plan;
    // A poll with a seen-state (its deliveries, exec, webhooks, e-mail) loads only when asked for: a plain
    // export, the common run, parses none of it.
    if (watch) await (await import('../watch/watch.js')).runWatch({ ...plan, watch }, session, ctx);
    else if (state !== undefined) await (await import('./run-once.js')).runOnce({ ...plan, state }, session, ctx);
    else await runExport(plan, session, ctx);
  });
}
