// The engine-neutral halves of the case store: a stored row as the CLI sees it, and which step a status allows.
import { parseOpenedDetail } from './cases-chain.js';
import { CaseStepError } from './cases-errors.js';
import type {
  CaseAction,
  CaseEventView,
  CaseRow,
  CaseStatus,
  CaseStep,
  CaseView,
  OpenedDetail,
  Outcome,
} from './cases-model.js';

/** A catalogue column whose name says it names the product, for cases opened before the name was kept. */
const NAME_LIKE = ['name', 'product_name', 'title', 'product', 'libelle', 'libellé', 'description'];

function guessName(row: Record<string, string>): string | null {
  for (const want of NAME_LIKE) {
    const key = Object.keys(row).find((k) => k.trim().toLowerCase() === want);
    if (key !== undefined && row[key]?.trim()) return row[key].trim();
  }
  return null;
}

function severityOf(recallRaw: string | null | undefined): string | null {
  if (!recallRaw) return null;
  try {
    const s = (JSON.parse(recallRaw) as Record<string, unknown>).risk_severity;
    return typeof s === 'string' ? s : null;
  } catch {
    return null;
  }
}

/**
 * A stored case as the CLI sees it. Its times come from its events and its title from its opened event when that
 * holds one (the chain covers them), so an edit of the cases row never reaches a listing or a report.
 */
export function caseView(row: CaseRow & { recall_raw?: string | null }, timeline: CaseTimeline | undefined): CaseView {
  const events = timeline?.events ?? [];
  const d = timeline?.opened;
  const catalogRow = JSON.parse(row.catalog_row) as Record<string, string>;
  return {
    id: row.id,
    status: row.status as CaseStatus,
    recall_id: row.recall_id,
    level: row.level,
    reason: row.reason,
    catalog_row: catalogRow,
    catalog_key: row.catalog_key,
    alert_title: d && 'alert_title' in d ? (d.alert_title ?? null) : row.alert_title,
    opened_at: events[0]?.at ?? row.opened_at,
    updated_at: events.at(-1)?.at ?? row.updated_at,
    outcome: row.outcome as Outcome | null,
    due_at: d?.due_at ?? null,
    sla: d?.sla ?? null,
    risk_severity: severityOf(row.recall_raw),
    product_name: d?.product_name ?? guessName(catalogRow),
    events,
  };
}

/** The event columns a listing reads, over `case_events e` (detail only to read the opened event's). */
export const EVENT_COLUMNS = 'e.case_id, e.seq, e.at, e.actor, e.action, e.status, e.outcome, e.note, e.hash, e.detail';

/** A case's events, and what its opened event says it was opened on. */
export interface CaseTimeline {
  events: CaseEventView[];
  opened: OpenedDetail | undefined;
}

/** Events in (case_id, seq) order, grouped by case. */
export function eventsByCase(
  rows: Iterable<CaseEventView & { case_id: number; detail?: string | null }>,
): Map<number, CaseTimeline> {
  const byCase = new Map<number, CaseTimeline>();
  for (const { case_id, detail, ...e } of rows) {
    const timeline = byCase.get(case_id);
    if (timeline) timeline.events.push(e);
    else
      byCase.set(case_id, {
        events: [e],
        opened: e.action === 'opened' ? parseOpenedDetail(detail ?? null) : undefined,
      });
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
