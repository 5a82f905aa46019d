// feed, sync, match and digest with --monitor and --metrics-file: their run wrapped in its session, the flags declared once here.
import type { Command, CommandUnknownOpts, OptionValues } from '@commander-js/extra-typings';
import type { Context } from '../../runtime/context.js';
import { sessionFlags, type WithGlobals } from './define-action.js';
import type { GlobalFlags } from '../../runtime/settings.js';
import type { Session, SessionOf, Uses } from '../../runtime/session.js';
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

/** What a reporting command runs: its options, the global flags, the run's session (made here), the arguments. */
export type OpsRun<O, W = GlobalFlags> = (
  opts: O,
  globals: W,
  session: Session,
  args: string[],
  command: CommandUnknownOpts,
) => Promise<void>;

/**
 * Runs a reporting command's job with what it `uses` (client, output, archive) open in the run's session: its plan is
 * made in the run (with the settings), so its uses are declared there; they close with the session.
 */
export async function withUses<U extends Uses, T>(
  session: Session,
  uses: U,
  job: (session: SessionOf<U>) => Promise<T>,
): Promise<T> {
  const { using } = await import('../../runtime/session.js');
  return using(session, uses, job);
}

/**
 * As define-action's `action`, with the run's one session made here (from the settings the monitor and the
 * metrics file are read from) and the run reported: a start ping, then after the run the end ping and the
 * metrics. Reporting never changes the exit code; without a monitor or a metrics file only the settings are read.
 */
export function opsAction<
  A extends unknown[],
  O extends OptionValues & OpsOptions,
  G extends OptionValues & GlobalFlags,
>(
  baseCtx: Context,
  command: OpsCommand,
  load: () => Promise<OpsRun<NoInfer<O>, NoInfer<WithGlobals<A, O, G>>>>,
  /** ownFormat: -f is the command's own (digest's formats), never the record format: the settings never see it. */
  how: { ownFormat?: boolean } = {},
) {
  return async function (this: Command<A, O, G>): Promise<void> {
    const opts = this.opts();
    const globals = this.optsWithGlobals();
    const run = await load();
    const { runContext } = await import('../../runtime/run-clock.js');
    const ctx = runContext(globals, baseCtx, false);
    const flags = sessionFlags(globals, how.ownFormat ?? false);
    const { loadSettings, loadReporting, runIn, sessionWith } = await import('../../runtime/session.js');
    // The settings first, the profile read once: they say where the run reports. A refusal (a bad --timeout, a
    // profile's bad format) is reported there too, as the run's failure, after the start ping: the session awaits
    // `loading` again, and so throws it.
    const loading = loadSettings(flags, ctx);
    loading.catch(() => {});
    // Where it reports, from the same profile: a metrics file whose name does not end .prom is refused here, before
    // anything runs (only these four commands check it; another command never writes it).
    const reporting = await loadReporting(flags, ctx);
    const { opsSettings, reportsAnywhere } = await import('../../runtime/ops/ops-settings.js');
    const inSession = async (runCtx: Context) =>
      runIn(sessionWith(await loading, flags, runCtx), (session) => run(opts, globals, session, this.args, this));
    // Only the settings are read first: a run that reports nowhere never loads the monitor or the metrics.
    if (!reportsAnywhere(reporting)) return inSession(ctx);
    const { RunOps } = await import('../../runtime/ops/run-ops.js');
    const settings = await loading.catch(() => undefined);
    const ops = RunOps.open(command, opts, opsSettings({ ...settings, ...reporting }, opts, ctx), ctx);
    await ops.started();
    try {
      // Before the settings or the plan may be refused: the metrics, written at the end however the run ends, would
      // replace a file the run keeps (its archive, -o, state file, catalogue) that the metrics file names.
      ops.refuseKeptFiles(flags.output);
      // The session hears the run through the ops context: the client it opens is observed for the metrics.
      await inSession(ops.ctx);
    } catch (err) {
      await ops.ended(err);
      throw err;
    }
    await ops.ended();
  };
}
