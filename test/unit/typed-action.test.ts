// define-action's `action`: the run gets what commander parsed, typed by the declarations (checked by tsc: `npm run typecheck`).
import { PassThrough } from 'node:stream';
import { Command } from '@commander-js/extra-typings';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { action } from '../../src/cli/commands/define-action.js';
import { addGlobalOptions } from '../../src/cli/global-options.js';
import type { Context } from '../../src/runtime/context.js';
import type { GlobalFlags } from '../../src/runtime/settings.js';

const ctx: Context = {
  stdout: new PassThrough(),
  stderr: new PassThrough(),
  stdin: new PassThrough(),
  env: {},
  now: () => 0,
  sleep: async () => {},
  signal: new AbortController().signal,
};

/** The real program's global flags, and a command with a flag of each kind under it (a subcommand too). */
function program() {
  const root = addGlobalOptions(new Command('recall-feed').exitOverride());
  const parent = root.command('parent').option('--db <file>');
  const child = parent.command('child').option('--limit <n>').option('--no-formula-guard').option('--bom');
  return { root, parent, child };
}

describe('action', () => {
  it("hands the run the command's options, the globals with the parents' options, and the arguments", async () => {
    const { root, child } = program();
    const seen: unknown[] = [];
    child.argument('[ids...]').action(
      action(ctx, async () => async (opts, globals, c, args) => {
        // The declarations' types, inferred: a wrong one fails `npm run typecheck`.
        expectTypeOf(opts).toEqualTypeOf<{ limit?: string; formulaGuard: boolean; bom?: true }>();
        expectTypeOf(globals.db).toEqualTypeOf<string | undefined>();
        expectTypeOf(globals.logFormat).toEqualTypeOf<'text' | 'json' | undefined>();
        expectTypeOf(globals).toMatchTypeOf<GlobalFlags>();
        seen.push(opts, globals.db, globals.quiet, c === ctx, args);
      }),
    );
    await root.parseAsync(['-q', 'parent', '--db', 'x.db', 'child', '--limit', '5', '--no-formula-guard', '7', '8'], {
      from: 'user',
    });
    expect(seen).toEqual([{ limit: '5', formulaGuard: false }, 'x.db', true, true, ['7', '8']]);
  });

  it('a run typed for other flags does not compile; one typed for fewer does, and runs', async () => {
    const { root, child } = program();
    // @ts-expect-error --limit is a string as commander parses it, not a number
    child.action(action(ctx, async () => async (_opts: { limit?: number }) => {}));
    // @ts-expect-error the command declares no --other
    child.action(action(ctx, async () => async (_opts: { other: string }) => {}));
    // What a run may ask for is what the declaration gives (the last action set is the one that runs).
    const limits: (string | undefined)[] = [];
    child.action(
      action(ctx, async () => async (opts: { limit?: string; bom?: boolean }) => void limits.push(opts.limit)),
    );
    await root.parseAsync(['parent', 'child', '--limit', '3'], { from: 'user' });
    expect(limits).toEqual(['3']);
  });
});
