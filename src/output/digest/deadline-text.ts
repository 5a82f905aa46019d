// The digest's deadlines as every format says them: the rows (what the digest's JSON holds) and their words.
import { groupDigits } from '../numbers.js';
import { plain } from '../recall-text.js';
import { shorten } from '../shorten.js';

const MINUTE_MS = 60_000;

/** One case with a deadline to watch (docs/digest.md, "Deadlines"). */
export interface DeadlineRow {
  state: 'overdue' | 'due-soon';
  case_id: number;
  status: string;
  level: string;
  /** How the case knows its catalogue row: `sku:KT-100`, or `line:3`. */
  catalog_key: string;
  product_name: string | null;
  recall_id: number;
  alert_title: string | null;
  risk_severity: string | null;
  due_at: string;
  sla: string | null;
  /** Hours from `as_of` to `due_at`, 2 decimals: negative when overdue (then how late it is). */
  hours_left: number;
}

export interface Deadlines {
  /** The time the deadlines were measured at: when the digest ran (its clock), not the period's end. */
  as_of: string;
  /** Cases due before this are due soon: 00:00 UTC after the next working day (Monday to Friday) after as_of's day. */
  due_soon_until: string;
  overdue: number;
  due_soon: number;
  /** Overdue first, then due soon; each by due time (the latest-overdue first), then level and severity. */
  cases: DeadlineRow[];
}

const clean = (v: unknown) => plain({ v }, 'v');

/** `sku KT-100 · Kettle Deluxe` (or `catalogue line 3`), as "your products" names a row. */
export function deadlineProduct(r: DeadlineRow): string {
  const at = r.catalog_key.indexOf(':');
  const column = r.catalog_key.slice(0, at);
  const value = r.catalog_key.slice(at + 1);
  const key = column === 'line' ? `catalogue line ${clean(value)}` : `${clean(column)} ${clean(value)}`;
  const name = clean(r.product_name);
  return shorten(name ? `${key} · ${name}` : key, 200);
}

export const deadlineTitle = (r: DeadlineRow) => shorten(clean(r.alert_title) || `recall ${r.recall_id}`, 300);

/** How every format labels a case's state. */
export const deadlineTag = (r: DeadlineRow) => (r.state === 'overdue' ? 'OVERDUE' : 'due soon');

/** `2 d 3 h`, `5 h 10 min`, `12 min`: whole minutes. */
function span(ms: number): string {
  const minutes = Math.floor(Math.abs(ms) / MINUTE_MS);
  const d = Math.floor(minutes / 1440);
  const h = Math.floor((minutes % 1440) / 60);
  const m = minutes % 60;
  if (d > 0) return `${d} d${h > 0 ? ` ${h} h` : ''}`;
  if (h > 0) return `${h} h${m > 0 ? ` ${m} min` : ''}`;
  return `${m} min`;
}

/** `OVERDUE by 3 h 20 min` or `due in 5 h 10 min`, to the minute from `asOf` (hours_left is rounded). */
export function deadlineWhen(r: DeadlineRow, asOf: string): string {
  const ms = Date.parse(r.due_at) - Date.parse(asOf);
  return r.state === 'overdue' ? `OVERDUE by ${span(ms)}` : `due in ${span(ms)}`;
}

/** `due 2026-01-20 18:00 UTC`: to the minute. */
export const dueText = (iso: string) => `due ${iso.slice(0, 16).replace('T', ' ')} UTC`;

/** `case 12 · serious · match · open · due 2026-01-20 18:00 UTC · OVERDUE by 3 h` */
export function deadlineFacts(r: DeadlineRow, asOf: string): string {
  return [
    `case ${r.case_id}`,
    clean(r.risk_severity) || 'severity not given',
    clean(r.level),
    clean(r.status),
    dueText(r.due_at),
    deadlineWhen(r, asOf),
  ].join(' · ');
}

/** The opening of the subject: `2 cases overdue, 1 due soon`; undefined when nothing is due. */
export function deadlinesPhrase(d: Deadlines | undefined): string | undefined {
  if (d === undefined || d.cases.length === 0) return undefined;
  const parts: string[] = [];
  if (d.overdue > 0) parts.push(`${groupDigits(d.overdue)} ${d.overdue === 1 ? 'case' : 'cases'} overdue`);
  if (d.due_soon > 0)
    parts.push(`${groupDigits(d.due_soon)} ${d.overdue > 0 ? '' : d.due_soon === 1 ? 'case ' : 'cases '}due soon`);
  return parts.join(', ');
}

/** The section's first line: what is late, what is due soon, and by when. */
export function deadlinesLine(d: Deadlines): string {
  const soon = `${groupDigits(d.due_soon)} due soon (before ${d.due_soon_until.slice(0, 16).replace('T', ' ')} UTC)`;
  return `Cases: ${groupDigits(d.overdue)} overdue, ${soon}, as of ${d.as_of.slice(0, 16).replace('T', ' ')} UTC.`;
}

const LIST_OVERDUE = 'recall-feed cases --overdue lists them';
const LIST_DUE = 'recall-feed cases --due-soon lists them';

/**
 * The note after a list cut to its budget, over the cases `left` out: how many, in which state, and the command that
 * lists them (`cases --overdue` the overdue; `cases --due-soon` the digest's whole list, overdue and due soon).
 */
export function deadlinesMore(left: readonly DeadlineRow[]): string {
  const overdue = left.filter((r) => r.state === 'overdue').length;
  const soon = left.length - overdue;
  const more = `… and ${groupDigits(left.length)} more ${left.length === 1 ? 'case' : 'cases'}`;
  if (soon === 0) return `${more} overdue: ${LIST_OVERDUE}`;
  if (overdue === 0) return `${more} due soon: ${LIST_DUE}`;
  return `${more} due (${groupDigits(overdue)} overdue, ${groupDigits(soon)} due soon): ${LIST_DUE}`;
}
