// `feed`: runs its plan as an export, a one-off `--state` poll or a `--watch`.
import type { Session } from '../../runtime/session.js';
import { fingerprint, runExport } from './export.js';
import type { FeedPlan } from '../watch/plan.js';
import { withFeedRun } from '../watch/feed-run.js';

export async function runFeed(plan: FeedPlan, session: Session): Promise<void> {
  const { ctx } = session;
  const { format, append, resume } = plan;
  // The format was chosen with the plan; the target opens under the run lock. Only an export can be resumed.
  const exporting = plan.watch === undefined && plan.state === undefined;
  const output = await session.output({
    format,
    append,
    resume,
    fingerprint: exporting ? fingerprint(plan) : undefined,
  });
  await withFeedRun(plan, session, async (api) => {
    const { watch, state } = plan;
    // A poll with a seen-state (its deliveries, exec, webhooks, e-mail) loads only when asked for: a plain
    // export, the common run, parses none of it.
    if (watch) {
      const { recordsTo, runWatch } = await import('../watch/watch.js');
      await output.write((sink) => runWatch({ ...plan, watch }, api, ctx, recordsTo(sink, plan, api)));
    } else if (state !== undefined) await (await import('./run-once.js')).runOnce({ ...plan, state }, api, ctx, output);
    else await runExport(plan, api, ctx, output);
  });
}
