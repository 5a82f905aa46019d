// The archive's views as the digest's and the report's renderers read them: plain data the jobs hand over (types only, no code).

/** Whether monitoring held over a period (the jobs compute it from the archive's sync runs). */
export interface MonitoringView {
  complete: boolean;
  runs: { ok: number; failed: number; interrupted: number };
  last_ok_sync: string | null;
  gaps: Array<{ from: string; to: string; hours: number }>;
  sources_missing: string[];
}

export type CaseStatusName = 'open' | 'waiting' | 'closed';

/** One event of a case's timeline, as the case log holds it. */
export interface CaseEventRow {
  seq: number;
  at: string;
  actor: string;
  action: string;
  status: CaseStatusName;
  outcome: string | null;
  note: string | null;
  hash: string;
}

/** A case as the archive reads it back: its row, its deadline and its timeline. */
export interface CaseRow {
  id: number;
  status: CaseStatusName;
  recall_id: number;
  level: string;
  reason: string;
  catalog_row: Record<string, string>;
  catalog_key: string;
  alert_title: string | null;
  opened_at: string;
  updated_at: string;
  outcome: string | null;
  /** When the case should be acted on (its SLA from the recall's published_at); null without one. */
  due_at: string | null;
  /** The SLA the due time came from (`2wd`, `24h`, `2wd:FR`). */
  sla: string | null;
  /** The recall's risk_severity as the archive holds it now; null when it does not hold the recall. */
  risk_severity: string | null;
  product_name: string | null;
  events: CaseEventRow[];
}
