// The report as CSV, for spreadsheets: one row per case with its last event, then one per pair excluded by lot or date
// (the csv renderer quotes and guards formulas).
import type { ExcludedRow, ReportCase } from './report-model.js';

export const REPORT_CSV_COLUMNS = [
  'case_id',
  'status',
  'outcome',
  'level',
  'reason',
  'recall_id',
  'alert_title',
  'catalog_key',
  'opened_at',
  'events',
  'last_event_at',
  'last_event',
  'last_event_by',
  'last_event_note',
  'risk_severity',
  'product_name',
  'due_at',
  'closed_at',
  'time_to_action_hours',
  // Added last, so the columns before keep their places: `case` rows, then `excluded` rows (no case_id).
  'entry',
  'scope_evidence',
  // Then the excluded row's own lot and date, and what the notice proved outside.
  'row_lot',
  'row_date',
  'excluded_on',
] as const;

export function reportCsvRow(c: ReportCase): Record<string, unknown> {
  const last = c.events.at(-1);
  return {
    case_id: c.id,
    status: c.status,
    outcome: c.outcome,
    level: c.level,
    reason: c.reason,
    recall_id: c.recall_id,
    alert_title: c.alert_title,
    catalog_key: c.catalog_key,
    opened_at: c.opened_at,
    events: c.events.length,
    last_event_at: last?.at ?? null,
    last_event: last?.action ?? null,
    last_event_by: last?.actor ?? null,
    last_event_note: last?.note ?? null,
    risk_severity: c.recall?.risk_severity ?? c.risk_severity,
    product_name: c.product_name,
    due_at: c.due_at,
    closed_at: c.closed_at,
    time_to_action_hours: c.time_to_action_hours,
    entry: 'case',
    scope_evidence: null,
    row_lot: null,
    row_date: null,
    excluded_on: null,
  };
}

/** A pair out of the notice's lots and dates: no case, level `excluded`, the notice's words in scope_evidence. */
export function reportCsvExcludedRow(x: ExcludedRow): Record<string, unknown> {
  return {
    level: 'excluded',
    reason: x.reason,
    recall_id: x.recall_id,
    alert_title: x.alert_title,
    catalog_key: x.catalog_key,
    risk_severity: x.risk_severity,
    product_name: x.product_name,
    entry: 'excluded',
    scope_evidence: x.scope_evidence,
    row_lot: x.row_lot,
    row_date: x.row_date,
    excluded_on: x.excluded_on,
  };
}
