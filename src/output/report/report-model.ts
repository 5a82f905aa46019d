// The evidence report's content, one object every format renders (and `report -f json` prints): period, coverage, health, every case with its timeline, the statement.
import type { CaseEventRow, CaseRow, MonitoringView } from '../archive-views.js';

export interface CatalogueCoverage {
  file: string;
  rows: number;
  /** Rows with a valid barcode, a model number, or a brand and a name, and no identifier refused. */
  with_identifier: number;
  without_identifier: number;
  /** Rows whose identifier was refused (a barcode with a wrong check digit): listed, never counted usable. */
  refused: { line: number; catalog_key: string; value: string; reason: string }[];
  key_column: string | null;
  /** Rows (by key) with at least one case up to the period's end. */
  rows_with_cases: number;
  /** Rows the matcher, run by the report over the archive, finds a match or possible for, whether or not they have a case. */
  rows_matching: number;
  /**
   * Pairs the report found in the archive at a level cases are opened at, with no case: the cases were not opened
   * (match --open-cases). They make the verdict incomplete.
   */
  matches_without_case: UncasedMatch[];
  /** Pairs below the levels cases are opened at (`possible` after `--level match`): left without a case by choice. */
  not_opened: UncasedMatch[];
  /** The levels `match --open-cases` opens cases at, as the archive recorded them; null when never recorded (all then). */
  case_levels: string[] | null;
  /**
   * Pairs the matcher found but excluded: the row's lot or date is not among those the notice names. Never a match,
   * never counted in rows_matching, never making the statement incomplete: listed as the proof nothing was over-pulled.
   */
  excluded: ExcludedRow[];
  /**
   * Pairs at match or possible whose lot or date the notice's scope could not settle: what to check on the shelf,
   * in the notice's words (`verify lot: …`). Cased or not; never making the statement incomplete.
   */
  to_verify: VerifyRow[];
}

/** A pair to check on the shelf: the row, the recall, and what the notice's scope left open. */
export interface VerifyRow {
  catalog_key: string;
  line: number;
  product_name: string | null;
  level: string;
  recall_id: number;
  alert_title: string | null;
  row_lot: string | null;
  row_date: string | null;
  verify: string;
}

/** A catalogue row a recall touches but whose lot or date the notice does not name, with the notice's words that say so. */
export interface ExcludedRow {
  catalog_key: string;
  line: number;
  product_name: string | null;
  /** The tier the pair was found at (barcode, model+brand, ...) before its scope excluded it. */
  reason: string;
  recall_id: number;
  alert_title: string | null;
  risk_severity: string | null;
  scope_evidence: string;
  /** The row's own lot and date cells, as the catalogue writes them: what the notice's words were held against. */
  row_lot: string | null;
  row_date: string | null;
  /** Which of them the notice's lists proved outside. */
  excluded_on: string;
}

export interface UncasedMatch {
  catalog_key: string;
  line: number;
  product_name: string | null;
  level: string;
  reason: string;
  recall_id: number;
  alert_title: string | null;
  risk_severity: string | null;
}

/** The recall of a case as the archive holds it now: what an auditor needs to judge the case. */
export interface RecallFacts {
  risk_severity: string | null;
  hazard: string | null;
  source_url: string | null;
  published_at: string | null;
}

/** An event with its number on its case (1, 2, 3); `seq` stays the archive-wide chain's. */
export interface ReportEvent extends CaseEventRow {
  number: number;
}

export interface ReportCase extends Omit<CaseRow, 'events'> {
  recall: RecallFacts | null;
  /** When the case was closed (its last resolve), as of the period's end; null when it was not. */
  closed_at: string | null;
  /** Hours from the recall's publication (the deadline's clock; else the case's opening) to its closing. */
  time_to_action_hours: number | null;
  events: ReportEvent[];
}

/** Time to action over the closed cases, laid out like the Product Safety Pledge's KPI. */
export interface TimeToAction {
  closed: number;
  median_hours: number | null;
  p90_hours: number | null;
  /** Cases with a due time whose result is known at the period's end: closed, or still unresolved and past due. */
  with_due: number;
  closed_within_sla: number;
  /** closed_within_sla / with_due, 0 to 1; null without any. */
  share_within_sla: number | null;
}

export interface Provenance {
  tool: string;
  version: string;
  /** The archive as messages name it: a file, or a URL without its password. */
  archive: string;
  catalogue: { file: string; sha256: string } | null;
  /** The case log's head hash; null when its chain is broken (no hash is then the head of the log as written). */
  chain_head: string | null;
}

/**
 * The one verdict on the period, computed once: the page, the JSON and stderr all say `text`.
 * `complete-since-start`: monitoring began (the archive's first sync) within the period and held from then on.
 */
export interface Verdict {
  state: 'complete' | 'complete-since-start' | 'incomplete';
  text: string;
  /** From when the archive's first successful sync fetched recalls (its window before it started); null before any. */
  monitoring_began: string | null;
  /** Hours of the period before monitoring began, never monitored (0 when none). */
  unmonitored_hours: number;
}

export interface ReportData {
  title: string;
  generated_at: string;
  period: { since: string | null; until: string };
  provenance: Provenance;
  coverage: { catalogue: CatalogueCoverage | null; monitoring: MonitoringView };
  /** Counts over `cases`, which holds every case of the period: nothing is ever cut. */
  summary: {
    cases: number;
    open: number;
    waiting: number;
    closed: number;
    outcomes: Record<string, number>;
    overdue: number;
    /** The open or waiting case due first (overdue ones included), as of the period's end; null when none has a due time. */
    next_due: { case_id: number; due_at: string } | null;
    time_to_action: TimeToAction;
  };
  verdict: Verdict;
  /** `incomplete` unless the verdict is `complete`; the text says the verdict once. */
  statement: { text: string; incomplete: boolean; as_of: string; rows_without_match: number | null };
  /** `events`: those that checked out (before the break, when broken); `head` null when the chain is broken. */
  chain: { intact: boolean; events: number; head: string | null; problem: string | null };
  /** Ordered as the summary table: matches first, then by the recall's severity. */
  cases: ReportCase[];
}
