// Options of a parent command that one of its subcommands does not take (the selection of `cases` on `cases show`):
// commander reads a parent's options anywhere on the line, so they are refused here before the subcommand runs, and
// completion leaves them out there.
import type { CommandUnknownOpts } from '@commander-js/extra-typings';
import { UsageError } from '../runtime/cli-errors.js';

interface Refusal {
  /** The parent's options, by their long name (`--level`). */
  longs: readonly string[];
  /** Why, said after the flag: `it shows the cases named by id`. */
  why: string;
}

const REFUSED = new WeakMap<object, Refusal>();

/** Declares that `cmd` does not take these options of its parent; returns `cmd`, for chaining. */
export function refusesParentOptions<C extends CommandUnknownOpts>(cmd: C, longs: readonly string[], why: string): C {
  REFUSED.set(cmd, { longs, why });
  return cmd;
}

/** The parent's options `cmd` does not take, by their long name; none for most commands. */
export function refusedParentOptions(cmd: CommandUnknownOpts): readonly string[] {
  return REFUSED.get(cmd)?.longs ?? [];
}

/** A usage error (exit 2) when one of the parent's options `cmd` does not take was given, before and after its name. */
export function checkParentOptions(cmd: CommandUnknownOpts): void {
  const refusal = REFUSED.get(cmd);
  const parent = cmd.parent;
  if (!refusal || !parent) return;
  for (const option of parent.options) {
    if (option.long === undefined || !refusal.longs.includes(option.long)) continue;
    if (parent.getOptionValueSource(option.attributeName()) !== 'cli') continue;
    throw new UsageError(`${parent.name()} ${cmd.name()} does not take ${option.long}: ${refusal.why}`);
  }
}
