// feed, sync, match and digest with --monitor and --metrics-file: their run wrapped, the flags declared once here.
import type { Command, OptionValues } from '@commander-js/extra-typings';
import type { Context } from '../../runtime/context.js';
import type { Action, WithGlobals } from './define-action.js';
import type { GlobalFlags } from '../../runtime/settings.js';
import type { OpsCommand, OpsOptions } from '../../runtime/ops/run-ops.js';

/** The two flags, on a command that reports (the monitor and metrics settings are their defaults). */
export function addOpsOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  cmd: Command<A, O, G>,
) {
  return cmd
    .option(
      '--monitor <url>',
      'ping a healthchecks-style URL: /start, then the URL on success or /fail, with a summary (config: monitor)',
    )
    .option(
      '--metrics-file <file.prom>',
      'write Prometheus metrics there (atomically) after each run or poll (config: metrics-file)',
    );
}

/**
 * As define-action's `action`, with the run reported: a start ping, then after the run the end ping and the
 * metrics. Reporting never changes the exit code; without a monitor or a metrics file only the settings are read.
 */
export function opsAction<
  A extends unknown[],
  O extends OptionValues & OpsOptions,
  G extends OptionValues & GlobalFlags,
>(ctx: Context, command: OpsCommand, load: () => Promise<Action<NoInfer<O>, NoInfer<WithGlobals<A, O, G>>>>) {
  return async function (this: Command<A, O, G>): Promise<void> {
    const opts = this.opts();
    const globals = this.optsWithGlobals();
    const run = await load();
    // Only the settings are read first: a run that reports nowhere never loads the monitor or the metrics.
    const { resolveOpsSettings } = await import('../../runtime/ops/ops-settings.js');
    const settings = await resolveOpsSettings(opts, globals, ctx);
    if (!settings.monitor && !settings.metricsFile) return run(opts, globals, ctx, this.args);
    const { RunOps } = await import('../../runtime/ops/run-ops.js');
    const ops = RunOps.open(command, opts, globals, settings, ctx);
    await ops.started();
    try {
      await run(opts, globals, ops.ctx, this.args);
    } catch (err) {
      await ops.ended(err);
      throw err;
    }
    await ops.ended();
  };
}
