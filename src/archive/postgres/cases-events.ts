// Appends one event to the case log (hash-chained to the newest) and moves the case's status with it, on PostgreSQL.
import type pg from 'pg';
import { chainedEvent, type StoredEvent } from '../cases-chain.js';
import type { NewEvent } from '../cases-model.js';

/** Must run inside inWriteTransaction (transactions.ts): the head read here must not move before the insert. */
export async function appendEvent(client: pg.Client, s: string, e: NewEvent): Promise<StoredEvent> {
  const { rows } = await client.query<{ seq: number; hash: string }>(
    `SELECT seq, hash FROM ${s}.case_events ORDER BY seq DESC LIMIT 1`,
  );
  const stored = chainedEvent(rows[0], e);
  await client.query(
    `INSERT INTO ${s}.case_events (seq, case_id, at, actor, action, status, outcome, note, detail, prev_hash, hash)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [
      stored.seq,
      stored.case_id,
      stored.at,
      stored.actor,
      stored.action,
      stored.status,
      stored.outcome,
      stored.note,
      stored.detail,
      stored.prev_hash,
      stored.hash,
    ],
  );
  await client.query(`UPDATE ${s}.cases SET status = $1, outcome = $2, updated_at = $3 WHERE id = $4`, [
    e.status,
    e.outcome,
    e.at,
    e.caseId,
  ]);
  return stored;
}
