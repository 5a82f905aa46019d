// Runs `cases` (the listing): the cases asked for, with their timelines, through the chosen renderer.
import { isOverdue } from '../../archive/cases-model.js';
import type { CaseView } from '../../archive/index.js';
import { counted } from '../../output/numbers.js';
import { openLocal, readArchive } from '../../runtime/archive/local-session.js';
import type { Context } from '../../runtime/context.js';
import { chooseFormat, openTarget, reachesTerminal } from '../../runtime/files/output-target.js';
import { writeOutput } from '../../runtime/files/write-output.js';
import type { GlobalFlags } from '../../runtime/settings.js';
import { casesOrNone } from '../../runtime/archive/cases-or-none.js';
import { byLevelAndSeverity } from '../matching/case-order.js';
import { CASE_FIELDS, CASE_TABLE_COLUMNS, type CasesListPlan } from './plans.js';

/** A case as the machine formats carry it: the documented fields, in their order. */
export function caseRecord(c: CaseView): Record<string, unknown> {
  return Object.fromEntries(CASE_FIELDS.map((f) => [f, c[f]]));
}

export async function runCasesList(plan: CasesListPlan, globals: GlobalFlags, ctx: Context): Promise<void> {
  const local = await openLocal(globals, ctx, plan.db);
  const format = chooseFormat(local.settings, local.terminal);
  const archive = await readArchive(local);
  let cases: CaseView[];
  try {
    cases = await casesOrNone(local, () => archive.cases(plan.query, plan.filter));
  } finally {
    await archive.close();
  }
  if (plan.overdue) {
    const now = ctx.now();
    cases = cases.filter((c) => isOverdue(c, now));
  }
  cases.sort(byLevelAndSeverity);
  await writeOutput(
    () => openTarget(local.settings, ctx),
    async (target) => {
      const { createRenderer } = await import('../../output/renderer.js');
      const renderer = createRenderer({
        format,
        out: target.stream,
        tableColumns: CASE_TABLE_COLUMNS,
        csvColumns: [...CASE_FIELDS],
        formulaGuard: plan.formulaGuard,
        bom: plan.bom,
        width: local.terminal.columns,
        wholeHeaders: true,
        color: local.terminal.color,
        toTerminal: reachesTerminal(target, local.terminal),
      });
      // A table is read by people: the due time to the minute (UTC), so it fits beside the others.
      const rows =
        format === 'table'
          ? cases.map((c) => ({ ...caseRecord(c), due_at: c.due_at ? c.due_at.slice(0, 16).replace('T', ' ') : null }))
          : cases.map(caseRecord);
      await renderer.write(rows);
      await renderer.end();
    },
  );
  if (format === 'table') local.status.note(`${counted(cases.length, 'case', 'cases')} in ${local.archive.name}`);
}
