// Flags shared by the archive commands: --db, and the --since/--until instants of query and stats.
import { parseDuration } from '../../api/duration.js';
import type { Command, OptionValues } from '@commander-js/extra-typings';
import { timestampMicros } from '../../api/timestamps.js';
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

/**
 * An instant as µs since the epoch: a duration back from now (`90m`, `36h`, `7d`, `2w`) or an ISO 8601
 * date or date-time (naive ones are UTC, as the API's are). Undefined when the flag is absent.
 */
export function parseInstant(raw: string | undefined, flag: string, nowMs: number): number | undefined {
  if (raw === undefined) return undefined;
  const text = raw.trim();
  const back = parseDuration(text);
  if (back !== undefined) return (nowMs - back) * 1000;
  const us = timestampMicros(text);
  if (!Number.isNaN(us)) return us;
  throw new UsageError(
    `${flag} must be a duration such as 36h or 7d, or an ISO date or date-time, not '${raw}'`,
    `examples: ${flag} 7d, ${flag} 2026-01-15, ${flag} 2026-01-15T08:00:00Z`,
  );
}
