// A case as text for a terminal: what it is about, its recall, and its timeline, one event a line (notes below).
import type { CaseView } from '../../archive/index.js';
import { cleanForTerminal } from '../../output/terminal-cells.js';

const RECALL_LINES = ['risk_severity', 'alert_status', 'data_source', 'published_at', 'updated_at'] as const;

const clean = (v: unknown) => cleanForTerminal(v === null || v === undefined ? '' : String(v));

function statusText(c: Pick<CaseView, 'status' | 'outcome'>): string {
  return c.outcome ? `${clean(c.status)} (${clean(c.outcome)})` : clean(c.status);
}

export function caseText(c: CaseView, recall: Record<string, unknown> | undefined, withRecall: boolean): string {
  // Every value was read from the archive, which anyone with write access may have edited: all of it is cleaned.
  const due = c.due_at ? ` · due ${clean(c.due_at)}${c.sla ? ` (${clean(c.sla)})` : ''}` : '';
  const lines = [
    `case ${clean(c.id)} · ${statusText(c)} · ${clean(c.level)}/${clean(c.reason)} · opened ${clean(c.opened_at)}${due}`,
  ];
  lines.push(`recall ${clean(c.recall_id)} · ${clean(recall?.alert_title ?? c.alert_title)}`);
  if (withRecall) {
    if (recall) {
      const facts = RECALL_LINES.filter((f) => recall[f] !== undefined && recall[f] !== null).map(
        (f) => `${f.replace('_', ' ')}: ${clean(recall[f])}`,
      );
      lines.push(`  ${facts.join(' · ')}`);
      if (typeof recall.source_url === 'string') lines.push(`  ${clean(recall.source_url)}`);
    } else {
      lines.push('  (not in the archive: run `recall-feed sync` to keep it)');
    }
  }
  lines.push(`catalogue row ${clean(c.catalog_key)}${c.product_name ? ` · ${clean(c.product_name)}` : ''}`);
  for (const [k, v] of Object.entries(c.catalog_row)) if (v !== '') lines.push(`  ${clean(k)}: ${clean(v)}`);
  lines.push('timeline');
  for (const e of c.events) {
    const outcome = e.outcome && e.action === 'resolved' ? ` ${clean(e.outcome)}` : '';
    lines.push(
      `  ${clean(e.seq)}. ${clean(e.at)}  ${clean(e.action)}${outcome} · ${clean(e.status)} · by ${clean(e.actor)}`,
    );
    if (e.note) lines.push(`     ${clean(e.note)}`);
  }
  return `${lines.join('\n')}\n`;
}
