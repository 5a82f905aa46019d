// Doctor's monitor check: the ping URL RECALL_FEED_MONITOR or the profile names is one --monitor accepts; never
// pinged (a ping would count as a run of the job) and never shown beyond its host (its path is the check's token).
// And its metrics-file check: the file RECALL_FEED_METRICS_FILE or the profile names is one --metrics-file accepts.
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Context } from '../../runtime/context.js';
import type { Settings } from '../../runtime/settings.js';
import { maskMonitorUrl } from '../../runtime/ops/monitor.js';
import { parseMetricsFile, parseMonitor } from '../../runtime/settings-parsers.js';
import { type CheckResult, fail, messageOf, ok, warn } from './check.js';

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

/**
 * Undefined when no metrics file is configured. Only feed, sync, match and digest write it, and refuse a bad one
 * (exit 2): every other command leaves it alone, so this check is where a bad one shows before a scheduled run.
 */
export function checkMetricsFile(settings: Pick<Settings, 'metricsFile'>, ctx: Context): CheckResult | undefined {
  const file = settings.metricsFile;
  if (!file) return undefined;
  const from = ctx.env.RECALL_FEED_METRICS_FILE ? 'RECALL_FEED_METRICS_FILE' : 'the metrics-file setting';
  try {
    parseMetricsFile(file, from);
  } catch (err) {
    return fail(
      'metrics-file',
      messageOf(err),
      'recall-feed config set metrics-file /var/lib/node_exporter/recall_feed.prom',
    );
  }
  const folder = path.dirname(path.resolve(file));
  if (!existsSync(folder) || !statSync(folder).isDirectory())
    return warn(
      'metrics-file',
      `${file} (${from}): the folder ${folder} does not exist`,
      "create it, or name a file in the collector's folder",
    );
  return ok('metrics-file', `${file} (${from}); written by feed, sync, match and digest`);
}
