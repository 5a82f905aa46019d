// Words the report formats share: headings, the catalogue and health facts as label/value pairs, a case's title.
import type { ReportCase, ReportData } from './report-data.js';

export const CHAIN_NOTE =
  "Each event carries a sha256 hash over its content and the previous event's hash, so an event edited or removed in the archive after this report breaks the chain from there on. It is not a signature: whoever can write the archive can rebuild a whole chain. Keep this report (and the head hash) to compare with later.";

export function periodText(d: ReportData): string {
  return `${d.period.since ?? 'the beginning of the archive'} to ${d.period.until}`;
}

export function catalogueFacts(d: ReportData): Array<[string, string]> {
  const c = d.coverage.catalogue;
  if (!c) return [['Catalogue', 'not given (--catalog): rows are not counted']];
  return [
    ['Catalogue', c.file],
    ['Rows checked', String(c.rows)],
    ['Rows with a usable identifier (barcode, model, or brand and name)', String(c.with_identifier)],
    ['Rows without one (never matchable)', String(c.without_identifier)],
    ['Rows known by', c.key_column ?? 'line number (no key column)'],
    ['Rows with a case', String(c.rows_with_cases)],
  ];
}

export function healthFacts(d: ReportData): Array<[string, string]> {
  const h = d.coverage.monitoring;
  return [
    ['Monitoring complete', h.complete ? 'yes' : 'no'],
    ['Syncs ok / failed / interrupted', `${h.runs.ok} / ${h.runs.failed} / ${h.runs.interrupted}`],
    ['Last successful sync', h.last_ok_sync ?? 'none'],
    [
      'Gaps no sync covered',
      h.gaps.length === 0 ? 'none' : h.gaps.map((g) => `${g.from} to ${g.to} (${g.hours} h)`).join('; '),
    ],
    ['Sources missing', h.sources_missing.length === 0 ? 'none' : h.sources_missing.join(', ')],
  ];
}

export function summaryText(d: ReportData): string {
  const s = d.summary;
  const outcomes = Object.entries(s.outcomes)
    .map(([o, n]) => `${o} ${n}`)
    .join(', ');
  return `${s.cases} ${s.cases === 1 ? 'case' : 'cases'} in the period, every one listed below: ${s.open} open, ${s.waiting} waiting, ${s.closed} closed${outcomes ? ` (${outcomes})` : ''}.`;
}

export function caseTitle(c: ReportCase): string {
  return `Case ${c.id} · ${c.status}${c.outcome ? ` (${c.outcome})` : ''} · ${c.level}/${c.reason}`;
}

export function chainText(d: ReportData): string {
  return d.chain.intact
    ? `Intact: ${d.chain.events} events, head ${d.chain.head}.`
    : `BROKEN: ${d.chain.problem ?? 'see cases verify'}. The timelines below cannot be trusted from that event on.`;
}

/** The catalogue row's non-empty values, `column: value`. */
export function rowText(c: ReportCase): string {
  return Object.entries(c.catalog_row)
    .filter(([, v]) => v !== '')
    .map(([k, v]) => `${k}: ${v}`)
    .join(' · ');
}
