// `recall-feed match`: which products of a catalogue were recalled; flags and help, then the match engine (src/jobs/matching).
import type { OptionsOf } from './define-action.js';
import { BOUNDS } from '../../api/constants.js';
import { DEFAULT_EXEC_TIMEOUT_S, DEFAULT_INTERVAL_S, HOURS_HELP } from '../../jobs/watch/defaults.js';
import { UsageError } from '../../runtime/cli-errors.js';
import type { MatchPlan } from '../../jobs/match/run-match.js';
import type { MatchWatchPlan } from '../../jobs/match/watch-match.js';
import type { LearnPlan } from '../../jobs/match/match-learn.js';
import type { QualityPlan } from '../../jobs/match/match-quality.js';
import { addEmailOptions } from './email-flags.js';
import { parseFilterOptions } from '../../runtime/options/filter-options.js';
import { addFilterOptions, addsUp, onlyOnce } from './filter-flags.js';
import { addDbOption, parseDb } from './archive-options.js';
import { mapOf, parseInstant } from '../../runtime/options/option-parsers.js';
import { addOpsOptions, withUses } from './ops-action.js';
import { defineCommand, type NewCommand, type SessionPlanInput } from './define-command.js';
import { parseOneOf, parseSourceList, parseWholeNumber } from '../../runtime/options/option-parsers.js';
import { parseSla } from '../../jobs/matching/sla.js';

/** `recall-feed match`: its flags and help; commander's types of them are the options' types. */
function declareMatch(cmd: NewCommand) {
  const match = cmd
    .option('--catalog <file>', 'the catalogue: CSV with a header row (delimiter and BOM detected) or JSON lines')
    .option(
      '--map <spec>',
      'catalogue columns by role, e.g. gtin=EAN13,brand=Marque,model=Ref,name=Libellé,lot=Lot,best_before=DDM',
    )
    .option('--sources <ids>', 'comma-separated data source IDs (default: all the key may use)', addsUp)
    .option('--hours <1-24>', HOURS_HELP)
    .option('--archive', 'check the recalls in the archive (see `sync`) instead of the live window; no key needed')
    .option(
      '--since <when>',
      'with --archive: recalls published since, e.g. 30d or 2026-01-01 (default: all)',
      onlyOnce('--since'),
    )
    .option('--full', 'with --archive: check every recall again, not only those stored since the last run')
    .option('--open-cases', 'open a case in the archive for each new match or possible pair (see `cases`)')
    .option(
      '--key <column>',
      'with --open-cases: the column naming each product (default: sku, id, ref, our_ref, article)',
    )
    .option('--level <list>', 'with --open-cases: open cases only at these levels: match, possible (default: both)')
    .option(
      '--sla <duration>',
      'with --open-cases: each case is due this long after the recall was published: 2wd, 24h, 3d',
    )
    .option('--calendar <country>', 'with --sla <n>wd: public holidays of this country are not working days (e.g. FR)')
    .option('--exit-code', 'exit 8 when at least one row is a `match` (for cron and CI)')
    .option('--explain', 'add an explain column: which rule fired on which normalised values')
    .option(
      '--quality',
      "from the archive: each tier's precision on your closed cases, and each source's share of recalls with a barcode, model, lot or date",
    )
    .option(
      '--learn',
      "from the archive's closed cases: promote a tier whose measured precision reaches 0.98 and reweigh name words; from its notices: the brands each firm recalls under; into a file match then uses",
    )
    .option('--learned <file>', 'what --learn writes and match reads (default: <catalogue>.learned.json)')
    .option('--watch', 'poll the feed and check each new recall as it arrives (as feed --watch)')
    .option('--interval <seconds>', `with --watch: seconds between polls (default ${DEFAULT_INTERVAL_S})`)
    .option('--state <file>', 'with --watch: remember the recalls checked, and the deliveries owed, across restarts')
    .option(
      '--exec <command>',
      'with --watch: run this for each match row, no shell; {recall_id}, {level}, {<catalogue column>}',
    )
    .option('--exec-timeout <seconds>', `stop an --exec command after this long (default ${DEFAULT_EXEC_TIMEOUT_S})`)
    .option(
      '--webhook [url]',
      'with --watch: POST each match row there (https; bare: RECALL_FEED_WEBHOOK or config set webhook)',
    )
    .option('--webhook-format <format>', 'json (the row, default), slack or teams')
    .option('--no-formula-guard', "csv: do not prefix cells starting with = + - @ with '")
    .option('--bom', 'csv: start the file with a UTF-8 byte-order mark (Excel)')
    .addHelpText(
      'after',
      `
Tiers, best first: match/barcode (GTIN-8 to 14, check digits verified), match/model+brand,
possible/barcode-unchecked, possible/model, possible/brand+name. A shared brand or a generic word
alone is never a match, and no row is not a promise that a product is safe: only that nothing
visible matched. Each row has a scope (in-scope, out-of-scope, unknown) from the lots and dates the
notice names; an out-of-scope row is level excluded: listed with its evidence, never a match.

Columns are found by name (gtin, ean, upc, barcode; brand; model, mpn, model_number, reference;
name, title, product_name; lot, batch, lot_number; best_before, bbd, ddm, dlc, dluo, expiry,
use_by; never a bare date) or given with --map. See docs/matching.md.

Examples:
  recall-feed match --catalog products.csv
  recall-feed match --catalog products.csv -f csv -o matches.csv --exit-code
  recall-feed match --catalog export.jsonl --map gtin=EAN13,brand=Marque --sources rappel_conso
  recall-feed match --catalog products.csv --severity serious,high      only recalls that pass the filters
  recall-feed match --catalog products.csv --archive --since 90d       the archive kept by \`sync\`, offline
  recall-feed match --catalog products.csv --archive --open-cases      a case to work through per match pair
  recall-feed match --catalog products.csv --explain -f jsonl          why each row matched
  recall-feed match --quality                                          how often each tier was right`,
    );
  return addDbOption(
    addFilterOptions(
      addOpsOptions(
        addEmailOptions(match, 'with --watch: e-mail these addresses one message per poll with its match rows'),
      ),
    ),
  );
}

type MatchOptions = OptionsOf<ReturnType<typeof declareMatch>>;

export default defineCommand({
  name: 'match',
  summary: 'check a product catalogue (CSV or JSON lines) against the recalls: match, possible, or nothing visible',
  formats: { kind: 'record' },
  flags: declareMatch,
  plan: (opts, input) => planMatchRun(opts, input),
  run: async (plan, session) => {
    // Only the job the run needs is loaded: a plain match never loads --quality's, nor the reverse.
    if (plan.kind === 'learn') {
      const { runMatchLearn, learnUses } = await import('../../jobs/match/match-learn.js');
      const uses = learnUses(plan.plan);
      return withUses(session, uses, (s) => runMatchLearn(plan.plan, s));
    }
    if (plan.kind === 'quality') {
      const { runMatchQuality } = await import('../../jobs/match/match-quality.js');
      const uses = { output: {}, archive: { db: plan.plan.db, mode: 'read' as const } };
      return withUses(session, uses, (s) => runMatchQuality(plan.plan, s));
    }
    // The catalogue (and a case deadline's calendar) is read and checked before the output, client or archive opens.
    const { prepareMatch, runMatch, matchUses } = await import('../../jobs/match/run-match.js');
    const uses = matchUses(plan.plan);
    // Before that first read, as the session checks them: a pipe as the catalogue would block it or read empty.
    (await import('../../runtime/files/kept-files.js')).refuseSpecialFiles(uses.kept ?? []);
    const inputs = await prepareMatch(plan.plan, session);
    return withUses(session, uses, (s) => runMatch(plan.plan, inputs, s));
  },
  reports: 'match',
});

/** Which of match's three jobs runs, with its plan. */
type MatchRun =
  | { kind: 'learn'; plan: LearnPlan }
  | { kind: 'quality'; plan: QualityPlan }
  | { kind: 'match'; plan: MatchPlan };

async function planMatchRun(opts: MatchOptions, { now, settings, terminal, ctx }: SessionPlanInput): Promise<MatchRun> {
  if (opts.full && (!opts.archive || opts.learn || opts.quality))
    throw new UsageError('--full works with match --archive', 'it checks every recall of the archive again');
  if (opts.learn) return { kind: 'learn', plan: planLearn(opts) };
  if (opts.quality) return { kind: 'quality', plan: planQuality(opts, now) };
  const [{ planFeedWatch }, { chooseFormat }] = await Promise.all([
    import('./feed-plan.js'),
    import('../../runtime/files/output-target.js'),
  ]);
  const planWatch = (o: MatchOptions) => {
    const format = chooseFormat(settings, terminal);
    return { format, formulaGuard: o.formulaGuard, ...planFeedWatch(o, settings, ctx.env) };
  };
  return { kind: 'match', plan: planMatch(opts, now, planWatch) };
}

/** `match`'s plan; `planWatch` plans --watch's feed flags as `feed` plans them (with the settings). */
export function planMatch(
  opts: MatchOptions,
  nowMs: number,
  planWatch: (o: MatchOptions) => MatchWatchPlan,
): MatchPlan {
  if (!opts.catalog)
    throw new UsageError('match needs --catalog <file>', 'example: recall-feed match --catalog products.csv');
  const sources = parseSourceList(opts.sources);
  if (opts.archive && opts.hours !== undefined) {
    throw new UsageError('--hours is the live window: with --archive use --since', 'example: --archive --since 30d');
  }
  if (opts.key !== undefined && !opts.openCases) throw new UsageError('--key works with --open-cases');
  for (const [flag, given] of [
    ['--level', opts.level],
    ['--sla', opts.sla],
    ['--calendar', opts.calendar],
  ] as const)
    if (given !== undefined && !opts.openCases) throw new UsageError(`${flag} works with --open-cases`);
  if (opts.openCases && !opts.archive && !opts.watch)
    throw new UsageError('--open-cases keeps its cases in the archive: use it with --archive or --watch');
  // With --watch --open-cases, --db names the archive the cases go to.
  const dbForCases = opts.watch === true && opts.openCases === true;
  if (
    !opts.archive &&
    (opts.since !== undefined || ((opts.db !== undefined || opts.dbSchema !== undefined) && !dbForCases))
  ) {
    throw new UsageError(
      `${opts.since !== undefined ? '--since' : '--db'} works with --archive`,
      'the live window is the last 24 hours: narrow it with --hours',
    );
  }
  return {
    catalog: opts.catalog,
    map: mapOf(opts.map),
    recalls: opts.archive
      ? { kind: 'archive', db: parseDb(opts), sources, sinceUs: parseInstant(opts.since, '--since', nowMs) }
      : { kind: 'live', sources, hours: parseWholeNumber(opts.hours, '--hours', BOUNDS.hoursMin, BOUNDS.hoursMax) },
    filter: parseFilterOptions(opts),
    exitCode: opts.exitCode ?? false,
    formulaGuard: opts.formulaGuard,
    bom: opts.bom ?? false,
    watch: watchOptions(opts, planWatch),
    openCases: opts.openCases
      ? {
          key: opts.key,
          db: parseDb(opts),
          levels: caseLevels(opts.level),
          sla: parseSla(opts.sla, opts.calendar),
        }
      : undefined,
    explain: opts.explain ?? false,
    learned: opts.learned,
    full: opts.full ?? false,
  };
}

/** `match --learn` reads the archive's closed cases and the catalogue they were opened on, and writes one file. */
export function planLearn(opts: MatchOptions): LearnPlan {
  if (!opts.catalog)
    throw new UsageError(
      '--learn needs the catalogue the cases were opened on: --catalog <file>',
      'example: recall-feed match --learn --catalog products.csv',
    );
  const otherRuns = ['watch', 'openCases', 'level', 'sla', 'calendar', 'exitCode', 'explain', 'quality'] as const;
  // Every closed case of this catalogue teaches, whatever its recall: a window, sources or filters would be ignored.
  const recallChoice = ['hours', 'since', 'sources', 'severity', 'risk', 'status', 'jurisdiction'] as const;
  const given = ([...otherRuns, ...recallChoice, 'category', 'brand', 'country', 'grep'] as const).find(
    (k) => opts[k] !== undefined,
  );
  if (given)
    throw new UsageError(
      `--learn reads the archive's closed cases: --${given.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} does not apply`,
      'example: recall-feed match --learn --catalog products.csv',
    );
  watchOptions(opts);
  return {
    db: parseDb(opts),
    catalog: opts.catalog,
    map: mapOf(opts.map),
    key: opts.key,
    learned: opts.learned,
    formulaGuard: opts.formulaGuard,
    bom: opts.bom ?? false,
  };
}

/** `match --quality` reads the archive's cases and recalls: no catalogue, no key, nothing of a live run. */
export function planQuality(opts: MatchOptions, nowMs: number): QualityPlan {
  const given = (
    ['catalog', 'map', 'watch', 'openCases', 'key', 'level', 'sla', 'calendar', 'exitCode', 'explain', 'hours'] as const
  ).find((k) => opts[k] !== undefined);
  if (given)
    throw new UsageError(
      `--quality reads the archive's cases and recalls: --${given.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} does not apply`,
      'example: recall-feed match --quality --since 90d',
    );
  watchOptions(opts);
  return {
    db: parseDb(opts),
    sources: parseSourceList(opts.sources),
    sinceUs: parseInstant(opts.since, '--since', nowMs),
    filter: parseFilterOptions(opts),
    formulaGuard: opts.formulaGuard,
    bom: opts.bom ?? false,
  };
}

/** --level of --open-cases: which levels open a case (default both). */
function caseLevels(raw: string | undefined): ('match' | 'possible')[] {
  if (raw === undefined) return ['match', 'possible'];
  const levels = raw
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
  if (levels.length === 0) throw new UsageError('--level needs a value', 'one of: match, possible');
  return [
    ...new Set(levels.map((v) => parseOneOf(v, ['match', 'possible'] as const, '--level') as 'match' | 'possible')),
  ];
}

/** `match --watch` polls as `feed --watch`: its poll flags planned, and checked, as the feed's; refused without --watch. */
function watchOptions(opts: MatchOptions, planWatch?: (o: MatchOptions) => MatchWatchPlan): MatchWatchPlan | undefined {
  if (!opts.watch) {
    const given = (
      ['interval', 'state', 'exec', 'execTimeout', 'webhook', 'webhookFormat', 'email', 'smtpUrl', 'emailFrom'] as const
    ).find((k) => opts[k] !== undefined);
    if (given)
      throw new UsageError(`--${given.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} works with match --watch`);
    return undefined;
  }
  if (opts.archive) throw new UsageError('--watch polls the live feed; it cannot be combined with --archive');
  if (opts.explain) throw new UsageError('--explain works without --watch', 'run match --explain on the same window');
  if (opts.exitCode)
    throw new UsageError(
      '--exit-code ends a run with its answer; a --watch does not end',
      'use --exec or --webhook to act on each match',
    );
  return planWatch?.(opts);
}
