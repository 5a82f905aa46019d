// Flags shared by the archive commands: --db, and the --since/--until instants of query and stats.
import type { Command, OptionValues } from '@commander-js/extra-typings';
import { DEFAULT_SCHEMA } from '../../archive/db-target.js';
import { UsageError } from '../../runtime/cli-errors.js';
import type { DbChoice } from '../../runtime/archive/archive-file.js';

export function addDbOption<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  cmd: Command<A, O, G>,
) {
  return cmd
    .option(
      '--db <file|url>',
      'archive: a file, or a postgres:// URL (env RECALL_FEED_DB, profile key db; default ~/.local/share/recall-feed/recalls.db)',
    )
    .option(
      '--db-schema <name>',
      `PostgreSQL schema of the archive's tables (default ${DEFAULT_SCHEMA}; or ?schema= in the URL)`,
    );
}

/** --db and --db-schema as given, undefined when absent; an empty name is refused, not read as "not given". */
export function parseDb(opts: { db?: string; dbSchema?: string }): DbChoice {
  if (opts.db === '') throw new UsageError('--db needs a file name or a postgres:// URL');
  if (opts.dbSchema === '') throw new UsageError('--db-schema needs a schema name');
  return { db: opts.db, schema: opts.dbSchema };
}
