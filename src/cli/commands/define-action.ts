// Adapts a command's run function to commander: its options, the global flags, the context, the arguments.
import type { Command, CommandUnknownOpts, OptionValues } from '@commander-js/extra-typings';
import type { Context } from '../../runtime/context.js';
import type { SessionOf, Uses } from '../../runtime/session.js';
import type { GlobalFlags } from '../../runtime/settings.js';

/**
 * What every command's action receives: its own options, the global flags (with a parent command's
 * options, for a subcommand such as `cases resolve`) and the context.
 */
export type Action<O, W = GlobalFlags> = (
  opts: O,
  globals: W,
  ctx: Context,
  args: string[],
  command: CommandUnknownOpts,
) => Promise<void>;

/** The options a command declares, as commander's declarations type them. */
export type OptionsOf<C extends { opts(): unknown }> = ReturnType<C['opts']>;

/** No options: to name the options a helper such as `addSelectionOptions` adds, on a command that had none. */
export type NoOptions = Record<never, never>;

/** A command's options with those of the program and its parents, as `optsWithGlobals()` types them. */
export type WithGlobals<A extends unknown[], O extends OptionValues, G extends OptionValues> = ReturnType<
  Command<A, O, G>['optsWithGlobals']
>;

/**
 * Wires a command's action: its options, the global flags and the context, then the run `load` gives.
 * The types come from the command the action is attached to (commander calls it with `this` that command),
 * never from `load`: a run typed for other flags, or globals that do not fit `GlobalFlags`, fail to compile.
 * The run gets the context on the clock --sandbox-now pins (run-clock.ts), unless it `ownsPin`.
 */
export function action<A extends unknown[], O extends OptionValues, G extends OptionValues & GlobalFlags>(
  ctx: Context,
  load: () => Promise<Action<NoInfer<O>, NoInfer<WithGlobals<A, O, G>>>>,
  opts: { ownsPin?: boolean } = {},
) {
  return async function (this: Command<A, O, G>): Promise<void> {
    const run = await load();
    const globals = this.optsWithGlobals();
    // Before the plan: a plan reads the clock too (--since 7d).
    const { runContext } = await import('../../runtime/run-clock.js');
    await run(this.opts(), globals, runContext(globals, ctx, opts.ownsPin ?? false), this.args, this);
  };
}

/**
 * Runs a job with its plan in a session made from the global flags, with what the run `uses` (its client, output,
 * archive) opened before the job and closed after it, however it ends. The session's code loads only when a
 * command runs, never for its help.
 */
export async function inSession<U extends Uses, T>(
  globals: GlobalFlags,
  ctx: Context,
  uses: U,
  job: (session: SessionOf<U>) => Promise<T>,
): Promise<T> {
  const { withSession } = await import('../../runtime/session.js');
  return withSession(globals, ctx, uses, job);
}

/** The globals a session is made from: without -f when the format is the command's own (digest, report), never the settings'. */
export function sessionFlags(globals: GlobalFlags, ownFormat: boolean): GlobalFlags {
  if (!ownFormat) return globals;
  const { format: _own, ...rest } = globals;
  return rest;
}
