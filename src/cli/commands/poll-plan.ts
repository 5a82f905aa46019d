// The pace of a poll loop from its flags (--watch, --interval): what feed, match and sync each plan for their --watch.
import type { PollPlan } from '../../jobs/watch/plan.js';
import { UsageError } from '../../runtime/cli-errors.js';
import { parseSeconds } from '../../runtime/options/option-parsers.js';

type PollFlags = { watch?: true | undefined; interval?: string | undefined };

/** --interval seconds (at least 1) with --watch, else `defaultS`; undefined without --watch, where --interval is refused. */
export function planPoll(opts: PollFlags, defaultS: number): PollPlan | undefined {
  if (!opts.watch) {
    if (opts.interval !== undefined) throw new UsageError('--interval works with --watch');
    return undefined;
  }
  return pollPace(opts.interval, defaultS);
}

/** The pace of a --watch: --interval seconds (at least 1), else `defaultS`. */
export function pollPace(interval: string | undefined, defaultS: number): PollPlan {
  return { intervalMs: parseSeconds(interval, '--interval', 1) ?? defaultS * 1000 };
}
