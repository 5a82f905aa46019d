// The sync's hook on cases: a new version of a recall reopens its closed cases, and notes the change on the others.
import { type CaseOnRecall, recallUpdatedEvents } from '../cases-changes.js';
import type { Dialect, SqlClient } from '../sql/client.js';
import { appendEvent } from './cases-events.js';

/** A recall the page stored a new version of, with the version it replaced. */
export interface RecallUpdate {
  recallId: number;
  version: number;
  oldRaw: string;
  record: Record<string, unknown>;
}

/** Runs inside the sync's page transaction (under its write lock): the versions and these events commit together. */
export async function casesOnRecallUpdates(
  client: SqlClient,
  d: Dialect,
  updates: readonly RecallUpdate[],
  now: () => number,
): Promise<void> {
  if (updates.length === 0) return;
  const ids = d.anyOf('recall_id', [...new Set(updates.map((u) => u.recallId))], 'bigint');
  const rows = await client.all<CaseOnRecall & { recall_id: number }>(
    `SELECT id, recall_id, status, outcome FROM ${d.t('cases')} WHERE ${ids.sql} ORDER BY id`,
    ids.params,
  );
  if (rows.length === 0) return;
  const byRecall = new Map<number, CaseOnRecall[]>();
  for (const r of rows) byRecall.set(r.recall_id, [...(byRecall.get(r.recall_id) ?? []), r]);
  // In the page's record order.
  for (const u of updates) {
    const cases = byRecall.get(u.recallId);
    if (cases === undefined) continue;
    const at = new Date(now()).toISOString();
    for (const e of recallUpdatedEvents(cases, u.version, u.oldRaw, u.record, at)) await appendEvent(client, d, e);
  }
}
