// The outbox on PostgreSQL: rows queued in the page's transaction; any number of hosts claim them with
// FOR UPDATE SKIP LOCKED and a lease on the server's clock, so a host killed mid-delivery leaves its rows to another.
import type pg from 'pg';
import {
  type OutboxActions,
  type OutboxBacklog,
  type OutboxClaim,
  type OutboxEntry,
  type OutboxItem,
  type OutboxOutcome,
  type OutboxRenewal,
  type OutboxRow,
  outboxItem,
  outboxRows,
} from '../outbox-model.js';
import { pgText } from './pg-text.js';

/** Queues the rows the page's new recalls and versions owe; called inside the page's transaction (upsert.ts). */
export async function queueOutbox(
  client: pg.Client,
  s: string,
  entries: readonly OutboxEntry[],
  actions: OutboxActions | undefined,
  runId: number,
): Promise<void> {
  const rows = outboxRows(entries, actions);
  if (rows.length === 0) return;
  await client.query(
    `INSERT INTO ${s}.outbox (recall_id, version, action, kind, raw, created_run)
       SELECT r, v, a, k, w, $6 FROM unnest($1::bigint[], $2::int[], $3::text[], $4::text[], $5::text[]) AS t(r, v, a, k, w)
       ON CONFLICT DO NOTHING`,
    [
      rows.map((r) => r.recallId),
      rows.map((r) => r.version),
      rows.map((r) => r.action),
      rows.map((r) => r.kind),
      rows.map((r) => r.raw),
      runId,
    ],
  );
}

/**
 * One statement: the rows are locked while it picks them (SKIP LOCKED: two hosts never pick the same row), then
 * held by the lease alone, on the server's clock so that hosts whose clocks differ agree when a lease has ended.
 */
export async function claimOutbox(client: pg.Client, s: string, claim: OutboxClaim): Promise<OutboxItem[]> {
  if (claim.actions.length === 0) return [];
  const { rows } = await client.query<OutboxRow>(
    `UPDATE ${s}.outbox o
        SET claimed_by = $1, lease_until = clock_timestamp() + $2 * interval '1 millisecond', attempts = o.attempts + 1
      WHERE o.id IN (SELECT id FROM ${s}.outbox
                      WHERE state = 'pending' AND action = ANY($3::text[])
                        AND (lease_until IS NULL OR lease_until < clock_timestamp())
                      ORDER BY id LIMIT $4 FOR UPDATE SKIP LOCKED)
      RETURNING o.id, o.recall_id, o.version, o.action, o.kind, o.raw, o.attempts`,
    [claim.host, claim.leaseMs, [...claim.actions], claim.limit],
  );
  // RETURNING's order is not the subquery's: oldest first again.
  return rows.sort((a, b) => a.id - b.id).map(outboxItem);
}

/** Renews only rows this host claimed last and still owes: one whose lease ended and another host took stays theirs. */
export async function renewOutbox(client: pg.Client, s: string, renewal: OutboxRenewal): Promise<number[]> {
  if (renewal.ids.length === 0) return [];
  const { rows } = await client.query<{ id: number }>(
    `UPDATE ${s}.outbox SET lease_until = clock_timestamp() + $3 * interval '1 millisecond'
      WHERE id = ANY($1::bigint[]) AND claimed_by = $2 AND state = 'pending'
      RETURNING id`,
    [[...renewal.ids], renewal.host, renewal.leaseMs],
  );
  return rows.map((r) => Number(r.id));
}

export async function settleOutbox(client: pg.Client, s: string, id: number, outcome: OutboxOutcome): Promise<void> {
  if (outcome.ok) {
    await client.query(
      `UPDATE ${s}.outbox SET state = 'done', done_at = clock_timestamp(), last_error = NULL, lease_until = NULL WHERE id = $1`,
      [id],
    );
    return;
  }
  await client.query(
    `UPDATE ${s}.outbox SET state = $2, last_error = $3, lease_until = clock_timestamp() + $4 * interval '1 millisecond'
      WHERE id = $1`,
    [id, outcome.giveUp ? 'failed' : 'pending', pgText(outcome.error), outcome.retryInMs],
  );
}

export async function outboxBacklog(client: pg.Client, s: string): Promise<OutboxBacklog> {
  const { rows } = await client.query<OutboxBacklog>(
    `SELECT count(*) FILTER (WHERE state = 'pending')::int AS pending,
            count(*) FILTER (WHERE state = 'pending' AND last_error IS NOT NULL)::int AS retrying,
            count(*) FILTER (WHERE state = 'failed')::int AS failed
       FROM ${s}.outbox`,
  );
  return rows[0] as OutboxBacklog;
}

/** The start of the sync that queued the oldest row still owed (its age is what doctor warns about). */
export async function outboxOldestPending(client: pg.Client, s: string): Promise<string | undefined> {
  const { rows } = await client.query<{ at: string | null }>(
    `SELECT min(r.started_at) AS at FROM ${s}.outbox o JOIN ${s}.sync_runs r ON r.id = o.created_run
      WHERE o.state = 'pending'`,
  );
  return rows[0]?.at ?? undefined;
}
