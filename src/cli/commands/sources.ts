// `recall-feed sources`: the data sources the key may use, in any output format.
import { writesFormats } from '../format-choices.js';
import type { Program } from '../global-options.js';
import { action, inSession, type OptionsOf } from './define-action.js';
import type { Context } from '../../runtime/context.js';
import { SOURCE_COLUMNS, type SourcesPlan } from '../../jobs/api/plans.js';
import { parseColumns } from '../../runtime/options/option-parsers.js';

/** `recall-feed sources`: its flags and help; commander's types of them are the options' types. */
function declareSources(program: Program) {
  return program
    .command('sources')
    .description('list the data sources your key may use')
    .option(
      '--columns <list>',
      `table and csv columns (default ${SOURCE_COLUMNS.join(',')}); names no source has are warned about`,
    )
    .addHelpText('after', "\nExamples:\n  recall-feed sources\n  recall-feed sources -f json | jq -r '.[].id'");
}

type SourcesOptions = OptionsOf<ReturnType<typeof declareSources>>;

export function registerSources(program: Program, ctx: Context): void {
  writesFormats(declareSources(program), 'record').action(
    action(ctx, async () => async (opts, globals, c) => {
      const plan = planSources(opts);
      const { runSources } = await import('../../jobs/api/sources.js');
      await inSession(globals, c, {}, (session) => runSources(plan, session));
    }),
  );
}

export function planSources(opts: SourcesOptions): SourcesPlan {
  return { columns: parseColumns(opts.columns) };
}
