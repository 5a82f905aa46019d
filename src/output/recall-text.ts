// A recall (or a match row) as plain text for people: its title, facts and safe link, and dates as messages show them.
import { plainText } from './control-escapes.js';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `24 Nov`, in UTC as the API's timestamps are. */
export function shortDate(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
}

/** A field as one line of plain text: line breaks (a lone CR too) as spaces, hostile control characters gone. */
export function plain(record: Record<string, unknown>, name: string): string {
  const v = record[name];
  if (typeof v !== 'string' && typeof v !== 'number') return '';
  return plainText(String(v)).trim();
}

/** Longer links are left out: no notice needs one, and one could push a message past a service's limit. */
const MAX_LINK = 2000;

/** `v` as parsed when it is an http(s) URL; anything else (javascript:, data:) is never a link. */
export function safeUrl(v: unknown): string | undefined {
  if (typeof v !== 'string' || v.length > MAX_LINK || !/^https?:\/\//i.test(v)) return undefined;
  return URL.canParse(v) ? new URL(v).href : undefined;
}

/** The recall's link when it is an http(s) URL (safeUrl). */
export function safeLink(record: Record<string, unknown>): string | undefined {
  return safeUrl(record.source_url);
}

/** One fact of a recall: its label (none for a match row's level line and the id) and its value. */
export interface Fact {
  label?: string;
  value: string;
}

/**
 * Title, then severity, brand, source (and for a match row its level and catalogue line): `facts` as one line,
 * `list` one by one for a card that shows each apart (never split back out of the line: a value may hold ` · `).
 */
export function describeItem(item: Record<string, unknown>): {
  title: string;
  facts: string;
  list: Fact[];
  link?: string;
} {
  const id = plain(item, 'id') || plain(item, 'recall_id');
  const title = plain(item, 'alert_title') || plain(item, 'product_name') || `recall ${id}`;
  const list: Fact[] = [];
  if (item.level !== undefined) {
    list.push({
      value: `${plain(item, 'level')} (${plain(item, 'reason')}), catalogue line ${plain(item, 'catalog_line')}`,
    });
  }
  for (const [label, field] of [
    ['severity', 'risk_severity'],
    ['brand', 'product_brand'],
    ['source', 'data_source'],
  ] as const) {
    const value = plain(item, field);
    if (value !== '') list.push({ label, value });
  }
  if (id !== '') list.push({ value: `id ${id}` });
  const facts = list.map((f) => (f.label === undefined ? f.value : `${f.label}: ${f.value}`)).join(' · ');
  return { title, facts, list, link: safeLink(item) };
}
