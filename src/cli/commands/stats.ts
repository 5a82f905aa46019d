// `recall-feed stats`: its flags and help; counts by field over the archive, or over the live window with --live.
import { STATS_FIELDS, type StatsField } from '../../archive/stats-fields.js';
import { UsageError } from '../../runtime/cli-errors.js';
import type { StatsPlan } from '../../jobs/archive/plans.js';
import type { OptionsOf } from './define-action.js';
import { defineCommand, type NewCommand } from './define-command.js';
import { addsUp } from './filter-flags.js';
import { addSelectionOptions, planSelection } from './query.js';

export const DEFAULT_STATS_BY: readonly StatsField[] = ['source', 'severity', 'day'];

/** `recall-feed stats`: its flags and help; commander's types of them are the options' types. */
function declareStats(cmd: NewCommand) {
  const stats = cmd
    .option(
      '--by <fields>',
      `comma-separated: ${STATS_FIELDS.join(', ')} (default ${DEFAULT_STATS_BY.join(',')})`,
      addsUp,
    )
    .option('--live', 'count the live 24-hour window instead of the archive (needs a key, not an archive)');
  return addSelectionOptions(stats).addHelpText(
    'after',
    `
A field with a filter counts as the filter reads it: a group counts the recalls that
query --<field> <value> selects (no case, accents or outer spaces; a list's value once per
recall; countries whole), and (none) those no value selects. day and hour are UTC buckets of
published_at (docs/archive.md). On a terminal: a bar chart per field and a histogram by day or
hour. -f json prints {"<field>":[{"value":...,"count":n},...]} sorted by count, then value;
-f csv prints field,value,count.

Examples:
  recall-feed stats --by severity,risk --since 7d
  recall-feed stats --by country --jurisdiction FR -f csv -o countries.csv
  recall-feed stats --live --by source,hour`,
  );
}

type StatsOptions = OptionsOf<ReturnType<typeof declareStats>>;

export default defineCommand({
  name: 'stats',
  summary: 'count recalls by source, severity, risk, ..., day or hour: over the archive, or the live window',
  formats: { kind: 'record' },
  flags: declareStats,
  plan: (opts, { now }) => planStats(opts, now),
  uses: (plan) => ({ output: {}, archive: plan.live ? undefined : { db: plan.db, mode: 'read' as const } }),
  run: async (plan, session) => (await import('../../jobs/archive/stats.js')).runStats(plan, session),
});

export function planStats(opts: StatsOptions, nowMs: number): StatsPlan {
  const { db, ...query } = planSelection(opts, nowMs);
  let by = [...DEFAULT_STATS_BY];
  if (opts.by !== undefined) {
    by = [
      ...new Set(
        opts.by
          .split(',')
          .map((f) => f.trim())
          .filter(Boolean),
      ),
    ] as StatsField[];
    const unknown = by.find((f) => !(STATS_FIELDS as readonly string[]).includes(f));
    if (by.length === 0 || unknown !== undefined) {
      throw new UsageError(
        `--by takes fields from ${STATS_FIELDS.join(', ')}${unknown ? `, not '${unknown}'` : ''}`,
        'example: --by severity,day',
      );
    }
  }
  if (opts.live && (opts.db !== undefined || opts.dbSchema !== undefined))
    throw new UsageError(
      `--live counts the live window: it reads no archive, so ${opts.db !== undefined ? '--db' : '--db-schema'} does not apply`,
    );
  return { db, query, by, live: opts.live ?? false };
}
