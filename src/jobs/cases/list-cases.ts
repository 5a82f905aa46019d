// Runs `cases` (the listing): the cases asked for, with their timelines, through the chosen renderer.
import { dueSelector } from '../../archive/cases-model.js';
import type { CaseView } from '../../archive/index.js';
import { counted } from '../../output/numbers.js';
import type { ArchiveSession } from '../../runtime/session.js';
import { casesOrNone } from '../../runtime/archive/cases-or-none.js';
import { byLevelAndSeverity } from '../matching/case-order.js';
import { CASE_FIELDS, CASE_TABLE_COLUMNS, type CasesListPlan } from './plans.js';

/** A case as the machine formats carry it: the documented fields, in their order. */
export function caseRecord(c: CaseView): Record<string, unknown> {
  return Object.fromEntries(CASE_FIELDS.map((f) => [f, c[f]]));
}

/** `session`: with the output and the archive (read-only) the command declared. */
export async function runCasesList(plan: CasesListPlan, session: ArchiveSession): Promise<void> {
  const output = await session.output();
  const archive = session.store;
  let cases = await casesOrNone({ archive, status: session.status }, () => archive.cases(plan.query, plan.filter));
  cases = cases.filter(dueSelector(plan.due, session.ctx.now()));
  cases.sort(byLevelAndSeverity);
  // A table is read by people: the due time to the minute (`2026-03-31T16:00`, one word, so a narrow table keeps it
  // whole as it keeps the API's times), under `due_at (UTC)`, so that no one outside UTC reads it as their own time.
  const rows = output.format.forPeople
    ? cases.map((c) => ({ ...caseRecord(c), due_at: c.due_at ? c.due_at.slice(0, 16) : null }))
    : cases.map(caseRecord);
  const spec = {
    tableColumns: CASE_TABLE_COLUMNS,
    csvColumns: [...CASE_FIELDS],
    formulaGuard: plan.formulaGuard,
    bom: plan.bom,
    wholeHeaders: true,
  };
  await output.write((sink) => sink.rows(spec, rows));
  if (output.format.forPeople) session.status.note(`${counted(cases.length, 'case', 'cases')} in ${archive.name}`);
}
