// `cases verify`: the hash chain of every event, then each case row against the timeline that must explain it.
import type Database from 'better-sqlite3';
import { type CaseLogCheck, checkChain, openedDetail, type StoredEvent } from '../cases-chain.js';
import type { CaseRow } from '../cases-model.js';

type CaseState = Pick<
  CaseRow,
  'id' | 'recall_id' | 'catalog_key' | 'level' | 'reason' | 'catalog_row' | 'status' | 'outcome'
>;

export function verifyCases(db: Database.Database): CaseLogCheck {
  const events = db.prepare('SELECT * FROM case_events ORDER BY seq').iterate() as IterableIterator<StoredEvent>;
  const chain = checkChain(events);
  const cases = db.prepare('SELECT count(*) AS n FROM cases').get() as { n: number };
  if (chain.broken) return { ...chain, cases: cases.n };
  // A sound chain: now each case row must be what its events say (an edited status or row shows here).
  const rows = db
    .prepare(
      `SELECT c.id, c.recall_id, c.catalog_key, c.level, c.reason, c.catalog_row, c.status, c.outcome,
              f.seq AS first_seq, f.action AS first_action, f.detail AS first_detail,
              l.seq AS last_seq, l.status AS last_status, l.outcome AS last_outcome
         FROM cases c
         LEFT JOIN case_events f ON f.seq = (SELECT min(seq) FROM case_events WHERE case_id = c.id)
         LEFT JOIN case_events l ON l.seq = (SELECT max(seq) FROM case_events WHERE case_id = c.id)
        ORDER BY c.id`,
    )
    .iterate() as IterableIterator<
    CaseState & {
      first_seq: number | null;
      first_action: string | null;
      first_detail: string | null;
      last_seq: number | null;
      last_status: string | null;
      last_outcome: string | null;
    }
  >;
  for (const c of rows) {
    const broken = (seq: number, problem: string): CaseLogCheck => ({
      ...chain,
      cases: cases.n,
      broken: { seq, caseId: c.id, problem },
    });
    if (c.first_seq === null || c.last_seq === null)
      return broken(0, `case ${c.id} has no events: its timeline was removed`);
    if (c.first_action !== 'opened' || c.first_detail !== openedDetail(c))
      return broken(
        c.first_seq,
        `case ${c.id} differs from event ${c.first_seq} that opened it: the case row was edited`,
      );
    if (c.status !== c.last_status || c.outcome !== c.last_outcome)
      return broken(
        c.last_seq,
        `case ${c.id} is stored as ${c.status}${c.outcome ? ` (${c.outcome})` : ''} but its last event ${c.last_seq} says ${c.last_status}${c.last_outcome ? ` (${c.last_outcome})` : ''}: the case row was edited`,
      );
  }
  const orphan = db
    .prepare(
      'SELECT e.seq, e.case_id FROM case_events e LEFT JOIN cases c ON c.id = e.case_id WHERE c.id IS NULL LIMIT 1',
    )
    .get() as { seq: number; case_id: number } | undefined;
  if (orphan)
    return {
      ...chain,
      cases: cases.n,
      broken: {
        seq: orphan.seq,
        caseId: orphan.case_id,
        problem: `event ${orphan.seq} belongs to case ${orphan.case_id}, which was removed`,
      },
    };
  return { ...chain, cases: cases.n };
}
