// The alert e-mail of one poll or run: a subject with the count and the worst severity, a text part and an HTML part.
import { escapeHtml } from '../output/markup.js';
import { describeItem, shortDate } from '../output/recall-text.js';
import { bySeverity, worstSeverity } from '../output/severity-order.js';
import { shorten } from '../output/shorten.js';
// The Teams card's longest title and fact: a hostile or runaway field can neither crowd out the rest nor make the
// message too large for the server.
import { MAX_FACT, MAX_TITLE } from '../output/teams-card.js';
import type { Change } from './action.js';

export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

/** What an alert lists: the recalls written (`feed`), or match rows (`match --watch`). */
export type AlertKind = 'recalls' | 'matches';

/** A recall (or match row) as the alert lists it: its words, shortened, and whether it is a new version of one. */
interface AlertItem {
  title: string;
  facts: string;
  link?: string;
  updated: boolean;
}

function alertItem(record: Record<string, unknown>, change: Change | undefined): AlertItem {
  const d = describeItem(record);
  const facts = d.list
    .map((f) => (f.label === undefined ? shorten(f.value, MAX_FACT) : `${f.label}: ${shorten(f.value, MAX_FACT)}`))
    .join(' · ');
  return { title: shorten(d.title, MAX_TITLE), facts, link: d.link, updated: change === 'update' };
}

/** `37 new (5 serious)`, `1 new, 2 updated (1 high)` / `3 catalogue matches (1 high)`. */
export function countLine(
  items: readonly Record<string, unknown>[],
  kind: AlertKind,
  changes: readonly (Change | undefined)[] = [],
): string {
  const worst = worstSeverity(items);
  const n = items.length;
  const updated = changes.filter((c) => c === 'update').length;
  const what =
    kind === 'matches'
      ? `${n} catalogue ${n === 1 ? 'match' : 'matches'}`
      : updated > 0
        ? `${n - updated} new, ${updated} updated`
        : `${n} new`;
  return worst ? `${what} (${worst.count} ${worst.severity})` : what;
}

function itemsText(items: readonly AlertItem[]): string {
  return items
    .map((d) =>
      [`* ${d.updated ? 'Updated: ' : ''}${d.title}`, d.facts && `  ${d.facts}`, d.link && `  ${d.link}`]
        .filter(Boolean)
        .join('\n'),
    )
    .join('\n\n');
}

function itemsHtml(items: readonly AlertItem[]): string {
  const rows = items.map((d) => {
    const title = d.link
      ? `<a href="${escapeHtml(d.link)}">${escapeHtml(d.title)}</a>`
      : `<strong>${escapeHtml(d.title)}</strong>`;
    const mark = d.updated ? '<em>Updated:</em> ' : '';
    return `<li style="margin:0 0 10px 0">${mark}${title}<br><span style="color:#555">${escapeHtml(d.facts)}</span></li>`;
  });
  return `<ul style="padding-left:18px">${rows.join('')}</ul>`;
}

function introOf(kind: AlertKind, updated: number, all: number): string {
  if (kind === 'matches')
    return 'Catalogue rows that matched new recalls, worst severity first. A row is a lead to check, not a verdict.';
  if (updated === 0) return 'New recalls found by recall-feed, worst severity first.';
  const which = updated === all ? 'Updated recalls' : 'New and updated recalls';
  return `${which} found by recall-feed, worst severity first. An updated recall is a new version of one already stored.`;
}

/**
 * One alert for everything a poll wrote, worst severity first. `changes` (sync --on-update) says, record by record,
 * whether it is new or a new version of a recall already stored; without it, all are new.
 */
export function alertMail(
  records: readonly Record<string, unknown>[],
  kind: AlertKind,
  nowMs: number,
  changes: readonly (Change | undefined)[] = [],
): MailContent {
  const order = records
    .map((record, i) => ({ record, change: kind === 'recalls' ? changes[i] : undefined }))
    .sort((a, b) => bySeverity(a.record, b.record));
  const items = order.map((o) => alertItem(o.record, o.change));
  const counted = countLine(
    order.map((o) => o.record),
    kind,
    order.map((o) => o.change),
  );
  const subject = `${kind === 'recalls' ? 'Recalls' : 'Recall matches'} ${shortDate(nowMs)}: ${counted}`;
  const intro = introOf(kind, items.filter((i) => i.updated).length, items.length);
  const text = `${subject}\n\n${intro}\n\n${itemsText(items)}\n`;
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body style="font-family:sans-serif;font-size:14px"><h2 style="font-size:18px">${escapeHtml(subject)}</h2><p>${escapeHtml(intro)}</p>${itemsHtml(items)}</body></html>`;
  return { subject, text, html };
}
