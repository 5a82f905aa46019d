// The frame of every feed run (its API session and run lock), shared by `feed` and `match --watch`.
import type { ApiSession } from '../../runtime/api-session.js';
import { withRunLock } from '../../runtime/files/run-lock.js';
import type { Session } from '../../runtime/session.js';
import type { FeedPollPlan } from './plan.js';

/**
 * The frame of every feed run: the API session, and the run lock on the output and state files, held while
 * `run` runs. The plan was checked in full before: bad input sends no request and touches no file.
 */
export async function withFeedRun(
  plan: Pick<FeedPollPlan, 'state' | 'lockWaitMs'>,
  session: Session,
  run: (api: ApiSession) => Promise<void>,
): Promise<void> {
  const api = await session.api({ needsKey: true });
  const { ctx, settings } = session;
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
    // Once, as the run that was killed left it; the wait for it to go stale is spared.
    onTakeOver: (holder: string, file: string) =>
      session.status.warn(`took over the lock on ${file} from ${holder}, which has ended`),
  };
  await withRunLock(files, lockOptions, (lock) => run({ ...api, lock }));
}
