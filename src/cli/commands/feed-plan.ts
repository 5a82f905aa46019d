// The shell's half of a `feed` run, and of the polls of the feed `match --watch` shares: the flags checked, crossed with each other and with the settings (flag > profile > default), into the plans the jobs run.
import path from 'node:path';
import { BOUNDS, RECALL_FIELDS, SORT_FIELDS, SORT_ORDERS } from '../../api/constants.js';
import { refuseOverwrites } from '../../runtime/files/kept-files.js';
import { FORMATS, formatOfExtension, formatSpec } from '../../output/formats.js';
import { validateCustomName } from '../../api/params.js';
import {
  asUsage,
  parseColumns,
  parseOneOf,
  parseSourceList,
  parseWholeNumber,
} from '../../runtime/options/option-parsers.js';
import { UsageError } from '../../runtime/cli-errors.js';
import { chooseFormat } from '../../runtime/files/output-target.js';
import type { Env, Format, Settings } from '../../runtime/settings.js';
import type { Terminal } from '../../runtime/terminal/terminal.js';
import { isEmptyFilter } from '../../filters/record-filter.js';
import { type FilterFlags, parseFilterOptions } from '../../runtime/options/filter-options.js';
import { type ActionOptions, planActions } from './actions-plan.js';
import { planPoll, pollPace } from './poll-plan.js';
import {
  DEFAULT_INTERVAL_S,
  DEFAULT_LOCK_WAIT_S,
  DEFAULT_PAGE_SIZE,
  DEFAULT_SWEEP_S,
  DEFAULT_WATCH_HOURS,
} from '../../jobs/watch/defaults.js';
import type { FeedPlan, FeedPollPlan, WatchPlan } from '../../jobs/watch/plan.js';
import type { FeedOptions } from './feed-options.js';

function refuseWith(mode: string, given: [unknown, string][]): void {
  for (const [value, name] of given) {
    if (value !== undefined && value !== false) throw new UsageError(`${mode} cannot be combined with ${name}`);
  }
}

/** The flags of a poll of the feed, as `feed` declares them; `match --watch` declares those it has by the same names. */
export type FeedPollOptions = Partial<
  Pick<FeedOptions, 'sources' | 'hours' | 'sort' | 'order' | 'pageSize' | 'custom' | 'state' | 'lockWait'>
> &
  ActionOptions &
  FilterFlags;

/** --watch writes to stdout: -o is refused (feed's, match's). */
function refuseWatchOutput(settings: Settings): void {
  if (settings.output) {
    throw new UsageError(
      '--watch writes to stdout',
      'redirect it (>> file), or run from cron with --state and -o --append',
    );
  }
}

/**
 * How often a watch asks for the whole window: without --hours, on the first poll and every DEFAULT_SWEEP_S (a recall can
 * reach the API hours after its published_at); with --hours, the user's window is every poll's.
 */
function sweepMs(hours: string | undefined): number | undefined {
  return hours === undefined ? DEFAULT_SWEEP_S * 1000 : undefined;
}

function watchPlan(opts: FeedOptions, settings: Settings): FeedPlan['watch'] {
  if (opts.watch) {
    refuseWith('--watch', [
      [opts.max, '--max'],
      [opts.cursor, '--cursor'],
      [opts.resume, '--resume'],
      [!opts.paginate, '--no-paginate'],
    ]);
    refuseWatchOutput(settings);
  }
  const poll = planPoll(opts, DEFAULT_INTERVAL_S);
  if (!poll) {
    if (opts.skipExisting) throw new UsageError('--skip-existing works with --watch');
    return undefined;
  }
  return { ...poll, skipExisting: opts.skipExisting ?? false, sweepMs: sweepMs(opts.hours) };
}

/**
 * A poll of the feed (`feed --state`, `feed --watch`, `match --watch`): the window of each request, the filters, the
 * state, the actions and the lock wait. `max` (feed's --max) caps the page of a plain export.
 */
function planFeedPoll(
  opts: FeedPollOptions,
  settings: Settings,
  run: { watch: boolean; max?: number | undefined },
  env: Env,
  /** The fields each record written has, when known up front (the recall feed's): --exec's placeholders are checked. */
  fields?: readonly string[],
): FeedPollPlan {
  const sources = parseSourceList(opts.sources) ?? settings.profileSources;
  const pageSize =
    parseWholeNumber(opts.pageSize, '--page-size', BOUNDS.pageSizeMin, BOUNDS.pageSizeMax) ??
    settings.profilePageSize ??
    DEFAULT_PAGE_SIZE;
  const hours = parseWholeNumber(opts.hours, '--hours', BOUNDS.hoursMin, BOUNDS.hoursMax);
  const custom = opts.custom === undefined ? undefined : asUsage(() => validateCustomName(opts.custom!, '--custom'));
  const sortBy = parseOneOf(opts.sort, SORT_FIELDS, '--sort');
  const sortOrder = parseOneOf(opts.order, SORT_ORDERS, '--order');
  const filter = parseFilterOptions(opts);
  // A plain export with --max asks for no larger page than needed (`--max 10`: one request of 10); with --state,
  // records already written do not count, and with record filters n written may take many more fetched: pages stay full.
  const { max } = run;
  const capPage = max !== undefined && opts.state === undefined && isEmptyFilter(filter);
  return {
    params: {
      dataSources: sources,
      hoursAgo: hours ?? (run.watch ? DEFAULT_WATCH_HOURS : undefined),
      sortBy,
      sortOrder,
      limit: capPage ? Math.min(pageSize, max) : pageSize,
    },
    custom,
    filter,
    state: opts.state,
    actions: planActions(opts, { watch: run.watch, state: opts.state !== undefined }, settings, env, fields),
    lockWaitMs: (parseWholeNumber(opts.lockWait, '--lock-wait', 0, 86_400) ?? DEFAULT_LOCK_WAIT_S) * 1000,
  };
}

/**
 * The polls of the feed that `match --watch` runs, from its own flags (it declares the poll flags feed has, by the
 * same names), checked as feed checks them.
 */
export function planFeedWatch(
  opts: FeedPollOptions & { interval?: string | undefined },
  settings: Settings,
  env: Env,
): WatchPlan {
  refuseWatchOutput(settings);
  if (opts.state === '') throw new UsageError('--state needs a file name');
  const watch = { ...pollPace(opts.interval, DEFAULT_INTERVAL_S), skipExisting: false, sweepMs: sweepMs(opts.hours) };
  return { ...planFeedPoll(opts, settings, { watch: true }, env), watch };
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
  // The file's name says what it holds: rows of another format appended to it would leave it readable as neither.
  const named = opts.append && settings.output ? formatOfExtension(path.extname(settings.output)) : undefined;
  if (named !== undefined && named !== format)
    throw new UsageError(
      `--append: ${settings.output} is a ${named} file, and -f ${format} would add ${format} to it`,
      named === 'parquet' ? 'parquet files cannot be appended to: write a new file' : `leave -f out to append ${named}`,
    );
  if (opts.resume && !formatSpec(format).resumable) {
    throw new UsageError(`--resume cannot continue a ${format} file`, 'run the export again without --resume');
  }
  if (opts.state === '') throw new UsageError('--state needs a file name');
  // Flags that would do nothing here, silently.
  if (opts.lockWait !== undefined && !settings.output && opts.state === undefined)
    throw new UsageError(
      '--lock-wait works with -o or --state',
      'it is how long to wait for another run writing the same file',
    );
  if (opts.bom && format !== 'csv')
    throw new UsageError(
      `--bom works with -f csv, not ${format}`,
      'it starts a csv file with the mark Excel reads as UTF-8',
    );
  // feed opens its output itself (no session `uses`): the same check as every other run's.
  refuseOverwrites(settings, opts.state === undefined ? [] : [{ path: opts.state, what: 'state file' }]);
  if (opts.state !== undefined && !opts.watch) {
    // The state decides what is new and where the window starts; these would quietly fight it.
    refuseWith('--state', [
      [opts.cursor, '--cursor'],
      [opts.resume, '--resume'],
      [!opts.paginate, '--no-paginate'],
    ]);
  }
}

/** `env`: the run's environment, whose PATH --exec's program is looked up in. */
export function planFeed(opts: FeedOptions, settings: Settings, terminal: Terminal, env: Env): FeedPlan {
  const format = chooseFormat(settings, terminal);
  const max = parseWholeNumber(opts.max, '--max', 1, Number.MAX_SAFE_INTEGER);
  // A custom feed's fields are its own: only the recall feed's column names can be checked up front.
  const columns = parseColumns(opts.columns, opts.custom === undefined ? RECALL_FIELDS : undefined);
  checkOutputFlags(opts, settings, format);
  const watch = watchPlan(opts, settings);
  return {
    ...planFeedPoll(
      opts,
      settings,
      { watch: watch !== undefined, max },
      env,
      opts.custom === undefined ? RECALL_FIELDS : undefined,
    ),
    format,
    columns,
    formulaGuard: opts.formulaGuard,
    bom: opts.bom ?? false,
    max,
    cursor: opts.cursor,
    paginate: opts.paginate,
    append: opts.append ?? false,
    resume: opts.resume ?? false,
    watch,
  };
}
