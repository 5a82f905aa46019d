// The clock a command runs on: the real one, or with --sandbox-now / RECALL_FEED_SANDBOX_NOW one pinned to an instant.
import { UsageError } from './cli-errors.js';
import type { Context } from './context.js';
import { type GlobalFlags, sandboxNowSource } from './settings.js';
import { setting } from './settings-table.js';

/** The instant --sandbox-now (else RECALL_FEED_SANDBOX_NOW) pins, with where it came from; undefined: none. */
export function sandboxNow(globals: GlobalFlags, env: Record<string, string | undefined>) {
  const at = sandboxNowSource(globals, env);
  if (at === undefined) return undefined;
  return { ms: setting('sandbox-now').parse(at.raw, at.source) as number, from: at.from };
}

/**
 * `ctx` with its clock pinned at `atMs`: now is that instant, and moves only by the time the run waits (pacing,
 * retries, intervals), so that every run of a documented example sees the same recalls, windows and times
 * however long it takes, and a wait for a rate window still ends. Sleeps stay real.
 */
export function pinnedContext(ctx: Context, atMs: number): Context {
  let waited = 0;
  return Object.defineProperties(
    {},
    {
      ...Object.getOwnPropertyDescriptors(ctx),
      now: { value: () => atMs + waited, enumerable: true },
      pinned: { value: true, enumerable: true },
      sleep: {
        value: async (ms: number, signal?: AbortSignal) => {
          await ctx.sleep(ms, signal);
          waited += ms;
        },
        enumerable: true,
      },
    },
  ) as Context;
}

/**
 * The context a command runs with. A pin applies to a --sandbox run (its sandbox and its own dates share the
 * pinned now); `recall-feed sandbox` reads it itself (`ownsPin`). Elsewhere the flag is refused, since it
 * cannot be honoured, and the variable is left unused: a real run keeps the real time.
 */
export function runContext(globals: GlobalFlags, ctx: Context, ownsPin: boolean): Context {
  if (ownsPin) return ctx;
  // Read only where it applies: a bad RECALL_FEED_SANDBOX_NOW left in the environment never stops a real run.
  const source = sandboxNowSource(globals, ctx.env);
  if (source === undefined) return ctx;
  if (!globals.sandbox && source.from === 'flag')
    throw new UsageError(
      '--sandbox-now pins the clock of a --sandbox run or of `recall-feed sandbox` only',
      'add --sandbox, or leave --sandbox-now out',
    );
  const at = globals.sandbox ? sandboxNow(globals, ctx.env) : undefined;
  return at === undefined ? ctx : pinnedContext(ctx, at.ms);
}
