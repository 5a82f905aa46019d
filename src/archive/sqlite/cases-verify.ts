// `cases verify`: the hash chain of every event, then each case row against the timeline that must explain it.
import type Database from 'better-sqlite3';
import { type CaseLogCheck, checkChain, type StoredEvent } from '../cases-chain.js';
import { CasesNotKeptError } from '../cases-errors.js';
import { keepsCases } from './cases.js';
import { type CaseRowState, caseRowsSql, checkCaseRows, checkOrphan, orphanSql } from '../cases-check.js';

export function verifyCases(db: Database.Database): CaseLogCheck {
  if (!keepsCases(db)) throw new CasesNotKeptError(db.name);
  const events = db.prepare('SELECT * FROM case_events ORDER BY seq').iterate() as IterableIterator<StoredEvent>;
  const chain = checkChain(events);
  const cases = db.prepare('SELECT count(*) AS n FROM cases').get() as { n: number };
  if (chain.broken) return { ...chain, cases: cases.n };
  // A sound chain: now each case row must be what its events say (an edited status or row shows here).
  const rows = db.prepare(caseRowsSql('')).iterate() as IterableIterator<CaseRowState>;
  const check = checkCaseRows(chain, cases.n, rows);
  if (check.broken) return check;
  return checkOrphan(check, db.prepare(orphanSql('')).get() as { seq: number; case_id: number } | undefined);
}
