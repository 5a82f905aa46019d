// The vocabulary of cases: statuses, outcomes, actions, the shape a case is stored and read back in.

export const CASE_STATUSES = ['open', 'waiting', 'closed'] as const;
export type CaseStatus = (typeof CASE_STATUSES)[number];

/** How a case is closed. "waiting" (a supplier, a test) is deliberately not one of them: it stays unresolved. */
export const OUTCOMES = [
  'removed-from-sale',
  'action-taken',
  'not-our-product',
  'false-positive',
  'no-action-needed',
] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** What an event records: a person's step, or the sync noticing a new version of the recall. */
export type CaseAction = 'opened' | 'waiting' | 'resolved' | 'reopened' | 'recall-updated';

/** The person's steps on a case (`cases resolve|wait|reopen`). */
export type CaseStep = { kind: 'resolve'; outcome: Outcome } | { kind: 'wait' } | { kind: 'reopen' };

export interface CaseEventView {
  seq: number;
  at: string;
  actor: string;
  action: CaseAction;
  status: CaseStatus;
  outcome: Outcome | null;
  note: string | null;
  hash: string;
}

export interface CaseView {
  id: number;
  status: CaseStatus;
  recall_id: number;
  level: string;
  reason: string;
  catalog_row: Record<string, string>;
  catalog_key: string;
  alert_title: string | null;
  opened_at: string;
  updated_at: string;
  outcome: Outcome | null;
  /** When the case should be acted on (its SLA from the recall's published_at), as the opened event holds it; null without one. */
  due_at: string | null;
  /** The SLA the due time came from (`2wd`, `24h`, `2wd:FR`), as the opened event holds it. */
  sla: string | null;
  /** The recall's risk_severity as the archive holds it now; null when it does not hold the recall. */
  risk_severity: string | null;
  /** The catalogue row's product name (its name column when the case was opened, else a name-like column). */
  product_name: string | null;
  events: CaseEventView[];
}

/** A (catalogue row, recall) pair `match --open-cases` found. */
export interface CaseCandidate {
  recallId: number;
  /** `<key column>:<value>`, or `line:<n>` when the catalogue has no key column. */
  catalogKey: string;
  level: string;
  reason: string;
  catalogRow: Record<string, string>;
  alertTitle: string | null;
  /** ISO 8601 UTC, from --sla and the recall's published_at; kept in the opened event (the chain). */
  dueAt?: string | null;
  sla?: string | null;
  /** The row's product name (the catalogue's name column), kept in the opened event. */
  productName?: string | null;
}

export interface CaseQuery {
  statuses: readonly CaseStatus[];
  levels?: readonly string[];
  /** Only these ids. */
  ids?: readonly number[];
}

/** The opened event's detail as parsed: what the case was opened on (alert_title and after only on newer cases). */
export interface OpenedDetail {
  recall_id: number;
  catalog_key: string;
  level: string;
  reason: string;
  catalog_row: Record<string, string>;
  alert_title?: string | null;
  due_at?: string | null;
  sla?: string | null;
  product_name?: string | null;
}

/** The actor of the events a sync writes. */
export const SYNC_ACTOR = 'recall-feed sync';

/** A `cases` row as stored. */
export interface CaseRow {
  id: number;
  recall_id: number;
  catalog_key: string;
  level: string;
  reason: string;
  catalog_row: string;
  alert_title: string | null;
  status: string;
  outcome: string | null;
  opened_at: string;
  updated_at: string;
}

/** An event to append: the chain's numbering and hashes are added by the engine's writer. */
export interface NewEvent {
  caseId: number;
  at: string;
  actor: string;
  action: CaseAction;
  status: CaseStatus;
  outcome: Outcome | null;
  note: string | null;
  detail: string | null;
}

/** Who did it, when, and why: what every step records. */
export interface StepBy {
  at: string;
  actor: string;
  note: string | null;
}

/** Open or waiting, and past its due time (the digest and `cases --overdue` alike). */
export function isOverdue(c: Pick<CaseView, 'status' | 'due_at'>, nowMs: number): boolean {
  return c.status !== 'closed' && c.due_at !== null && Date.parse(c.due_at) < nowMs;
}

const DAY_MS = 86_400_000;

/** 00:00 UTC after the next working day (Monday to Friday, UTC) after the day of `nowMs`: Friday's digest sees Monday. */
export function dueSoonUntil(nowMs: number): number {
  let day = Math.floor(nowMs / DAY_MS) * DAY_MS;
  do day += DAY_MS;
  while ([0, 6].includes(new Date(day).getUTCDay()));
  return day + DAY_MS;
}

/** `cases --overdue` and `--due-soon`: which of the cases a listing or a step keeps (both given: the overdue). */
export interface DueSelection {
  overdue?: boolean;
  dueSoon?: boolean;
}

/**
 * Whether a case is one `due` selects at `nowMs`: due soon is open or waiting and due before `dueSoonUntil` (overdue ones
 * too), as the digest's deadlines are. The window is worked out once, not per case.
 */
export function dueSelector(due: DueSelection, nowMs: number): (c: Pick<CaseView, 'status' | 'due_at'>) => boolean {
  const soon = due.dueSoon ? dueSoonUntil(nowMs) : undefined;
  return (c) => (!due.overdue || isOverdue(c, nowMs)) && (soon === undefined || isOverdue(c, soon));
}
