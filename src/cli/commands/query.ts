// `recall-feed query`: its flags and help; lists recalls from the local archive, offline (no key, no request).
import type { Command, OptionValues } from '@commander-js/extra-typings';
import { RECALL_FIELDS, SORT_FIELDS, SORT_ORDERS } from '../../api/constants.js';
import type { ArchiveListing } from '../../archive/store.js';
import { UsageError } from '../../runtime/cli-errors.js';
import { addDbOption, parseDb } from './archive-options.js';
import { parseWindow } from '../../runtime/options/option-parsers.js';
import type { QueryPlan } from '../../jobs/archive/plans.js';
import type { DbChoice } from '../../runtime/archive/archive-file.js';
import type { NoOptions, OptionsOf } from './define-action.js';
import { defineCommand, type NewCommand } from './define-command.js';
import { parseFilterOptions } from '../../runtime/options/filter-options.js';
import { searchTokens } from '../../archive/query-parts.js';
import { addFilterOptions, addsUp, onlyOnce } from './filter-flags.js';
import { parseColumns, parseOneOf, parseSourceList, parseWholeNumber } from '../../runtime/options/option-parsers.js';

/** The flags that choose recalls in the archive, as their declaration types them. */
export type SelectionFlags = OptionsOf<ReturnType<typeof addSelectionOptions<[], NoOptions, NoOptions>>>;

/**
 * Adds the flags that choose recalls in the archive (window, sources, full text, record filters, --db). --sources adds
 * up its repeats, as the list filters do; --since, --until and --search take one value.
 */
export function addSelectionOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(
  cmd: Command<A, O, G>,
) {
  const selection = cmd
    .option(
      '--since <when>',
      'published at or after: a duration back from now (36h, 7d) or an ISO date or date-time',
      onlyOnce('--since'),
    )
    .option(
      '--until <when>',
      'published before: a duration back from now or an ISO date or date-time',
      onlyOnce('--until'),
    )
    .option('--sources <ids>', 'comma-separated data source IDs', addsUp)
    .option(
      '--search <words>',
      'full text: every word in the title, summary, product, brand, model numbers, hazard or descriptions',
      onlyOnce('--search'),
    );
  return addDbOption(addFilterOptions(selection));
}

/** The selection part of query and stats, checked; `nowMs` anchors durations. */
export function planSelection(opts: SelectionFlags, nowMs: number): { db: DbChoice } & ArchiveListing {
  if (opts.search !== undefined && opts.search.trim() === '') throw new UsageError('--search needs at least one word');
  // "...", "*" or "--" hold no word the index keeps (letters and digits): they would find nothing, silently.
  if (opts.search !== undefined && !searchTokens(opts.search)?.some((w) => w.tokens.length > 0))
    throw new UsageError(
      '--search has no word to search for',
      'a word is letters or digits: e.g. --search "creme brulee"',
    );
  const { sinceUs, untilUs } = parseWindow(opts.since, opts.until, nowMs);
  return {
    db: parseDb(opts),
    sinceUs,
    untilUs,
    sources: parseSourceList(opts.sources),
    search: opts.search,
    filter: parseFilterOptions(opts),
  };
}

/** `recall-feed query`: its flags and help; commander's types of them are the options' types. */
function declareQuery(cmd: NewCommand) {
  const query = cmd
    .option('--sort <field>', `sort field: ${SORT_FIELDS.join(', ')} (default published_at)`)
    .option('--order <order>', 'asc or desc (default desc; ties broken by id in the same direction)')
    .option('--limit <n>', 'at most n recalls')
    .option('--columns <list>', 'columns for table, csv and parquet, e.g. id,published_at,product_name')
    .option('--no-formula-guard', "csv: do not prefix cells starting with = + - @ with '")
    .option('--bom', 'csv: start the file with a UTF-8 byte-order mark (Excel)');
  return addSelectionOptions(query).addHelpText(
    'after',
    `
Examples:
  recall-feed query --since 7d --brand acme                     a brand's recalls of the last week
  recall-feed query --search "creme brulee"                     full text, case and accents ignored
  recall-feed query --severity serious --jurisdiction FR -f csv -o serious-fr.csv
  recall-feed query --since 2026-01-01 --until 2026-02-01 | jq -r .product_name

jsonl prints each recall exactly as the API last sent it; run \`recall-feed sync\` to fill the archive.`,
  );
}

type QueryOptions = OptionsOf<ReturnType<typeof declareQuery>>;

export default defineCommand({
  name: 'query',
  summary: 'list recalls from the local archive (offline: no key, no request)',
  formats: { kind: 'record' },
  flags: declareQuery,
  plan: (opts, { now }) => planQuery(opts, now),
  uses: (plan) => ({ output: {}, archive: { db: plan.db, mode: 'read' as const } }),
  run: async (plan, session) => (await import('../../jobs/archive/query.js')).runQuery(plan, session),
});

export function planQuery(opts: QueryOptions, nowMs: number): QueryPlan {
  const { db, ...selection } = planSelection(opts, nowMs);
  return {
    db,
    listing: {
      ...selection,
      sortBy: parseOneOf(opts.sort, SORT_FIELDS, '--sort'),
      order: parseOneOf(opts.order, SORT_ORDERS, '--order'),
      limit: parseWholeNumber(opts.limit, '--limit', 1),
    },
    // The archive holds the feed's recalls: the same column names as feed --columns.
    columns: parseColumns(opts.columns, RECALL_FIELDS),
    formulaGuard: opts.formulaGuard,
    bom: opts.bom ?? false,
  };
}
