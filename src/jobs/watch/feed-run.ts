// The frame of every feed run (settings, plan, session, run lock), shared by `feed` and `match --watch`.
import type { Context } from '../../runtime/context.js';
import { withRunLock } from '../../runtime/files/run-lock.js';
import type { ApiSession } from '../../runtime/api-session.js';
import { loadSettings, openSession } from '../../runtime/session.js';
import type { GlobalFlags } from '../../runtime/settings.js';
import { detectTerminal, type Terminal } from '../../runtime/terminal/terminal.js';
import { planFeed, type FeedOptions, type FeedPlan } from './plan.js';

/**
 * The frame of every feed run: settings, the plan (every flag checked before anything starts), the
 * session, and the run lock on the output and state files, held while `run` runs.
 */
export async function withFeedRun(
  opts: FeedOptions,
  globals: GlobalFlags,
  ctx: Context,
  run: (plan: FeedPlan, session: ApiSession, terminal: Terminal) => Promise<void>,
): Promise<void> {
  const settings = await loadSettings(globals, ctx);
  // Every flag is checked before anything starts: bad input sends no request and touches no file.
  const terminal = detectTerminal(ctx, globals.color);
  const plan = planFeed(opts, settings, terminal);
  const session = await openSession(globals, ctx, { needsKey: true, settings, terminal });
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
    await withRunLock(files, lockOptions, (lock) => run(plan, { ...session, lock }, terminal));
  } finally {
    await session.close();
  }
}
