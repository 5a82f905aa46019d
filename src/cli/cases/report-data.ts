// The evidence report's content, one object every format renders: period, coverage, health, every case with its timeline, the statement.
import type { CaseEventView, CaseView, MonitoringHealth } from '../../archive/index.js';

export interface CatalogueCoverage {
  file: string;
  rows: number;
  /** Rows with a valid barcode, a model number, or a brand and a name: what a recall can be matched on. */
  with_identifier: number;
  without_identifier: number;
  key_column: string | null;
  /** Rows (by key) with at least one case up to the period's end. */
  rows_with_cases: number;
}

export interface ReportCase extends Omit<CaseView, 'events'> {
  events: CaseEventView[];
}

export interface ReportData {
  title: string;
  generated_at: string;
  period: { since: string | null; until: string };
  coverage: { catalogue: CatalogueCoverage | null; monitoring: MonitoringHealth };
  /** Counts over `cases`, which holds every case of the period: nothing is ever cut. */
  summary: { cases: number; open: number; waiting: number; closed: number; outcomes: Record<string, number> };
  statement: { text: string; incomplete: boolean; as_of: string; rows_without_match: number | null };
  chain: { intact: boolean; events: number; head: string; problem: string | null };
  cases: ReportCase[];
}

/**
 * The case as of `untilMs`: its events up to then, and the status and outcome the last of them gave it.
 * Undefined when the case is no part of the period: opened after it, or closed before it began.
 */
export function caseInPeriod(c: CaseView, sinceMs: number | undefined, untilMs: number): ReportCase | undefined {
  const events = c.events.filter((e) => Date.parse(e.at) < untilMs);
  const last = events.at(-1);
  if (!last) return undefined;
  if (sinceMs !== undefined) {
    const before = events.filter((e) => Date.parse(e.at) < sinceMs).at(-1);
    const activeInPeriod = events.some((e) => Date.parse(e.at) >= sinceMs);
    if (!activeInPeriod && before?.status === 'closed') return undefined;
  }
  return { ...c, status: last.status, outcome: last.outcome, updated_at: last.at, events };
}

export function summarize(cases: readonly ReportCase[]): ReportData['summary'] {
  const summary = { cases: cases.length, open: 0, waiting: 0, closed: 0, outcomes: {} as Record<string, number> };
  for (const c of cases) {
    summary[c.status]++;
    if (c.outcome) summary.outcomes[c.outcome] = (summary.outcomes[c.outcome] ?? 0) + 1;
  }
  return summary;
}

/** Why monitoring was incomplete, in words; empty when it was complete. */
export function incompleteReasons(h: MonitoringHealth, sourcesChecked: boolean): string[] {
  const reasons: string[] = [];
  if (h.complete) return reasons;
  if (h.last_ok_sync === null) reasons.push('no sync succeeded');
  const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  if (h.runs.failed > 0) reasons.push(`${plural(h.runs.failed, 'sync')} failed`);
  if (h.runs.interrupted > 0) reasons.push(`${plural(h.runs.interrupted, 'sync')} interrupted`);
  if (h.gaps.length > 0) {
    const hours = h.gaps.reduce((s, g) => s + g.hours, 0);
    reasons.push(
      `${h.gaps.length} ${h.gaps.length === 1 ? 'gap' : 'gaps'} no sync covered (${Math.round(hours * 10) / 10} h)`,
    );
  }
  if (h.sources_missing.length > 0) reasons.push(`sources never synced: ${h.sources_missing.join(', ')}`);
  if (!sourcesChecked)
    reasons.push('the sources the key may use were not checked (no API key, or the API unreachable)');
  if (reasons.length === 0) reasons.push('no sync succeeded in the period');
  return reasons;
}

/**
 * The one sentence about the rows without a case. Never "safe", never "all clear": only that no match was
 * found, as of a time, and whether monitoring up to then was complete.
 */
export function statement(
  catalogue: CatalogueCoverage | null,
  health: MonitoringHealth,
  untilIso: string,
  sourcesChecked: boolean,
): ReportData['statement'] {
  const asOf = health.last_ok_sync !== null && health.last_ok_sync < untilIso ? health.last_ok_sync : untilIso;
  const reasons = incompleteReasons(health, sourcesChecked);
  const incomplete = reasons.length > 0;
  const caveat = incomplete
    ? ` This is incomplete: ${reasons.join('; ')}. Recalls that monitoring did not reach may not have been checked.`
    : '';
  if (catalogue === null) {
    return {
      text: `No catalogue was given (--catalog), so the rows without a case are not counted here; for the cases listed, see their timelines. Monitoring as of ${asOf}.${caveat}`,
      incomplete,
      as_of: asOf,
      rows_without_match: null,
    };
  }
  const n = catalogue.rows - catalogue.rows_with_cases;
  const which = catalogue.rows_with_cases > 0 ? 'the other' : 'any of the';
  return {
    text: `No match was found for ${which} ${n} ${n === 1 ? 'row' : 'rows'} as of ${asOf}.${caveat}`,
    incomplete,
    as_of: asOf,
    rows_without_match: n,
  };
}
