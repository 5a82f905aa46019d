// Runs `cases show|resolve|wait|reopen|verify`: one case read or moved one step, or the whole log checked.
import type { ArchiveStore, CaseView } from '../../archive/index.js';
import { writing } from '../../runtime/archive/archive-file.js';
import type { RecordOutput } from '../../runtime/files/record-output.js';
import type { ArchiveSession } from '../../runtime/session.js';
import { caseText } from './case-text.js';
import { GENESIS } from '../../archive/cases-chain.js';
import { CasesNotKeptError } from '../../archive/cases-errors.js';
import { UsageError } from '../../runtime/cli-errors.js';
import { dueSelector } from '../../archive/cases-model.js';
import { casesOrNone } from '../../runtime/archive/cases-or-none.js';
import { caseRecord } from './list-cases.js';
import { confirm } from './confirm.js';
import { CASE_FIELDS, type CaseStepPlan } from './plans.js';

/** `session`: with the output and the archive (read-only: a read-only file or role will do) the command declared. */
export async function runShowCase(plan: { ids: number[] }, session: ArchiveSession): Promise<void> {
  const output = await session.output();
  const archive = session.store;
  // Every id is looked up first: an unknown one is refused before anything is printed.
  const found = [];
  for (const id of plan.ids) {
    const one = await archive.caseWithRecall(id).catch((err: unknown) => {
      if (!(err instanceof CasesNotKeptError)) throw err;
      throw new UsageError(
        `no case ${id}: ${archive.name} was written by an earlier recall-feed and holds no cases yet`,
        'cases are opened by recall-feed match --archive --open-cases',
      );
    });
    found.push(one);
  }
  await printCases(
    output,
    found.map((f) => ({ c: f.case, recall: f.recall })),
    found.length === 1,
  );
}

/**
 * Cases as text blocks on a terminal (or -f table), else one JSON object a line (jsonl), a JSON array (json) or csv
 * rows (as `cases -f csv` writes them, formula guard on). `one`: a single case named by id, whose json is the object
 * itself rather than an array of one. `recall`: undefined or an object adds a `recall` field; null leaves it out.
 */
async function printCases(
  output: RecordOutput,
  list: { c: CaseView; recall: Record<string, unknown> | undefined | null }[],
  one = false,
): Promise<void> {
  const json = list.map(({ c, recall }) =>
    recall === null ? caseRecord(c) : { ...caseRecord(c), recall: recall ?? null },
  );
  const columns = [...CASE_FIELDS];
  await output.write((sink) =>
    sink.document({
      people: () => list.map(({ c, recall }) => caseText(c, recall ?? undefined, recall !== null)).join('\n'),
      whole: one ? json[0] : json,
      items: json,
      rows: { spec: { tableColumns: columns, csvColumns: columns }, rows: list.map(({ c }) => caseRecord(c)) },
    }),
  );
}

/** The ids a step acts on: those given, or every case the selection finds. */
async function stepIds(plan: CaseStepPlan, archive: ArchiveStore, nowMs: number): Promise<number[]> {
  if (plan.ids) return plan.ids;
  const select = plan.select ?? { query: { statuses: [] }, filter: {}, due: {} };
  const chosen = await archive.cases(select.query, select.filter);
  return chosen.filter(dueSelector(select.due, nowMs)).map((c) => c.id);
}

function stepWords(plan: CaseStepPlan): string {
  return plan.step.kind === 'resolve' ? `resolve as ${plan.step.outcome}` : plan.step.kind;
}

/** `session`: with the output and the archive (for writing) the command declared: a bad -f is refused before any case moves. */
export async function runStep(plan: CaseStepPlan, session: ArchiveSession): Promise<void> {
  const { ctx } = session;
  const output = await session.output();
  const archive = session.store;
  const ids = await stepIds(plan, archive, ctx.now());
  if (ids.length === 0) {
    session.status.note('no case fits the selection: nothing changed');
    return;
  }
  // A bulk step asks first on a terminal (stdin and stderr), unless --yes; off a terminal it is what was asked.
  const asks = ids.length > 1 && !plan.yes && session.terminal.stderrIsTTY && ctx.stdin.isTTY === true;
  if (asks) {
    const shown = ids.length > 12 ? `${ids.slice(0, 12).join(', ')} and ${ids.length - 12} more` : ids.join(', ');
    if (!(await confirm(ctx, `${stepWords(plan)} ${ids.length} cases (${shown})?`))) {
      session.status.note('nothing changed');
      return;
    }
  }
  const by = { at: new Date(ctx.now()).toISOString(), actor: plan.by, note: plan.note };
  const after = await writing(archive.name, () => archive.stepCases(ids, plan.step, by));
  await printCases(
    output,
    after.map((c) => ({ c, recall: null })),
    after.length === 1 && plan.ids !== undefined,
  );
  if (after.length > 1) session.status.note(`${after.length} cases: ${stepWords(plan)}`);
}

/** `session`: with the output and the archive (read-only) the command declared. */
export async function runVerify(session: ArchiveSession): Promise<void> {
  const output = await session.output();
  const archive = session.store;
  const [check = { events: 0, cases: 0, head: GENESIS, broken: undefined }] = await casesOrNone(
    { archive, status: session.status },
    async () => [await archive.verifyCases()],
  );
  const result = {
    ok: check.broken === undefined,
    cases: check.cases,
    events: check.events,
    head: check.head,
    broken: check.broken
      ? { seq: check.broken.seq, case_id: check.broken.caseId ?? null, problem: check.broken.problem }
      : null,
  };
  // People read a broken log in the error alone; programs get the result either way.
  if (!(check.broken && output.format.forPeople))
    await output.write((sink) =>
      sink.document({
        people: () => `ok: ${check.events} events on ${check.cases} cases, every hash in place\nhead ${check.head}\n`,
        whole: result,
        items: [result],
      }),
    );
  if (check.broken) {
    const { CaseLogBrokenError } = await import('../../archive/cases-errors.js');
    throw new CaseLogBrokenError(`the case log is broken at event ${check.broken.seq}: ${check.broken.problem}`);
  }
}
