// Adapts a command's run function to commander: its options, the global flags, the context, the arguments.
import type { Command } from 'commander';
import type { Context } from '../../runtime/context.js';
import type { GlobalFlags } from '../../runtime/settings.js';

/** What every command's action receives: its own options, the global flags and the context. */
export type Action<O> = (opts: O, globals: GlobalFlags, ctx: Context, args: string[]) => Promise<void>;

/** Wires a command's action: its options, the global flags and the context, then the run `load` gives. */
export function action<O>(ctx: Context, load: () => Promise<Action<O>>) {
  return async (...params: unknown[]) => {
    const cmd = params[params.length - 1] as Command;
    const opts = cmd.opts() as O;
    const globals = cmd.optsWithGlobals() as GlobalFlags;
    const run = await load();
    await run(opts, globals, ctx, cmd.args);
  };
}
