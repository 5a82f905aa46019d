// `recall-feed sources`: the data sources the key may use, in any output format.
import { writesFormats } from '../format-choices.js';
import { counted } from '../../output/numbers.js';
import type { Program } from '../global-options.js';
import { action, type OptionsOf } from './define-action.js';
import type { Context } from '../../runtime/context.js';
import type { GlobalFlags } from '../../runtime/settings.js';
import { columnWarnings } from '../../runtime/options/column-names.js';
import { parseColumns } from '../../runtime/options/option-parsers.js';

const SOURCE_COLUMNS = ['id', 'name', 'description', 'official_url'];

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
  writesFormats(declareSources(program), 'record').action(action(ctx, async () => runSources));
}

export async function runSources(opts: SourcesOptions, globals: GlobalFlags, ctx: Context): Promise<void> {
  const columns = parseColumns(opts.columns);
  const { openSession } = await import('../../runtime/session.js');
  const session = await openSession(globals, ctx, { needsKey: true });
  try {
    const { chooseFormat, openTarget, reachesTerminal } = await import('../../runtime/files/output-target.js');
    const { announceWritten, writeOutput } = await import('../../runtime/files/write-output.js');
    const { createRenderer } = await import('../../output/renderer.js');
    const format = chooseFormat(session.settings, session.terminal);
    const answer = await session.client.sources();
    for (const w of columnWarnings({ columns, format, records: answer.data_sources })) session.status.warn(w);
    await writeOutput(
      () => openTarget(session.settings, ctx),
      async (target) => {
        const renderer = createRenderer({
          format,
          out: target.stream,
          columns,
          tableColumns: SOURCE_COLUMNS,
          csvColumns: SOURCE_COLUMNS,
          width: session.terminal.columns,
          color: session.terminal.color,
          toTerminal: reachesTerminal(target, session.terminal),
        });
        await renderer.write(answer.data_sources);
        await renderer.end();
      },
    );
    announceWritten(session, counted(answer.data_sources.length, 'data source', 'data sources'));
    if (format === 'table') session.status.note(`${answer.total_available} data sources available to this key`);
  } finally {
    await session.close();
  }
}
