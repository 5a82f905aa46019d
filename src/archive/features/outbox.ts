// The outbox: rows queued in the page's transaction, claimed with a lease on the archive's clock, settled per attempt.
import {
  type OutboxActions,
  type OutboxBacklog,
  type OutboxClaim,
  type OutboxEntry,
  type OutboxItem,
  type OutboxOutcome,
  type OutboxRelease,
  type OutboxRenewal,
  type OutboxRow,
  outboxItem,
  outboxRows,
} from '../outbox-model.js';
import type { Dialect, SqlClient } from '../sql/client.js';
import { insertRows } from '../sql/insert.js';

/** Queues the rows the page's new recalls and versions owe; called inside the page's transaction (upsert.ts). */
export async function queueOutbox(
  client: SqlClient,
  d: Dialect,
  entries: readonly OutboxEntry[],
  actions: OutboxActions | undefined,
  runId: number,
): Promise<void> {
  const rows = outboxRows(entries, actions).map((r) => [r.recallId, r.version, r.action, r.kind, r.raw, runId]);
  const columns = ['recall_id', 'version', 'action', 'kind', 'raw', 'created_run'];
  await insertRows(client, d.t('outbox'), columns, rows, 'ON CONFLICT DO NOTHING');
}

/**
 * Picks the rows owed (claimLock: on PostgreSQL two hosts never pick the same row), then holds them by the lease
 * alone, on the archive's clock, so that hosts whose clocks differ agree when a lease has ended.
 */
export async function claimOutbox(client: SqlClient, d: Dialect, claim: OutboxClaim): Promise<OutboxItem[]> {
  if (claim.actions.length === 0) return [];
  return client.transaction('claim', async () => {
    const actions = d.anyOf('action', claim.actions, 'text');
    const now = d.now(claim.nowMs);
    const rows = await client.all<OutboxRow>(
      `SELECT id, recall_id, version, action, kind, raw, attempts FROM ${d.t('outbox')}
        WHERE state = 'pending' AND ${actions.sql} AND (lease_until IS NULL OR lease_until < ${now.sql})
        ORDER BY id LIMIT ? ${d.claimLock}`,
      [...actions.params, ...now.params, claim.limit],
    );
    if (rows.length === 0) return [];
    const until = d.later(claim.nowMs, claim.leaseMs);
    const ids = d.anyOf(
      'id',
      rows.map((r) => r.id),
      'bigint',
    );
    await client.run(
      `UPDATE ${d.t('outbox')} SET claimed_by = ?, lease_until = ${until.sql}, attempts = attempts + 1 WHERE ${ids.sql}`,
      [claim.host, ...until.params, ...ids.params],
    );
    // Selected before the UPDATE counted this claim.
    return rows.map((r) => outboxItem({ ...r, attempts: r.attempts + 1 }));
  });
}

/** Renews only rows this host claimed last and still owes: one whose lease ended and another host took stays theirs. */
export async function renewOutbox(client: SqlClient, d: Dialect, renewal: OutboxRenewal): Promise<number[]> {
  if (renewal.ids.length === 0) return [];
  const until = d.later(renewal.nowMs, renewal.leaseMs);
  const ids = d.anyOf('id', renewal.ids, 'bigint');
  const rows = await client.all<{ id: number }>(
    `UPDATE ${d.t('outbox')} SET lease_until = ${until.sql}
      WHERE ${ids.sql} AND claimed_by = ? AND state = 'pending' RETURNING id`,
    [...until.params, ...ids.params, renewal.host],
  );
  return rows.map((r) => r.id);
}

/**
 * Releases rows this host claimed and did not try (a sync stopped in order): unleased, so that the next sync or another
 * host takes them at once, in their order; the attempt their claim counted is given back. Rows done, or another's, stay.
 */
export async function releaseOutbox(client: SqlClient, d: Dialect, release: OutboxRelease): Promise<number[]> {
  if (release.ids.length === 0) return [];
  const ids = d.anyOf('id', release.ids, 'bigint');
  const rows = await client.all<{ id: number }>(
    `UPDATE ${d.t('outbox')} SET lease_until = NULL, attempts = attempts - 1
      WHERE ${ids.sql} AND claimed_by = ? AND state = 'pending' AND attempts > 0 RETURNING id`,
    [...ids.params, release.host],
  );
  return rows.map((r) => r.id);
}

export async function settleOutbox(
  client: SqlClient,
  d: Dialect,
  id: number,
  outcome: OutboxOutcome,
  nowMs: number,
): Promise<void> {
  if (outcome.ok) {
    const done = d.stamp(nowMs);
    await client.run(
      `UPDATE ${d.t('outbox')} SET state = 'done', done_at = ${done.sql}, last_error = NULL, lease_until = NULL WHERE id = ?`,
      [...done.params, id],
    );
    return;
  }
  const until = d.later(nowMs, outcome.retryInMs);
  await client.run(`UPDATE ${d.t('outbox')} SET state = ?, last_error = ?, lease_until = ${until.sql} WHERE id = ?`, [
    outcome.giveUp ? 'failed' : 'pending',
    outcome.error,
    ...until.params,
    id,
  ]);
}

export async function outboxBacklog(client: SqlClient, d: Dialect): Promise<OutboxBacklog> {
  return (await client.get<OutboxBacklog>(
    `SELECT count(*) FILTER (WHERE state = 'pending') AS pending,
            count(*) FILTER (WHERE state = 'pending' AND last_error IS NOT NULL) AS retrying,
            count(*) FILTER (WHERE state = 'failed') AS failed
       FROM ${d.t('outbox')}`,
  )) as OutboxBacklog;
}

/** The start of the sync that queued the oldest row still owed (its age is what doctor warns about). */
export async function outboxOldestPending(client: SqlClient, d: Dialect): Promise<string | undefined> {
  const row = await client.get<{ at: string | null }>(
    `SELECT min(r.started_at) AS at FROM ${d.t('outbox')} o JOIN ${d.t('sync_runs')} r ON r.id = o.created_run
      WHERE o.state = 'pending'`,
  );
  return row?.at ?? undefined;
}
