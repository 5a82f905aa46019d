// The digest's deadlines: open and waiting cases that are overdue or due soon (by the end of the next working day), as every format opens with them.
import type { CaseView } from '../../archive/cases-model.js';
import { dueSoonUntil, isOverdue } from '../../archive/cases-model.js';
import type { DeadlineRow, Deadlines } from '../../output/digest/deadline-text.js';
import { byLevelAndSeverity } from '../matching/case-order.js';

const HOUR_MS = 3_600_000;

/** The open and waiting cases due before `dueSoonUntil(nowMs)`, overdue first; closed cases and cases without a due time never. */
export function deadlinesOf(cases: readonly CaseView[], nowMs: number): Deadlines {
  const until = dueSoonUntil(nowMs);
  const rows = cases
    .filter((c) => isOverdue(c, until))
    .sort((a, b) => Date.parse(a.due_at ?? '') - Date.parse(b.due_at ?? '') || byLevelAndSeverity(a, b))
    .map(
      (c): DeadlineRow => ({
        state: isOverdue(c, nowMs) ? 'overdue' : 'due-soon',
        case_id: c.id,
        status: c.status,
        level: c.level,
        catalog_key: c.catalog_key,
        product_name: c.product_name,
        recall_id: c.recall_id,
        alert_title: c.alert_title,
        risk_severity: c.risk_severity,
        due_at: c.due_at as string,
        sla: c.sla,
        hours_left: Math.round(((Date.parse(c.due_at as string) - nowMs) / HOUR_MS) * 100) / 100,
      }),
    );
  const overdue = rows.filter((r) => r.state === 'overdue').length;
  return {
    as_of: new Date(nowMs).toISOString(),
    due_soon_until: new Date(until).toISOString(),
    overdue,
    due_soon: rows.length - overdue,
    cases: rows,
  };
}
