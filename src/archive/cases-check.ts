// `cases verify` past the chain, for both engines: each case row against the timeline that must explain it.
import { type CaseLogCheck, type ChainCheck, canonicalJson, parseOpenedDetail } from './cases-chain.js';
import type { CaseRow } from './cases-model.js';

/** A case row beside its first and last event (portable SQL; `t` prefixes the table names, '' or `"schema".`). */
export const caseRowsSql = (t: string) => `
  SELECT c.id, c.recall_id, c.catalog_key, c.level, c.reason, c.catalog_row, c.status, c.outcome,
         c.alert_title, c.opened_at, c.updated_at,
         f.seq AS first_seq, f.action AS first_action, f.detail AS first_detail, f.at AS first_at,
         l.seq AS last_seq, l.status AS last_status, l.outcome AS last_outcome, l.at AS last_at
    FROM ${t}cases c
    LEFT JOIN ${t}case_events f ON f.seq = (SELECT min(seq) FROM ${t}case_events WHERE case_id = c.id)
    LEFT JOIN ${t}case_events l ON l.seq = (SELECT max(seq) FROM ${t}case_events WHERE case_id = c.id)
   ORDER BY c.id`;

/** One event whose case is gone, if any. */
export const orphanSql = (t: string) =>
  `SELECT e.seq, e.case_id FROM ${t}case_events e LEFT JOIN ${t}cases c ON c.id = e.case_id WHERE c.id IS NULL LIMIT 1`;

export type CaseRowState = Pick<
  CaseRow,
  | 'id'
  | 'recall_id'
  | 'catalog_key'
  | 'level'
  | 'reason'
  | 'catalog_row'
  | 'status'
  | 'outcome'
  | 'alert_title'
  | 'opened_at'
  | 'updated_at'
> & {
  first_seq: number | null;
  first_action: string | null;
  first_detail: string | null;
  first_at: string | null;
  last_at: string | null;
  last_seq: number | null;
  last_status: string | null;
  last_outcome: string | null;
};

/**
 * Whether the row holds what its opened event (hashed in the chain) says it was opened on. The title is checked
 * when the event holds it (cases opened by this version on; earlier ones kept only the pair and the row).
 */
function openedAsStored(c: CaseRowState): boolean {
  const d = parseOpenedDetail(c.first_detail);
  if (d === undefined) return false;
  let row: string;
  try {
    row = canonicalJson(JSON.parse(c.catalog_row) as unknown);
  } catch {
    return false;
  }
  const same =
    Number(d.recall_id) === Number(c.recall_id) &&
    d.catalog_key === c.catalog_key &&
    d.level === c.level &&
    d.reason === c.reason &&
    canonicalJson(d.catalog_row) === row;
  return same && (!('alert_title' in d) || d.alert_title === c.alert_title);
}

/** A status and its outcome whenever there is one, quoted: an outcome edited to '' or ' ' shows as such. */
function withOutcome(status: string | null, outcome: string | null): string {
  return outcome === null ? String(status) : `${status} (outcome '${outcome}')`;
}

/** The sound chain's result, or the first case whose row its events do not explain (an edited status or row). */
export function checkCaseRows(chain: ChainCheck, cases: number, rows: Iterable<CaseRowState>): CaseLogCheck {
  for (const c of rows) {
    const broken = (seq: number, problem: string): CaseLogCheck => ({
      ...chain,
      cases,
      broken: { seq, caseId: c.id, problem },
    });
    if (c.first_seq === null || c.last_seq === null)
      return broken(0, `case ${c.id} has no events: its timeline was removed`);
    if (c.first_action !== 'opened' || !openedAsStored(c))
      return broken(
        c.first_seq,
        `case ${c.id} differs from event ${c.first_seq} that opened it: the case row was edited`,
      );
    if (c.opened_at !== c.first_at || c.updated_at !== c.last_at)
      return broken(
        c.opened_at !== c.first_at ? c.first_seq : c.last_seq,
        c.opened_at !== c.first_at
          ? `case ${c.id} says it was opened at ${c.opened_at} but event ${c.first_seq} opened it at ${c.first_at}: the case row was edited`
          : `case ${c.id} says it was updated at ${c.updated_at} but its last event ${c.last_seq} is at ${c.last_at}: the case row was edited`,
      );
    if (c.status !== c.last_status || c.outcome !== c.last_outcome)
      return broken(
        c.last_seq,
        `case ${c.id} is stored as ${withOutcome(c.status, c.outcome)} but its last event ${c.last_seq} says ${withOutcome(c.last_status, c.last_outcome)}: the case row was edited`,
      );
  }
  return { ...chain, cases };
}

/** The result with an event that belongs to a removed case, when there is one. */
export function checkOrphan(check: CaseLogCheck, orphan: { seq: number; case_id: number } | undefined): CaseLogCheck {
  if (!orphan || check.broken) return check;
  return {
    ...check,
    broken: {
      seq: orphan.seq,
      caseId: orphan.case_id,
      problem: `event ${orphan.seq} belongs to case ${orphan.case_id}, which was removed`,
    },
  };
}
