// Doctor's monitor check: the ping URL RECALL_FEED_MONITOR or the profile names is one --monitor accepts; never
// pinged (a ping would count as a run of the job) and never shown beyond its host (its path is the check's token).
import type { Context } from '../../runtime/context.js';
import type { Settings } from '../../runtime/settings.js';
import { maskMonitorUrl } from '../../runtime/ops/monitor.js';
import { parseMonitor } from '../../runtime/settings-parsers.js';
import { type CheckResult, fail, messageOf, ok } from './check.js';

/** Undefined when no monitor is configured: then there is nothing to check. */
export async function checkMonitor(
  settings: Pick<Settings, 'monitor'>,
  ctx: Context,
): Promise<CheckResult | undefined> {
  // As the run's settings resolved it (doctor has no --monitor: the environment, else the profile; none read with --sandbox).
  if (!settings.monitor) return undefined;
  const from = ctx.env.RECALL_FEED_MONITOR ? 'RECALL_FEED_MONITOR' : 'the monitor setting';
  try {
    const url = new URL(parseMonitor(settings.monitor, from));
    return ok('monitor', `${maskMonitorUrl(url)} (${from}); not pinged: a ping would count as a run`);
  } catch (err) {
    return fail('monitor', messageOf(err), 'recall-feed config set monitor https://hc-ping.com/<uuid>');
  }
}
