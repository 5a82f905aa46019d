// `recall-feed feed`: its options, help and checks; turns flags into a FeedPlan before anything is sent.
import type { Command } from 'commander';
import { BOUNDS, RECALL_FIELDS, SORT_FIELDS, SORT_ORDERS, type SortField, type SortOrder } from '../../api/constants.js';
import { InvalidParamsError } from '../../api/errors.js';
import { checkOneOf, checkSources, validateCustomName } from '../../api/params.js';
import { UsageError } from '../errors.js';
import type { Context } from '../context.js';
import type { GlobalFlags } from '../settings.js';
import { action } from './define-action.js';
import { parseColumns, parseWholeNumber } from './option-parsers.js';

export interface FeedOptions {
  sources?: string;
  hours?: string;
  sort?: string;
  order?: string;
  pageSize?: string;
  max?: string;
  cursor?: string;
  paginate: boolean;
  columns?: string;
  custom?: string;
  append?: boolean;
  resume?: boolean;
  formulaGuard: boolean;
  bom?: boolean;
  watch?: boolean;
  interval?: string;
  skipExisting?: boolean;
  state?: string;
}

/** Everything the run needs, checked. */
export interface FeedPlan {
  /** Undefined: the profile's sources, else all the key may use. */
  sources: string[] | undefined;
  hours: number | undefined;
  sortBy: SortField | undefined;
  sortOrder: SortOrder | undefined;
  /** Undefined: the profile's page-size, else DEFAULT_PAGE_SIZE. */
  pageSize: number | undefined;
  max: number | undefined;
  cursor: string | undefined;
  paginate: boolean;
  columns: string[] | undefined;
  custom: string | undefined;
  append: boolean;
  resume: boolean;
  formulaGuard: boolean;
  bom: boolean;
  watch: { intervalMs: number; skipExisting: boolean } | undefined;
  state: string | undefined;
}

export const DEFAULT_PAGE_SIZE = BOUNDS.pageSizeMax;

export function registerFeed(program: Command, ctx: Context): void {
  program
    .command('feed')
    .description('recalls published in the last 1-24 hours, every page, within the rate limits')
    .option('--sources <ids>', 'comma-separated data source IDs (default: all the key may use)')
    .option('--hours <1-24>', 'look-back window in hours (default 24; 1 with --watch)')
    .option('--sort <field>', `sort field: ${SORT_FIELDS.join(', ')} (default published_at)`)
    .option('--order <order>', 'asc or desc (default desc)')
    .option('--page-size <1-500>', `records per request (default ${DEFAULT_PAGE_SIZE}: fewest requests)`)
    .option('--max <n>', 'stop after n records, sending no request beyond what n needs')
    .option('--cursor <cursor>', 'start at this cursor (as printed by an interrupted run)')
    .option('--no-paginate', 'fetch one page only; the next cursor goes to stderr')
    .option('--columns <list>', 'table and csv columns, e.g. id,published_at,product_name (an unknown field is refused)')
    .option('--custom <name>', 'an enterprise feed: /v1/recalls/feed/<name>')
    .option('--append', 'with -o: add the new records to the file, after the run succeeded')
    .option('--resume', 'with -o: continue the <file>.partial an interrupted run left')
    .option('--no-formula-guard', "csv: do not prefix cells starting with = + - @ with '")
    .option('--bom', 'csv: start a new file with a UTF-8 byte-order mark (Excel)')
    .option('--watch', 'poll again and again, printing only recalls not shown before')
    .option('--interval <seconds>', 'with --watch: seconds between polls (default 60)')
    .option('--skip-existing', 'with --watch: only remember what the first poll finds, print what comes after')
    .option('--state <file>', 'remember the ids written across runs; write only new recalls')
    .addHelpText(
      'after',
      `
Examples:
  recall-feed feed --sandbox
  recall-feed feed --hours 6 --sources us_cpsc,uk_opss --sort updated_at
  recall-feed feed -f csv -o recalls.csv                   atomic: the file appears only when complete
  recall-feed feed -f csv -o recalls.csv --resume          finish an export that stopped part-way
  recall-feed feed | jq -r '[.id, .product_name] | @tsv'
  recall-feed feed --watch --interval 120                  new recalls as they are published
  recall-feed feed --state seen.json -f csv -o new.csv --append   from cron: each recall once, ever

Formats: jsonl (one record per line, exactly as the API sent it), json (one array), csv (RFC 4180,
arrays joined with "; ", objects as JSON, null empty), table (a compact view; summary on stderr).`,
    )
    .action(
      action<FeedOptions>(ctx, async () => {
        return async (opts, globals, c) => {
          const plan = planFeed(opts, globals);
          const { runFeed } = await import('../feed/export.js');
          await runFeed(plan, globals, c);
        };
      }),
    );
}

/** Re-raises the client's parameter checks as usage errors that name the flag. */
function flag<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof InvalidParamsError) throw new UsageError(err.message);
    throw err;
  }
}

export function planFeed(opts: FeedOptions, globals: GlobalFlags): FeedPlan {
  const sources =
    opts.sources === undefined
      ? undefined
      : flag(() =>
          checkSources(
            opts.sources!.split(',').map((s) => s.trim()).filter(Boolean),
            '--sources',
          ),
        );
  const plan: FeedPlan = {
    sources,
    hours: parseWholeNumber(opts.hours, '--hours', BOUNDS.hoursMin, BOUNDS.hoursMax),
    sortBy: opts.sort === undefined ? undefined : flag(() => checkOneOf(opts.sort!, SORT_FIELDS, '--sort')),
    sortOrder: opts.order === undefined ? undefined : flag(() => checkOneOf(opts.order!, SORT_ORDERS, '--order')),
    pageSize: parseWholeNumber(opts.pageSize, '--page-size', BOUNDS.pageSizeMin, BOUNDS.pageSizeMax),
    max: parseWholeNumber(opts.max, '--max', 1, Number.MAX_SAFE_INTEGER),
    cursor: opts.cursor,
    paginate: opts.paginate,
    columns: parseColumns(opts.columns, opts.custom === undefined ? RECALL_FIELDS : undefined),
    custom: opts.custom === undefined ? undefined : flag(() => validateCustomName(opts.custom!, '--custom')),
    append: opts.append ?? false,
    resume: opts.resume ?? false,
    formulaGuard: opts.formulaGuard,
    bom: opts.bom ?? false,
    watch: undefined,
    state: opts.state,
  };
  if (opts.cursor !== undefined && opts.cursor.trim() === '') throw new UsageError('--cursor needs a value');
  if ((plan.append || plan.resume) && !globals.output) {
    throw new UsageError(`--${plan.append ? 'append' : 'resume'} works with -o <file>`);
  }
  if (plan.resume && plan.cursor) throw new UsageError('--resume and --cursor cannot be combined: the partial file knows its cursor');
  if (opts.state === '') throw new UsageError('--state needs a file name');
  if (opts.watch) {
    for (const [given, name] of [
      [opts.max, '--max'],
      [opts.cursor, '--cursor'],
      [opts.resume, '--resume'],
      [opts.paginate === false ? true : undefined, '--no-paginate'],
    ] as const) {
      if (given !== undefined) throw new UsageError(`--watch cannot be combined with ${name}`);
    }
    if (globals.output) {
      throw new UsageError('--watch writes to stdout', 'redirect it (>> file), or run from cron with --state and -o --append');
    }
    const interval = opts.interval === undefined ? 60 : Number(opts.interval);
    if (opts.interval !== undefined && (opts.interval.trim() === '' || !Number.isFinite(interval) || interval < 1)) {
      throw new UsageError(`--interval must be a number of seconds, 1 or more, not '${opts.interval}'`);
    }
    plan.watch = { intervalMs: Math.round(interval * 1000), skipExisting: opts.skipExisting ?? false };
    plan.hours ??= 1;
  } else {
    if (opts.interval !== undefined) throw new UsageError('--interval works with --watch');
    if (opts.skipExisting) throw new UsageError('--skip-existing works with --watch');
  }
  return plan;
}
