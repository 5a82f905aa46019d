// Words the report formats share: headings, the catalogue and health facts as label/value pairs, a case's title.
import type { ExcludedRow, ReportCase, ReportData, UncasedMatch, VerifyRow } from './report-model.js';
import { minute, readable } from './report-times.js';
import { safeUrl } from '../recall-text.js';

export { readable } from './report-times.js';

export const CHAIN_NOTE =
  "Each event carries a sha256 hash over its content and the previous event's hash, so an event edited or removed in the archive after this report breaks the chain from there on. It is not a signature: whoever can write the archive can rebuild a whole chain. Keep this report (and the head hash) to compare with later.";

export function periodText(d: ReportData): string {
  return `${d.period.since ? readable(d.period.since) : 'the beginning of the archive'} to ${readable(d.period.until)}`;
}

/** Hours as people read them: `5.5 h`, `2 d 3 h` from two days on. */
export function hoursText(h: number | null): string {
  if (h === null) return '';
  if (Math.abs(h) < 48) return `${Math.round(h * 10) / 10} h`;
  const days = Math.floor(h / 24);
  return `${days} d ${Math.round(h - days * 24)} h`;
}

/** The summary table's header, in its order. */
export const SUMMARY_HEADER = [
  'Case',
  'Product',
  'Recall',
  'Severity',
  'Level',
  'Status',
  'Outcome',
  'Opened',
  'Due',
  'Closed',
  'Time to action',
] as const;

/** One summary row per case, as text cells (each escaped by the format). */
export function summaryRow(c: ReportCase): string[] {
  return [
    String(c.id),
    productText(c.catalog_key, c.product_name),
    String(c.recall_id),
    c.recall?.risk_severity ?? c.risk_severity ?? '',
    c.level,
    c.status,
    c.outcome ?? '',
    minute(c.opened_at),
    minute(c.due_at),
    minute(c.closed_at),
    hoursText(c.time_to_action_hours),
  ];
}

export function productText(key: string, name: string | null): string {
  return name ? `${key} · ${name}` : key;
}

/** The time-to-action facts, like the Product Safety Pledge's KPI: the share closed within the deadline first. */
export function timeFacts(d: ReportData): Array<[string, string]> {
  const t = d.summary.time_to_action;
  const share =
    t.share_within_sla === null ? 'no case with a due time' : `${Math.round(t.share_within_sla * 1000) / 10}%`;
  return [
    ['Closed within the deadline (SLA)', `${share} (${t.closed_within_sla} of ${t.with_due} cases with a due time)`],
    ['Median time to action', t.median_hours === null ? 'no case closed' : hoursText(t.median_hours)],
    ['90th percentile', t.p90_hours === null ? 'no case closed' : hoursText(t.p90_hours)],
    ['Cases closed', String(t.closed)],
    ['Open or waiting past their due time', String(d.summary.overdue)],
  ];
}

export function provenanceFacts(d: ReportData): Array<[string, string]> {
  const p = d.provenance;
  return [
    ['Tool', `${p.tool} ${p.version}`],
    ['Archive', p.archive],
    ['Catalogue', p.catalogue ? `${p.catalogue.file} (sha256 ${p.catalogue.sha256})` : 'not given'],
    ['Chain head', p.chain_head ?? 'none: the case log is broken (see Timeline integrity)'],
  ];
}

export function uncasedRow(m: UncasedMatch): string[] {
  return [
    productText(m.catalog_key, m.product_name),
    String(m.line),
    `${m.level}/${m.reason}`,
    String(m.recall_id),
    m.risk_severity ?? '',
    m.alert_title ?? '',
  ];
}

export const UNCASED_HEADER = ['Product', 'Line', 'Match', 'Recall', 'Severity', 'Title'] as const;

/** The section of pairs out of the notice's lots and dates: never matches, listed as the proof nothing was over-pulled. */
export const EXCLUDED_HEADING = 'Excluded by lot or date';

export const EXCLUDED_NOTE =
  "The matcher found these pairs, but the notice's lots or dates, read whole, leave this row's out under every reading (both date orders, every form of the lot): not a match, no case owed. The notice's own words and the row's values are quoted.";

export const EXCLUDED_HEADER = [
  'Product',
  'Line',
  'Found by',
  'Recall',
  'Severity',
  'Title',
  'Row lot',
  'Row date',
  'Excluded on',
  'Notice says',
] as const;

export function excludedRow(x: ExcludedRow): string[] {
  return [
    productText(x.catalog_key, x.product_name),
    String(x.line),
    x.reason,
    String(x.recall_id),
    x.risk_severity ?? '',
    x.alert_title ?? '',
    x.row_lot ?? '',
    x.row_date ?? '',
    x.excluded_on,
    x.scope_evidence,
  ];
}

/** The section of pairs whose lot or date the notice's scope could not settle. */
export const VERIFY_HEADING = 'To verify: lot or date';
export const VERIFY_NOTE =
  "The notice names a scope these rows could not be proved in or out of: check the lot or date on the shelf. The notice's words are quoted.";
export const VERIFY_HEADER = ['Product', 'Line', 'Level', 'Recall', 'Title', 'Row lot', 'Row date', 'Check'] as const;

export function verifyRow(x: VerifyRow): string[] {
  return [
    productText(x.catalog_key, x.product_name),
    String(x.line),
    x.level,
    String(x.recall_id),
    x.alert_title ?? '',
    x.row_lot ?? '',
    x.row_date ?? '',
    x.verify,
  ];
}

export function catalogueFacts(d: ReportData): Array<[string, string]> {
  const c = d.coverage.catalogue;
  if (!c) return [['Catalogue', 'not given (--catalog): rows are not counted']];
  return [
    ['Catalogue', c.file],
    ['Rows checked', String(c.rows)],
    ['Rows with a usable identifier (barcode, model, or brand and name)', String(c.with_identifier)],
    ['Rows without one (never matchable)', String(c.without_identifier)],
    [
      'Rows whose identifier was refused (not counted usable)',
      c.refused.length === 0
        ? 'none'
        : c.refused.map((r) => `line ${r.line} (${r.catalog_key}): '${r.value}' ${r.reason}`).join('; '),
    ],
    ['Rows known by', c.key_column ?? 'line number (no key column)'],
    ['Rows with a case', String(c.rows_with_cases)],
    ['Rows the archive matches now (this report ran the matcher)', String(c.rows_matching)],
    ['Levels cases are opened at', c.case_levels === null ? 'not recorded (every level)' : c.case_levels.join(', ')],
    ['Matches without a case', String(c.matches_without_case.length)],
    [notOpenedHeading(d), String(c.not_opened.length)],
    ['Excluded by lot or date (not matches)', String(c.excluded.length)],
  ];
}

export function healthFacts(d: ReportData): Array<[string, string]> {
  const h = d.coverage.monitoring;
  const v = d.verdict;
  return [
    ['Monitoring began', v.monitoring_began === null ? 'no sync yet' : readable(v.monitoring_began)],
    ['Not monitored (before it began)', v.unmonitored_hours > 0 ? hoursText(v.unmonitored_hours) : 'none'],
    ['Monitoring complete (over the monitored time)', h.complete ? 'yes' : 'no'],
    ['Syncs ok / failed / interrupted', `${h.runs.ok} / ${h.runs.failed} / ${h.runs.interrupted}`],
    ['Last successful sync', h.last_ok_sync ? readable(h.last_ok_sync) : 'none'],
    [
      'Gaps no sync covered',
      h.gaps.length === 0
        ? 'none'
        : h.gaps.map((g) => `${readable(g.from)} to ${readable(g.to)} (${g.hours} h)`).join('; '),
    ],
    ['Sources missing', h.sources_missing.length === 0 ? 'none' : h.sources_missing.join(', ')],
  ];
}

/** `level match chosen`: why pairs below the levels cases are opened at have no case. */
export const notOpenedWhy = (levels: readonly string[] | null) => `level ${(levels ?? []).join(',')} chosen`;

/** The heading of the pairs left without a case by choice: `Not opened (level match chosen)`. */
export const notOpenedHeading = (d: ReportData) =>
  `Not opened (${notOpenedWhy(d.coverage.catalogue?.case_levels ?? null)})`;

/** The verdict in a few words, for the opening line. */
function verdictShort(d: ReportData): string {
  const v = d.verdict;
  if (v.state === 'complete') return 'complete';
  if (v.state === 'complete-since-start') return `complete since it began, ${minute(v.monitoring_began)} (not before)`;
  return 'INCOMPLETE (see the statement)';
}

/**
 * What a manager asks first, in one line: `Open cases: 3 (1 waiting) · overdue: 1 · next due: case 4, 2026-01-20
 * 18:00 UTC · monitoring: complete`.
 */
export function answerText(d: ReportData): string {
  const s = d.summary;
  const open = s.open + s.waiting;
  const next = s.next_due === null ? 'none' : `case ${s.next_due.case_id}, ${minute(s.next_due.due_at)}`;
  return `Open cases: ${open}${s.waiting > 0 ? ` (${s.waiting} waiting)` : ''} · overdue: ${s.overdue} · next due: ${next} · monitoring: ${verdictShort(d)}`;
}

export function summaryText(d: ReportData): string {
  const s = d.summary;
  const outcomes = Object.entries(s.outcomes)
    .map(([o, n]) => `${o} ${n}`)
    .join(', ');
  return `${s.cases} ${s.cases === 1 ? 'case' : 'cases'} in the period, every one listed below (matches first, then by severity): ${s.open} open, ${s.waiting} waiting, ${s.closed} closed${outcomes ? ` (${outcomes})` : ''}.`;
}

export function caseTitle(c: ReportCase): string {
  return `Case ${c.id} · ${c.status}${c.outcome ? ` (${c.outcome})` : ''} · ${c.level}/${c.reason}`;
}

/** A case's facts: its product, its recall (severity, hazard, the notice's address as text), the clock. */
/** The columns of a case's events. */
export const EVENT_HEADER = ['#', 'When', 'What', 'Status', 'By', 'Note'] as const;

/** A case's events as rows, numbered on the case (1, 2, 3); the archive-wide seq (the chain's) stays in the JSON. */
export function eventRows(c: ReportCase): string[][] {
  return c.events.map((e) => [
    String(e.number),
    readable(e.at),
    `${e.action}${e.action === 'resolved' && e.outcome ? `: ${e.outcome}` : ''}`,
    e.status,
    e.actor,
    e.note ?? '',
  ]);
}

/**
 * Where a fact links to: the notice's address when it is a plain http(s) URL, as parsed (what a browser would open,
 * every character it could hide, a bidi control, percent-encoded); no other fact, and no other scheme, ever links.
 */
export function noticeHref(label: string, value: string): string | undefined {
  // Stricter than a digest's link: no character a browser would encode (a space, a quote) in what a report shows.
  if (label !== 'Notice' || !/^[^\s"'<>\\]+$/.test(value)) return undefined;
  return safeUrl(value);
}

export function caseFacts(c: ReportCase): Array<[string, string]> {
  const r = c.recall;
  return [
    ['Product', productText(c.catalog_key, c.product_name)],
    ['Catalogue row', rowText(c)],
    ['Recall', `${c.recall_id}: ${c.alert_title ?? ''}`],
    ['Severity', r?.risk_severity ?? c.risk_severity ?? 'not in the archive'],
    ['Hazard', r?.hazard ?? ''],
    ['Notice', r?.source_url ?? ''],
    ['Published', readable(r?.published_at)],
    ['Opened', readable(c.opened_at)],
    ['Due', c.due_at ? `${readable(c.due_at)}${c.sla ? ` (${c.sla})` : ''}` : 'no deadline set'],
    ['Closed', readable(c.closed_at)],
  ];
}

export function chainText(d: ReportData): string {
  return d.chain.intact
    ? `Intact: ${d.chain.events} events, head ${d.chain.head}.`
    : `BROKEN: ${d.chain.problem ?? 'see cases verify'}. The timelines below cannot be trusted from that event on.`;
}

/** The catalogue row's non-empty values, `column: value`. */
function rowText(c: ReportCase): string {
  return Object.entries(c.catalog_row)
    .filter(([, v]) => v !== '')
    .map(([k, v]) => `${k}: ${v}`)
    .join(' · ');
}
