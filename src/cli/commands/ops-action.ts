// feed, sync, match and digest with --monitor and --metrics-file: their run wrapped, the flags declared once here.
import type { Command } from 'commander';
import type { Context } from '../../runtime/context.js';
import type { Action } from './define-action.js';
import type { GlobalFlags } from '../../runtime/settings.js';
import type { OpsCommand, OpsOptions } from '../../runtime/ops/run-ops.js';

/** The two flags, on a command that reports (the monitor and metrics settings are their defaults). */
export function addOpsOptions(cmd: Command): Command {
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
 * metrics. Reporting never changes the exit code; without a monitor or a metrics file nothing is loaded.
 */
export function opsAction<O>(ctx: Context, command: OpsCommand, load: () => Promise<Action<O>>) {
  return async (...params: unknown[]) => {
    const cmd = params[params.length - 1] as Command;
    const opts = cmd.opts() as O;
    const globals = cmd.optsWithGlobals() as GlobalFlags;
    const run = await load();
    const { RunOps } = await import('../../runtime/ops/run-ops.js');
    const ops = await RunOps.open(command, opts as OpsOptions, globals, ctx);
    if (!ops) return run(opts, globals, ctx, cmd.args);
    await ops.started();
    try {
      await run(opts, globals, ops.ctx, cmd.args);
    } catch (err) {
      await ops.ended(err);
      throw err;
    }
    await ops.ended();
  };
}
