// `cases verify` on PostgreSQL: the hash chain of every event, then each case row against the timeline that must explain it.
import type pg from 'pg';
import { type CaseLogCheck, checkChain, type StoredEvent } from '../cases-chain.js';
import { type CaseRowState, caseRowsSql, checkCaseRows, checkOrphan, orphanSql } from '../cases-check.js';
import { inSnapshot } from './transactions.js';

/** In one snapshot: a sync appending meanwhile cannot make a sound log look broken. */
export function verifyCases(client: pg.Client, s: string): Promise<CaseLogCheck> {
  return inSnapshot(client, async () => {
    const events = await client.query<StoredEvent>(`SELECT * FROM ${s}.case_events ORDER BY seq`);
    const chain = checkChain(events.rows);
    const count = await client.query<{ n: number }>(`SELECT count(*) AS n FROM ${s}.cases`);
    const cases = (count.rows[0] as { n: number }).n;
    if (chain.broken) return { ...chain, cases };
    // A sound chain: now each case row must be what its events say (an edited status or row shows here).
    const rows = await client.query<CaseRowState>(caseRowsSql(`${s}.`));
    const check = checkCaseRows(chain, cases, rows.rows);
    if (check.broken) return check;
    const orphan = await client.query<{ seq: number; case_id: number }>(orphanSql(`${s}.`));
    return checkOrphan(check, orphan.rows[0]);
  });
}
