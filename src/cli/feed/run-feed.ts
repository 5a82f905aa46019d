// `feed`: loads the settings, plans the run, then runs it as an export, a one-off `--state` poll or a `--watch`.
import type { Context } from '../context.js';
import { withRunLock } from '../files/run-lock.js';
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
  // Overlapping runs (a cron job that overran its interval) take turns on the same output and state files.
  const files = [settings.output, plan.state].filter((f): f is string => f !== undefined);
  const lockOptions = {
    waitMs: plan.lockWaitMs,
    signal: ctx.signal,
    now: ctx.now,
    sleep: ctx.sleep,
    waitFlag: '--lock-wait',
    onWait: (holder: string, file: string) =>
      session.status.warn(`${file} is in use by ${holder}; waiting up to ${plan.lockWaitMs / 1000} s`),
  };
  try {
    await withRunLock(files, lockOptions, async () => {
      const { watch, state } = plan;
      if (watch) await runWatch({ ...plan, watch }, session, ctx);
      else if (state !== undefined) await runOnce({ ...plan, state }, session, ctx);
      else await runExport(plan, session, ctx);
    });
  } finally {
    await session.close();
  }
}
