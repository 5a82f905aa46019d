// `recall-feed sources`: the data sources the key may use, in any output format.
import type { OptionsOf } from './define-action.js';
import { defineCommand, type NewCommand } from './define-command.js';
import { SOURCE_COLUMNS, type SourcesPlan } from '../../jobs/api/plans.js';
import { parseColumns } from '../../runtime/options/option-parsers.js';

/** `recall-feed sources`: its flags and help; commander's types of them are the options' types. */
function declareSources(cmd: NewCommand) {
  return cmd
    .option(
      '--columns <list>',
      `table and csv columns (default ${SOURCE_COLUMNS.join(',')}); names no source has are warned about`,
    )
    .addHelpText('after', "\nExamples:\n  recall-feed sources\n  recall-feed sources -f json | jq -r '.[].id'");
}

type SourcesOptions = OptionsOf<ReturnType<typeof declareSources>>;

export default defineCommand({
  name: 'sources',
  summary: 'list the data sources your key may use',
  formats: { kind: 'record' },
  flags: declareSources,
  plan: (opts) => planSources(opts),
  run: async (plan, session) => (await import('../../jobs/api/sources.js')).runSources(plan, session),
});

export function planSources(opts: SourcesOptions): SourcesPlan {
  return { columns: parseColumns(opts.columns) };
}
