// `feed`: loads the settings, plans the run, then runs it as an export, a one-off `--state` poll or a `--watch`.
import type { Context } from '../context.js';
import { openSession, loadSettings } from '../session.js';
import type { GlobalFlags } from '../settings.js';
import { detectTerminal } from '../terminal/terminal.js';
import { runExport } from './export.js';
import { planFeed, type FeedOptions } from './plan.js';
import { runOnce } from './run-once.js';
import { runWatch } from './watch.js';

export async function runFeed(opts: FeedOptions, globals: GlobalFlags, ctx: Context): Promise<void> {
  const settings = await loadSettings(globals, ctx);
  // Every flag is checked before anything starts: bad input sends no request and touches no file.
  const plan = planFeed(opts, settings, detectTerminal(ctx, globals.color));
  const session = await openSession(globals, ctx, { needsKey: true, settings });
  try {
    const { watch, state } = plan;
    if (watch) await runWatch({ ...plan, watch }, session, ctx);
    else if (state !== undefined) await runOnce({ ...plan, state }, session, ctx);
    else await runExport(plan, session, ctx);
  } finally {
    await session.close();
  }
}
