// The evidence report's content (its shape, which every format renders, is src/output/report/report-model.ts): each case as of the period, the counts, the statement.
import type { CaseView } from '../../archive/index.js';
import { endAfterNow } from '../../archive/store.js';
import type {
  CatalogueCoverage,
  RecallFacts,
  ReportCase,
  ReportData,
  TimeToAction,
  Verdict,
} from '../../output/report/report-model.js';
import { readable } from '../../output/report/report-times.js';
import { notOpenedWhy } from '../../output/report/report-words.js';
import { utcMs } from '../../output/api-time.js';
import { isOverdue } from '../../archive/cases-model.js';

const HOUR_MS = 3_600_000;

/**
 * The end of the report's period, exclusive: --until, but never later than now, as overdue cases, the SLA and gaps
 * can only be judged over time that has come (`clamped` when --until was later). Without --until, now included.
 */
export function reportEnd(untilMs: number | undefined, nowMs: number): { untilMs: number; clamped: boolean } {
  const end = endAfterNow(nowMs);
  if (untilMs === undefined) return { untilMs: end, clamped: false };
  return untilMs > end ? { untilMs: end, clamped: true } : { untilMs, clamped: false };
}

/**
 * The case as of `untilMs`: its events up to then (numbered on the case), and the status and outcome the last of them
 * gave it. Undefined when the case is no part of the period: opened after it, or closed before it began.
 */
export function caseInPeriod(
  c: CaseView,
  sinceMs: number | undefined,
  untilMs: number,
  recall: RecallFacts | null = null,
): ReportCase | undefined {
  const events = c.events.filter((e) => Date.parse(e.at) < untilMs).map((e, i) => ({ ...e, number: i + 1 }));
  const last = events.at(-1);
  if (!last) return undefined;
  if (sinceMs !== undefined) {
    const before = events.filter((e) => Date.parse(e.at) < sinceMs).at(-1);
    const activeInPeriod = events.some((e) => Date.parse(e.at) >= sinceMs);
    if (!activeInPeriod && before?.status === 'closed') return undefined;
  }
  const closedAt = last.status === 'closed' ? last.at : null;
  const published = utcMs(recall?.published_at);
  const clock = Number.isFinite(published) ? published : Date.parse(c.opened_at);
  const hours = closedAt === null ? null : Math.round(((Date.parse(closedAt) - clock) / HOUR_MS) * 10) / 10;
  return {
    ...c,
    status: last.status,
    outcome: last.outcome,
    updated_at: last.at,
    risk_severity: recall?.risk_severity ?? c.risk_severity,
    recall,
    closed_at: closedAt,
    time_to_action_hours: Number.isFinite(hours) ? hours : null,
    events,
  };
}

/** The value below which `share` of the sorted values lie (nearest rank). */
function percentile(sorted: readonly number[], share: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))] ?? null;
}

function timeToAction(cases: readonly ReportCase[], atMs: number): TimeToAction {
  const hours = cases.flatMap((c) => (c.time_to_action_hours === null ? [] : [c.time_to_action_hours]));
  hours.sort((a, b) => a - b);
  const mid = hours.length / 2;
  const median =
    hours.length === 0
      ? null
      : hours.length % 2 === 1
        ? (hours[Math.floor(mid)] ?? null)
        : Math.round((((hours[mid - 1] ?? 0) + (hours[mid] ?? 0)) / 2) * 10) / 10;
  let withDue = 0;
  let inTime = 0;
  for (const c of cases) {
    if (c.due_at === null) continue;
    const due = Date.parse(c.due_at);
    if (c.closed_at !== null) {
      withDue++;
      if (Date.parse(c.closed_at) <= due) inTime++;
    } else if (due < atMs) withDue++;
  }
  return {
    closed: hours.length,
    median_hours: median,
    p90_hours: percentile(hours, 0.9),
    with_due: withDue,
    closed_within_sla: inTime,
    share_within_sla: withDue === 0 ? null : Math.round((inTime / withDue) * 1000) / 1000,
  };
}

/**
 * The instant a report judges deadlines at: now, as `cases --overdue` does (a case due at now is not overdue yet), or
 * the end of a period that ended earlier; never now's exclusive end, 1 ms after it.
 */
export function judgedAt(untilMs: number, nowMs: number): number {
  return Math.min(untilMs, nowMs);
}

/** The counts of the report's cases, their deadlines judged at `atMs` (`judgedAt`): overdue when due before it. */
export function summarize(cases: readonly ReportCase[], atMs = Date.now()): ReportData['summary'] {
  const summary = {
    cases: cases.length,
    open: 0,
    waiting: 0,
    closed: 0,
    outcomes: {} as Record<string, number>,
    overdue: 0,
    next_due: null as ReportData['summary']['next_due'],
    time_to_action: timeToAction(cases, atMs),
  };
  for (const c of cases) {
    summary[c.status]++;
    if (c.outcome) summary.outcomes[c.outcome] = (summary.outcomes[c.outcome] ?? 0) + 1;
    if (isOverdue(c, atMs)) summary.overdue++;
    const due = c.due_at;
    if (c.status !== 'closed' && due !== null && (summary.next_due === null || due < summary.next_due.due_at))
      summary.next_due = { case_id: c.id, due_at: due };
  }
  return summary;
}

/**
 * The one sentence about the rows without a case, then the verdict, said once. Never "safe", never "all clear":
 * only that no match was found, as of a time, and whether monitoring up to then was complete. The time is when the
 * last successful sync began fetching (`lastSyncStart`), else the period's end.
 */
export function statement(
  catalogue: CatalogueCoverage | null,
  lastSyncStart: string | null,
  untilIso: string,
  verdict: Verdict,
): ReportData['statement'] {
  const asOf = lastSyncStart !== null && Date.parse(lastSyncStart) < Date.parse(untilIso) ? lastSyncStart : untilIso;
  const incomplete = verdict.state !== 'complete';
  if (catalogue === null) {
    return {
      text: `No catalogue was given (--catalog), so the rows without a case are not counted here; for the cases listed, see their timelines. Monitoring as of ${readable(asOf)}. ${verdict.text}`,
      incomplete,
      as_of: asOf,
      rows_without_match: null,
    };
  }
  // Rows with neither a case nor a match the report found itself: only those are said to have no match.
  const n = Math.max(0, catalogue.rows - catalogue.rows_matching);
  const which = catalogue.rows_matching > 0 ? 'the other' : 'any of the';
  const excluded = catalogue.excluded.length;
  const out =
    excluded === 0
      ? ''
      : ` ${excluded} ${excluded === 1 ? 'pair of a catalogue row and a recall was' : 'pairs of catalogue rows and recalls were'} excluded by lot or date (${excludedOn(catalogue.excluded)}), each only on proof: the notice's lots or dates read whole and the row's outside them under every reading; each is listed with the notice's words and the row's values.`;
  const skipped = catalogue.not_opened.length;
  const notOpened =
    skipped === 0
      ? ''
      : ` ${skipped} ${skipped === 1 ? 'pair below the level chosen for cases was' : 'pairs below the level chosen for cases were'} not opened (${notOpenedWhy(catalogue.case_levels)}), each listed.`;
  return {
    text: `No match was found for ${which} ${n} ${n === 1 ? 'row' : 'rows'} as of ${readable(asOf)}.${out}${notOpened} ${verdict.text}`,
    incomplete,
    as_of: asOf,
    rows_without_match: n,
  };
}

/** "2 on the lot, 1 on the date": what the exclusions rested on. */
function excludedOn(rows: readonly { excluded_on: string }[]): string {
  const by = new Map<string, number>();
  for (const r of rows) by.set(r.excluded_on, (by.get(r.excluded_on) ?? 0) + 1);
  return [...by].map(([on, n]) => `${n} on the ${on}`).join(', ');
}
