// The frame of every feed run (its API session and run lock), shared by `feed` and `match --watch`.
import type { ApiSession } from '../../runtime/api-session.js';
import { runLockOptions, waitSaidBy, withRunLock } from '../../runtime/files/run-lock.js';
import type { Session } from '../../runtime/session.js';
import type { FeedPollPlan } from './plan.js';
import { STATE_WRITE_HINT } from './seen-state.js';

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
  // A wait sat out is said where someone watches, never to cron (waitSaidBy).
  const { status } = session;
  const lockOptions = runLockOptions(
    ctx,
    (line) => status.warn(line),
    plan.lockWaitMs,
    '--lock-wait',
    waitSaidBy(status),
  );
  // A state whose lock cannot be taken (a read-only folder) is said as --state's, not -o's.
  const hints = plan.state === undefined ? {} : { [plan.state]: STATE_WRITE_HINT };
  await withRunLock(files, { ...lockOptions, hints }, (lock) => run({ ...api, lock }));
}
