// Appends one event to the case log (hash-chained to the newest) and moves the case's status with it.
import { chainedEvent, type StoredEvent } from '../cases-chain.js';
import type { NewEvent } from '../cases-model.js';
import type { Dialect, SqlClient } from '../sql/client.js';

/**
 * Must run inside a write transaction: the head read here must not move before the insert. The event is stamped
 * `event.at`, or its case's last event's time when that is later (a host whose clock is behind, on a shared
 * archive): a case's timeline never goes back in time. An `opened` event is its case's first (openCases inserts the
 * case just before), so it is stamped `event.at`.
 */
export async function appendEvent(client: SqlClient, d: Dialect, event: NewEvent): Promise<StoredEvent> {
  const head = await client.get<{ seq: number; hash: string }>(
    `SELECT seq, hash FROM ${d.t('case_events')} ORDER BY seq DESC LIMIT 1`,
  );
  // A case's first event (`opened`, on the row just inserted) has none before it: no lookup, a round trip per new case.
  const last =
    event.action === 'opened'
      ? undefined
      : await client.get<{ at: string }>(
          `SELECT at FROM ${d.t('case_events')} WHERE case_id = ? ORDER BY seq DESC LIMIT 1`,
          [event.caseId],
        );
  const at = last !== undefined && Date.parse(last.at) > Date.parse(event.at) ? last.at : event.at;
  const e = d.texts({ ...event, at });
  const stored = chainedEvent(head, e);
  await client.run(
    `INSERT INTO ${d.t('case_events')} (seq, case_id, at, actor, action, status, outcome, note, detail, prev_hash, hash)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
  await client.run(`UPDATE ${d.t('cases')} SET status = ?, outcome = ?, updated_at = ? WHERE id = ?`, [
    e.status,
    e.outcome,
    e.at,
    e.caseId,
  ]);
  return stored;
}
