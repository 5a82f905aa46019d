// The alert e-mail of one poll or run: a subject with the count and the worst severity, a text part and an HTML part.
import { escapeHtml } from '../output/markup.js';
import { describeItem, shortDate } from '../output/recall-text.js';
import { bySeverity, worstSeverity } from '../output/severity-order.js';

export interface MailContent {
  subject: string;
  text: string;
  html: string;
}

/** What an alert lists: the recalls written (`feed`), or match rows (`match --watch`). */
export type AlertKind = 'recalls' | 'matches';

/** `37 new (5 serious)` / `3 catalogue matches (1 high)`. */
export function countLine(items: readonly Record<string, unknown>[], kind: AlertKind): string {
  const worst = worstSeverity(items);
  const n = items.length;
  const what = kind === 'recalls' ? `${n} new` : `${n} catalogue ${n === 1 ? 'match' : 'matches'}`;
  return worst ? `${what} (${worst.count} ${worst.severity})` : what;
}

export function itemsText(items: readonly Record<string, unknown>[]): string {
  return items
    .map((item) => {
      const d = describeItem(item);
      return [`* ${d.title}`, d.facts && `  ${d.facts}`, d.link && `  ${d.link}`].filter(Boolean).join('\n');
    })
    .join('\n\n');
}

export function itemsHtml(items: readonly Record<string, unknown>[]): string {
  const rows = items.map((item) => {
    const d = describeItem(item);
    const title = d.link
      ? `<a href="${escapeHtml(d.link)}">${escapeHtml(d.title)}</a>`
      : `<strong>${escapeHtml(d.title)}</strong>`;
    return `<li style="margin:0 0 10px 0">${title}<br><span style="color:#555">${escapeHtml(d.facts)}</span></li>`;
  });
  return `<ul style="padding-left:18px">${rows.join('')}</ul>`;
}

/** One alert for everything a poll wrote, worst severity first. */
export function alertMail(records: readonly Record<string, unknown>[], kind: AlertKind, nowMs: number): MailContent {
  const items = [...records].sort(bySeverity);
  const counted = countLine(items, kind);
  const subject = `${kind === 'recalls' ? 'Recalls' : 'Recall matches'} ${shortDate(nowMs)}: ${counted}`;
  const intro =
    kind === 'recalls'
      ? 'New recalls found by recall-feed, worst severity first.'
      : 'Catalogue rows that matched new recalls, worst severity first. A row is a lead to check, not a verdict.';
  const text = `${subject}\n\n${intro}\n\n${itemsText(items)}\n`;
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body style="font-family:sans-serif;font-size:14px"><h2 style="font-size:18px">${escapeHtml(subject)}</h2><p>${escapeHtml(intro)}</p>${itemsHtml(items)}</body></html>`;
  return { subject, text, html };
}
