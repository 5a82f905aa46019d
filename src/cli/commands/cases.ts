// `recall-feed cases`: its flags, subcommands and help; lists the cases `match --open-cases` opened and records each step.
import { writesFormats } from '../format-choices.js';
import { refusesParentOptions } from '../parent-options.js';
import type { Command, CommandUnknownOpts, OptionValues } from '@commander-js/extra-typings';
import { type CaseStatus, OUTCOMES } from '../../archive/cases-model.js';
import { UsageError } from '../../runtime/cli-errors.js';
import type { DbChoice } from '../../runtime/archive/archive-file.js';
import type { Context } from '../../runtime/context.js';
import type { GlobalFlags } from '../../runtime/settings.js';
import type { CasesListPlan, CaseStepPlan } from '../../jobs/cases/plans.js';
import { parseFilterOptions } from '../../runtime/options/filter-options.js';
import { parseOneOf } from '../../runtime/options/option-parsers.js';
import { osUser } from '../../jobs/cases/os-user.js';
import { addDbOption, parseDb } from './archive-options.js';
import { action, inSession, type OptionsOf } from './define-action.js';
import { defineCommand, type NewCommand, withWrites } from './define-command.js';

const STATUSES = ['open', 'waiting', 'closed', 'all'] as const;
const LEVELS = ['match', 'possible'] as const;

/** The options of `cases`, which its subcommands see too (a selection, --db), as its declaration types them. */
type ListFlags = OptionsOf<ReturnType<typeof declareCases>>;

/** A step's own options; `--as` is resolve's alone. */
type StepFlags = OptionsOf<ReturnType<typeof declareStep>> & { as?: string };

/** The selection flags of the `cases` command that a bulk step may use instead of ids. */
const SELECTION_FLAGS = [
  'status',
  'level',
  'severity',
  'risk',
  'alertStatus',
  'jurisdiction',
  'category',
  'brand',
  'country',
  'grep',
  'overdue',
  'dueSoon',
] as const;

/** The selection flags as typed (`--alert-status`): `cases show` and `cases verify` refuse them. */
const SELECTION_LONGS = SELECTION_FLAGS.map((f) => `--${f.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);

/** The record filters, with alert_status as --alert-status: --status is the case's own here. */
function addCaseFilters<A extends unknown[], O extends OptionValues, G extends OptionValues>(cmd: Command<A, O, G>) {
  return cmd
    .option('--severity <list>', "the recall's risk_severity is one of these, e.g. serious,high")
    .option('--risk <list>', "the recall's risk_types include one of these, e.g. fire,burn")
    .option('--alert-status <list>', "the recall's alert_status is one of these, e.g. active")
    .option('--jurisdiction <list>', "the recall's geo_jurisdictions include one of these, e.g. FR,DE")
    .option('--category <text>', "the recall's product_category contains this text")
    .option('--brand <text>', "the recall's product_brand contains this text")
    .option(
      '--country <country>',
      "the recall's country_of_origin is this country: an ISO code or a name (DE, Germany)",
    )
    .option('--grep <text>', 'any text field of the recall contains this text');
}

function list<T extends string>(raw: string | undefined, choices: readonly T[], flag: string): T[] | undefined {
  if (raw === undefined) return undefined;
  const values = raw
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
  if (values.length === 0) throw new UsageError(`${flag} needs a value`, `one of: ${choices.join(', ')}`);
  return values.map((v) => parseOneOf(v, choices, flag) as T);
}

/** `open` is every unresolved case, waiting ones included (a waiting case is not resolved); `waiting` only those. */
function caseStatuses(asked: readonly (typeof STATUSES)[number][]): CaseStatus[] {
  const out = new Set<CaseStatus>();
  for (const s of asked) {
    if (s === 'all' || s === 'open' || s === 'waiting') out.add(s === 'waiting' ? 'waiting' : 'open');
    if (s === 'all' || s === 'open') out.add('waiting');
    if (s === 'all' || s === 'closed') out.add('closed');
  }
  return [...out];
}

export function planCasesList(opts: ListFlags): CasesListPlan {
  const { alertStatus, status: _s, ...rest } = opts;
  const statuses = caseStatuses(list(opts.status, STATUSES, '--status') ?? ['open']);
  dueOnlyOpen(opts, statuses);
  return {
    db: parseDb(opts),
    query: { statuses, levels: list(opts.level, LEVELS, '--level') },
    filter: parseFilterOptions({ ...rest, status: alertStatus }),
    formulaGuard: opts.formulaGuard,
    bom: opts.bom ?? false,
    due: { overdue: opts.overdue ?? false, dueSoon: opts.dueSoon ?? false },
  };
}

/** --overdue and --due-soon select open and waiting cases: among closed ones only (reopen) they would select none. */
function dueOnlyOpen(opts: { overdue?: boolean; dueSoon?: boolean }, statuses: readonly CaseStatus[]): void {
  const flag = opts.overdue ? '--overdue' : opts.dueSoon ? '--due-soon' : undefined;
  if (flag !== undefined && statuses.every((s) => s === 'closed'))
    throw new UsageError(`${flag} selects open and waiting cases: among closed ones it would select none`);
}

/** Case ids as given (each checked), without repeats, in order. */
export function parseCaseIds(raw: readonly string[]): number[] {
  return [...new Set(raw.map((r) => parseCaseId(r)))];
}

export function parseCaseId(raw: string | undefined): number {
  if (raw === undefined || !/^\d{1,15}$/.test(raw.trim()) || Number(raw) < 1)
    throw new UsageError(`a case id is a whole number from 1, not '${raw ?? ''}'`, 'list them: recall-feed cases');
  return Number(raw);
}

function text(raw: string | undefined, flag: string): string | undefined {
  if (raw === undefined) return undefined;
  if (raw.trim() === '') throw new UsageError(`${flag} needs some text`);
  return raw.trim();
}

/** The statuses a step can act on, when a selection does not name them: resolve and wait act on unresolved cases. */
const STEP_FROM: Record<CaseStepPlan['step']['kind'], CaseStatus[]> = {
  resolve: ['open', 'waiting'],
  wait: ['open', 'waiting'],
  reopen: ['closed'],
};

export function planStep(
  kind: CaseStepPlan['step']['kind'],
  rawIds: readonly string[],
  opts: StepFlags & ListFlags & { dbSchema?: string },
  ctx: Context,
): CaseStepPlan {
  const outcome = kind === 'resolve' ? parseOneOf(opts.as, OUTCOMES, '--as') : undefined;
  if (kind === 'resolve' && outcome === undefined)
    throw new UsageError('resolve needs --as <outcome>', `one of: ${OUTCOMES.join(', ')}`);
  const selecting = SELECTION_FLAGS.filter((f) => opts[f] !== undefined);
  if (rawIds.length > 0 && selecting.length > 0)
    throw new UsageError(
      `give case ids or a selection (--${selecting[0]!.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}), not both`,
    );
  if (rawIds.length === 0 && selecting.length === 0)
    throw new UsageError(
      `${kind} needs case ids, or a selection such as --level possible`,
      `example: recall-feed cases ${kind} 12 13${kind === 'resolve' ? ' --as false-positive' : ''}`,
    );
  let select: CaseStepPlan['select'];
  if (rawIds.length === 0) {
    const list = planCasesList({ ...opts, formulaGuard: true });
    const query = opts.status === undefined ? { ...list.query, statuses: STEP_FROM[kind] } : list.query;
    dueOnlyOpen(opts, query.statuses);
    select = { query, filter: list.filter, due: list.due };
  }
  return {
    db: parseDb(opts),
    ids: rawIds.length > 0 ? parseCaseIds(rawIds) : undefined,
    select,
    step: outcome !== undefined ? { kind: 'resolve', outcome } : { kind: kind as 'wait' | 'reopen' },
    note: text(opts.note, '--note') ?? null,
    by: text(opts.by, '--by') ?? osUser(ctx),
    yes: opts.yes ?? false,
  };
}

/** A step of a case (resolve, wait, reopen) and its own flags. */
function declareStep(cases: ReturnType<typeof declareCases>, name: 'resolve' | 'wait' | 'reopen', description: string) {
  return cases
    .command(name)
    .description(description)
    .argument(
      '[ids...]',
      'the case ids; or none, and the selection flags of `cases` (--level, --status, --severity...)',
    )
    .option('--note <text>', 'why, and the evidence (a supplier reference, a test report)')
    .option('--by <name>', 'who acts (default: the OS user name)')
    .option('--yes', 'act on several cases without asking first (a terminal asks)');
}

/**
 * Runs a step. Its globals hold the `cases` options (the selection, --db, --db-schema), given before or
 * after the subcommand: the parent command holds them.
 */
/** What a `cases` subcommand opens: its output (in the formats it declares) and the archive, to read or to write. */
function caseUses(db: DbChoice, mode: 'read' | 'write', command: CommandUnknownOpts) {
  return withWrites({ output: {}, archive: { db, mode } }, command);
}

function runStepOf(name: 'resolve' | 'wait' | 'reopen') {
  return async (
    opts: StepFlags,
    globals: ListFlags & GlobalFlags,
    c: Context,
    args: string[],
    command: CommandUnknownOpts,
  ) => {
    const plan = planStep(name, args, { ...globals, ...opts }, c);
    const { runStep } = await import('../../jobs/cases/act.js');
    await inSession(globals, c, caseUses(plan.db, 'write', command), (s) => runStep(plan, s));
  };
}

/** The `cases` command and its selection flags. */
function declareCases(cmd: NewCommand) {
  return addDbOption(
    addCaseFilters(
      cmd
        .option('--status <list>', 'open (unresolved: waiting ones too), waiting, closed or all (default: open)')
        .option('--level <list>', 'match, possible')
        .option('--overdue', 'only open and waiting cases past their due time (see match --open-cases --sla)')
        .option('--due-soon', 'only open and waiting cases due by the end of the next working day (UTC), overdue too')
        .option('--no-formula-guard', "csv: do not prefix cells starting with = + - @ with '")
        .option('--bom', 'csv: start the file with a UTF-8 byte-order mark (Excel)'),
    ),
  );
}

const CASES_HELP = `
Cases are opened by \`recall-feed match --catalog <file> --archive --open-cases\`, one per (catalogue
row, recall) pair. Every step is an event on the case's timeline, hash-chained: \`cases verify\` finds an
edited or removed event. A sync that stores a new version of a recall reopens its closed cases.

Outcomes (resolve --as): ${OUTCOMES.join(', ')}.

Examples:
  recall-feed cases                                   unresolved cases: open and waiting
  recall-feed cases --status waiting                  only those waiting for a supplier or a test
  recall-feed cases --status all -f csv -o cases.csv
  recall-feed cases show 12
  recall-feed cases resolve 12 --as removed-from-sale --note "pulled from 14 stores, ticket 5531"
  recall-feed cases wait 13 --note "asked the supplier for the lot numbers"
  recall-feed cases resolve 14 15 16 --as not-our-product --note "other model, checked the labels"
  recall-feed cases resolve --level possible --severity low --as false-positive --yes
  recall-feed cases --overdue                          open and waiting cases past their due time
  recall-feed cases --due-soon                         and those due by the end of the next working day
  recall-feed cases verify

Several ids, or a selection (the record filters, --level, --status; resolve and wait take the unresolved
cases, reopen the closed ones): one transaction, an event each. An unknown id, or a case the step does not
fit, refuses the whole step and changes nothing.`;

export default defineCommand({
  name: 'cases',
  summary: 'work through the matches: list cases, show, resolve, wait, reopen, verify the timeline',
  formats: { kind: 'record' },
  // A mistyped subcommand reaches the listing as a word: named, with the right ones, rather than "too many arguments".
  flags: (cmd) => declareCases(cmd).allowExcessArguments(true).addHelpText('after', CASES_HELP),
  plan: (opts, { args }) => {
    if (args.length > 0)
      throw new UsageError(
        `unknown cases subcommand '${args[0]}'`,
        'one of: show, resolve, wait, reopen, verify (or none, to list)',
      );
    return planCasesList(opts);
  },
  uses: (plan) => ({ output: {}, archive: { db: plan.db, mode: 'read' as const } }),
  run: async (plan, session) => (await import('../../jobs/cases/list-cases.js')).runCasesList(plan, session),
  subcommands: mountSteps,
});

/** show, resolve, wait, reopen and verify, under `cases`. */
function mountSteps(cases: ReturnType<typeof declareCases>, ctx: Context): void {
  // One case, a step or the chain's check: text, a JSON object or a csv row (no parquet).
  const one = ['table', 'jsonl', 'json', 'csv'];
  const show = refusesParentOptions(cases.command('show'), SELECTION_LONGS, 'it shows the cases named by id');
  writesFormats(show, 'record', one)
    .description('one case: its catalogue row, its recall and its whole timeline')
    .argument('<ids...>', 'the case ids')
    .action(
      action(ctx, async () => async (_opts, globals, c, args, command) => {
        const ids = parseCaseIds(args);
        const { runShowCase } = await import('../../jobs/cases/act.js');
        const plan = { db: parseDb(globals), ids };
        await inSession(globals, c, caseUses(plan.db, 'read', command), (s) => runShowCase(plan, s));
      }),
    );
  writesFormats(declareStep(cases, 'resolve', 'close a case with its outcome (--as)'), 'record', one)
    .requiredOption('--as <outcome>', OUTCOMES.join(', '))
    .action(action(ctx, async () => runStepOf('resolve')));
  writesFormats(
    declareStep(cases, 'wait', 'waiting for a supplier or a test: the case stays unresolved'),
    'record',
    one,
  ).action(action(ctx, async () => runStepOf('wait')));
  writesFormats(declareStep(cases, 'reopen', 'open a closed case again'), 'record', one).action(
    action(ctx, async () => runStepOf('reopen')),
  );
  const verify = refusesParentOptions(cases.command('verify'), SELECTION_LONGS, 'it checks the whole case log');
  writesFormats(verify, 'record', ['table', 'jsonl', 'json'])
    .description("check the timeline's hash chain: exit 12 naming the first edited or removed event")
    .action(
      action(ctx, async () => async (_opts, globals, c, _args, command) => {
        const { runVerify } = await import('../../jobs/cases/act.js');
        const db = parseDb(globals);
        await inSession(globals, c, caseUses(db, 'read', command), runVerify);
      }),
    );
}
