// `cases verify`: the hash chain of every event, then each case row against the timeline that must explain it.
import { type CaseLogCheck, checkChain, type StoredEvent } from '../cases-chain.js';
import { type CaseRowState, caseRowsSql, checkCaseRows, checkOrphan, orphanSql } from '../cases-check.js';
import type { Dialect, SqlClient } from '../sql/client.js';

/** In one snapshot: a sync appending meanwhile cannot make a sound log look broken. */
export function verifyCases(client: SqlClient, d: Dialect): Promise<CaseLogCheck> {
  // The tables' common prefix: '' on SQLite, the quoted schema and a dot on PostgreSQL.
  const prefix = d.t('');
  return client.transaction('read', async () => {
    const chain = checkChain(await client.all<StoredEvent>(`SELECT * FROM ${d.t('case_events')} ORDER BY seq`));
    const count = (await client.get<{ n: number }>(`SELECT count(*) AS n FROM ${d.t('cases')}`)) as { n: number };
    if (chain.broken) return { ...chain, cases: count.n };
    // A sound chain: now each case row must be what its events say (an edited status or row shows here).
    const check = checkCaseRows(chain, count.n, await client.all<CaseRowState>(caseRowsSql(prefix)));
    if (check.broken) return check;
    return checkOrphan(check, await client.get<{ seq: number; case_id: number }>(orphanSql(prefix)));
  });
}
