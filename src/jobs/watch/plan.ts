// The plan of a `feed` run: its flags checked, crossed with each other and with the settings (flag > profile > default), before anything is sent.
import { BOUNDS, RECALL_FIELDS, SORT_FIELDS, SORT_ORDERS } from '../../api/constants.js';
import { FORMATS, formatSpec } from '../../output/formats.js';
import { validateCustomName } from '../../api/params.js';
import type { FeedParams } from '../../api/schemas.js';
import {
  asUsage,
  parseColumns,
  parseOneOf,
  parseSeconds,
  parseSourceList,
  parseWholeNumber,
} from '../../runtime/options/option-parsers.js';
import { UsageError } from '../../runtime/cli-errors.js';
import { chooseFormat } from '../../runtime/files/output-target.js';
import type { Format, Settings } from '../../runtime/settings.js';
import type { Terminal } from '../../runtime/terminal/terminal.js';
import { isEmptyFilter, type RecordFilter } from '../../filters/record-filter.js';
import { parseFilterOptions, type FilterFlags } from '../../runtime/options/filter-options.js';
import { planActions, type ActionOptions, type ActionsPlan } from './actions-plan.js';
import { DEFAULT_INTERVAL_S, DEFAULT_LOCK_WAIT_S, DEFAULT_PAGE_SIZE, DEFAULT_WATCH_HOURS } from './defaults.js';

/** The `feed` flags as commander parsed them. */
export interface FeedOptions extends ActionOptions, FilterFlags {
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
  lockWait?: string;
}

/** Everything a run needs, checked, with every default filled in. */
export interface FeedPlan {
  format: Format;
  /** The API parameters of each request, without the cursor. */
  params: FeedParams;
  custom: string | undefined;
  columns: string[] | undefined;
  formulaGuard: boolean;
  bom: boolean;
  /** Stop after this many records written. */
  max: number | undefined;
  /** Export only: where to start, and whether to go past the first page. */
  cursor: string | undefined;
  paginate: boolean;
  append: boolean;
  resume: boolean;
  /** `--state`: the file of ids already written; only new recalls are written. */
  state: string | undefined;
  /** Record filters the API cannot apply (--severity ... --grep): only matching records are written. */
  filter: RecordFilter;
  /** --exec and --webhook: what to do for each recall written. */
  actions: ActionsPlan | undefined;
  /** How long to wait for another run that holds the same output or state file. */
  lockWaitMs: number;
  watch: { intervalMs: number; skipExisting: boolean } | undefined;
}

function refuseWith(mode: string, given: [unknown, string][]): void {
  for (const [value, name] of given) {
    if (value !== undefined && value !== false) throw new UsageError(`${mode} cannot be combined with ${name}`);
  }
}

function watchPlan(opts: FeedOptions, settings: Settings): FeedPlan['watch'] {
  if (!opts.watch) {
    if (opts.interval !== undefined) throw new UsageError('--interval works with --watch');
    if (opts.skipExisting) throw new UsageError('--skip-existing works with --watch');
    return undefined;
  }
  refuseWith('--watch', [
    [opts.max, '--max'],
    [opts.cursor, '--cursor'],
    [opts.resume, '--resume'],
    [!opts.paginate, '--no-paginate'],
  ]);
  if (settings.output) {
    throw new UsageError(
      '--watch writes to stdout',
      'redirect it (>> file), or run from cron with --state and -o --append',
    );
  }
  const intervalMs = parseSeconds(opts.interval, '--interval', 1) ?? DEFAULT_INTERVAL_S * 1000;
  return { intervalMs, skipExisting: opts.skipExisting ?? false };
}

/** The formats --append can add to, as a hint says them. */
const appendable = () =>
  FORMATS.filter((f) => formatSpec(f).appendable)
    .map((f) => `-f ${f}`)
    .join(' or ');

function checkOutputFlags(opts: FeedOptions, settings: Settings, format: Format): void {
  if (opts.cursor !== undefined && opts.cursor.trim() === '') throw new UsageError('--cursor needs a value');
  if ((opts.append || opts.resume) && !settings.output) {
    throw new UsageError(`--${opts.append ? 'append' : 'resume'} works with -o <file>`);
  }
  if (opts.resume && opts.cursor)
    throw new UsageError('--resume and --cursor cannot be combined: the partial file knows its cursor');
  if (opts.append && !formatSpec(format).appendable) {
    throw new UsageError(`--append cannot add to a ${format} file`, `use ${appendable()} to append`);
  }
  if (opts.resume && !formatSpec(format).resumable) {
    throw new UsageError(`--resume cannot continue a ${format} file`, 'run the export again without --resume');
  }
  if (opts.state === '') throw new UsageError('--state needs a file name');
  if (opts.state !== undefined && !opts.watch) {
    // The state decides what is new and where the window starts; these would quietly fight it.
    refuseWith('--state', [
      [opts.cursor, '--cursor'],
      [opts.resume, '--resume'],
      [!opts.paginate, '--no-paginate'],
    ]);
  }
}

export function planFeed(opts: FeedOptions, settings: Settings, terminal: Terminal): FeedPlan {
  const format = chooseFormat(settings, terminal);
  const sources = parseSourceList(opts.sources) ?? settings.profileSources;
  const max = parseWholeNumber(opts.max, '--max', 1, Number.MAX_SAFE_INTEGER);
  const pageSize =
    parseWholeNumber(opts.pageSize, '--page-size', BOUNDS.pageSizeMin, BOUNDS.pageSizeMax) ??
    settings.profilePageSize ??
    DEFAULT_PAGE_SIZE;
  const hours = parseWholeNumber(opts.hours, '--hours', BOUNDS.hoursMin, BOUNDS.hoursMax);
  // A custom feed's fields are its own: only the recall feed's column names can be checked up front.
  const columns = parseColumns(opts.columns, opts.custom === undefined ? RECALL_FIELDS : undefined);
  const custom = opts.custom === undefined ? undefined : asUsage(() => validateCustomName(opts.custom!, '--custom'));
  const sortBy = parseOneOf(opts.sort, SORT_FIELDS, '--sort');
  const sortOrder = parseOneOf(opts.order, SORT_ORDERS, '--order');
  checkOutputFlags(opts, settings, format);
  const watch = watchPlan(opts, settings);
  // A plain export with --max asks for no larger page than needed (`--max 10`: one request of 10);
  // with --state, records already written do not count, so pages stay full.
  const filter = parseFilterOptions(opts);
  // With record filters, n records written may take many more fetched: pages stay full then too.
  const capPage = max !== undefined && opts.state === undefined && isEmptyFilter(filter);
  return {
    format,
    params: {
      dataSources: sources,
      hoursAgo: hours ?? (watch ? DEFAULT_WATCH_HOURS : undefined),
      sortBy,
      sortOrder,
      limit: capPage ? Math.min(pageSize, max) : pageSize,
    },
    custom,
    columns,
    formulaGuard: opts.formulaGuard,
    bom: opts.bom ?? false,
    max,
    cursor: opts.cursor,
    paginate: opts.paginate,
    append: opts.append ?? false,
    resume: opts.resume ?? false,
    state: opts.state,
    filter,
    actions: planActions(opts, { watch: watch !== undefined, state: opts.state !== undefined }, settings),
    lockWaitMs: (parseWholeNumber(opts.lockWait, '--lock-wait', 0, 86_400) ?? DEFAULT_LOCK_WAIT_S) * 1000,
    watch,
  };
}
