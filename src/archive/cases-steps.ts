// The engine-neutral halves of the case store: a stored row as the CLI sees it, and which step a status allows.
import { CaseStepError } from './cases-errors.js';
import type { CaseAction, CaseEventView, CaseRow, CaseStatus, CaseStep, CaseView, Outcome } from './cases-model.js';

export function caseView(row: CaseRow, events: CaseEventView[]): CaseView {
  return {
    id: row.id,
    status: row.status as CaseStatus,
    recall_id: row.recall_id,
    level: row.level,
    reason: row.reason,
    catalog_row: JSON.parse(row.catalog_row) as Record<string, string>,
    catalog_key: row.catalog_key,
    alert_title: row.alert_title,
    opened_at: row.opened_at,
    updated_at: row.updated_at,
    outcome: row.outcome as Outcome | null,
    events,
  };
}

/** The event columns a listing reads, over `case_events e`. */
export const EVENT_COLUMNS = 'e.case_id, e.seq, e.at, e.actor, e.action, e.status, e.outcome, e.note, e.hash';

/** Events in (case_id, seq) order, grouped by case. */
export function eventsByCase(rows: Iterable<CaseEventView & { case_id: number }>): Map<number, CaseEventView[]> {
  const byCase = new Map<number, CaseEventView[]>();
  for (const { case_id, ...e } of rows) {
    const list = byCase.get(case_id);
    if (list) list.push(e);
    else byCase.set(case_id, [e]);
  }
  return byCase;
}

/** The event a step records, checked against the case's status (read inside the write transaction). */
export function stepFields(
  id: number,
  row: { status: CaseStatus; outcome: string | null },
  step: CaseStep,
): { action: CaseAction; status: CaseStatus; outcome: Outcome | null } {
  if (step.kind === 'reopen' && row.status !== 'closed')
    throw new CaseStepError(`case ${id} is ${row.status}, not closed: there is nothing to reopen`);
  if (step.kind !== 'reopen' && row.status === 'closed')
    throw new CaseStepError(
      `case ${id} is closed (${row.outcome ?? 'no outcome'})`,
      `reopen it first: recall-feed cases reopen ${id} --note <why>`,
    );
  return step.kind === 'resolve'
    ? { action: 'resolved', status: 'closed', outcome: step.outcome }
    : step.kind === 'wait'
      ? { action: 'waiting', status: 'waiting', outcome: null }
      : { action: 'reopened', status: 'open', outcome: null };
}
