// A case as one line of text for an assistant: id, state, deadline, product and recall, hostile text made plain.
import { type CaseView, isOverdue } from '../../archive/cases-model.js';
import { stripControls } from '../../output/control-escapes.js';

export function caseLine(c: CaseView, nowMs: number): string {
  const due = c.due_at === null ? '' : `${isOverdue(c, nowMs) ? ' OVERDUE since' : ' due'} ${c.due_at}`;
  const product = stripControls(c.product_name ?? c.catalog_key).replace(/\s+/g, ' ');
  const title = stripControls(c.alert_title ?? '').replace(/\s+/g, ' ');
  return `- case ${c.id} [${c.status}${c.outcome ? `: ${c.outcome}` : ''}]${due} ${c.level}: ${product} ~ recall ${c.recall_id} ${title}`;
}
