// `recall-feed stats`: its flags and help; counts by field over the archive, or over the live window with --live.
import type { Program } from '../global-options.js';
import { writesFormats } from '../format-choices.js';
import { STATS_FIELDS, type StatsField } from '../../archive/stats-fields.js';
import type { Context } from '../../runtime/context.js';
import { UsageError } from '../../runtime/cli-errors.js';
import type { StatsPlan } from '../../jobs/archive/plans.js';
import { action, inSession, type OptionsOf } from './define-action.js';
import { addSelectionOptions, planSelection } from './query.js';

export const DEFAULT_STATS_BY: readonly StatsField[] = ['source', 'severity', 'day'];

/** `recall-feed stats`: its flags and help; commander's types of them are the options' types. */
function declareStats(program: Program) {
  const cmd = program
    .command('stats')
    .description('count recalls by source, severity, risk, ..., day or hour: over the archive, or the live window')
    .option('--by <fields>', `comma-separated: ${STATS_FIELDS.join(', ')} (default ${DEFAULT_STATS_BY.join(',')})`)
    .option('--live', 'count the live 24-hour window instead of the archive (needs a key, not an archive)');
  return addSelectionOptions(cmd).addHelpText(
    'after',
    `
Array fields (risk_types, geo_jurisdictions) count each element; day and hour are UTC buckets of
published_at. On a terminal: a bar chart per field and a histogram by day or hour. -f json prints
{"<field>":[{"value":...,"count":n},...]} sorted by count, then value; -f csv prints field,value,count.

Examples:
  recall-feed stats --by severity,risk --since 7d
  recall-feed stats --by country --jurisdiction FR -f csv -o countries.csv
  recall-feed stats --live --by source,hour`,
  );
}

type StatsOptions = OptionsOf<ReturnType<typeof declareStats>>;

export function registerStats(program: Program, ctx: Context): void {
  writesFormats(declareStats(program), 'record').action(
    action(ctx, async () => async (opts, globals, c) => {
      const plan = planStats(opts, c.now());
      const { runStats } = await import('../../jobs/archive/stats.js');
      await inSession(globals, c, { output: {}, archive: plan.live ? undefined : { db: plan.db, mode: 'read' } }, (s) =>
        runStats(plan, s),
      );
    }),
  );
}

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
