// The outbox on SQLite: rows queued in the page's transaction, claimed with a lease on this host's clock (one host).
import type Database from 'better-sqlite3';
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

/** Queues the page's rows; called inside the page's transaction (upsert.ts), so both commit or neither. */
export class OutboxWriter {
  private readonly insert: Database.Statement;
  actions: OutboxActions | undefined;

  constructor(db: Database.Database) {
    this.insert = db.prepare(
      'INSERT OR IGNORE INTO outbox (recall_id, version, action, kind, raw, created_run) VALUES (?, ?, ?, ?, ?, ?)',
    );
  }

  queue(entry: OutboxEntry, runId: number): void {
    for (const row of outboxRows([entry], this.actions))
      this.insert.run(row.recallId, row.version, row.action, row.kind, row.raw, runId);
  }
}

export function claimOutbox(db: Database.Database, claim: OutboxClaim): OutboxItem[] {
  const marks = claim.actions.map(() => '?').join(', ');
  if (marks === '') return [];
  const take = db.transaction(() => {
    const rows = db
      .prepare(
        `SELECT id, recall_id, version, action, kind, raw, attempts FROM outbox
          WHERE state = 'pending' AND action IN (${marks}) AND (lease_until IS NULL OR lease_until < ?)
          ORDER BY id LIMIT ?`,
      )
      .all(...claim.actions, claim.nowMs, claim.limit) as OutboxRow[];
    const mark = db.prepare('UPDATE outbox SET claimed_by = ?, lease_until = ?, attempts = attempts + 1 WHERE id = ?');
    for (const row of rows) mark.run(claim.host, claim.nowMs + claim.leaseMs, row.id);
    return rows;
  });
  // Selected before the UPDATE counted this claim.
  return take.immediate().map((r) => outboxItem({ ...r, attempts: r.attempts + 1 }));
}

/** Renews only rows this host claimed last and still owes: one whose lease ended and another host took stays theirs. */
export function renewOutbox(db: Database.Database, renewal: OutboxRenewal): number[] {
  if (renewal.ids.length === 0) return [];
  const marks = renewal.ids.map(() => '?').join(', ');
  const rows = db
    .prepare(
      `UPDATE outbox SET lease_until = ? WHERE id IN (${marks}) AND claimed_by = ? AND state = 'pending' RETURNING id`,
    )
    .all(renewal.nowMs + renewal.leaseMs, ...renewal.ids, renewal.host) as { id: number }[];
  return rows.map((r) => r.id);
}

export function settleOutbox(db: Database.Database, id: number, outcome: OutboxOutcome, nowMs: number): void {
  if (outcome.ok) {
    db.prepare("UPDATE outbox SET state = 'done', done_at = ?, last_error = NULL, lease_until = NULL WHERE id = ?").run(
      new Date(nowMs).toISOString(),
      id,
    );
    return;
  }
  db.prepare('UPDATE outbox SET state = ?, last_error = ?, lease_until = ? WHERE id = ?').run(
    outcome.giveUp ? 'failed' : 'pending',
    outcome.error,
    nowMs + outcome.retryInMs,
    id,
  );
}

/** False on an archive of an earlier version opened read-only: it has no outbox, so nothing is owed. */
function hasOutbox(db: Database.Database): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'outbox'").get() !== undefined;
}

export function outboxBacklog(db: Database.Database): OutboxBacklog {
  if (!hasOutbox(db)) return { pending: 0, retrying: 0, failed: 0 };
  return db
    .prepare(
      `SELECT count(*) FILTER (WHERE state = 'pending') AS pending,
              count(*) FILTER (WHERE state = 'pending' AND last_error IS NOT NULL) AS retrying,
              count(*) FILTER (WHERE state = 'failed') AS failed
         FROM outbox`,
    )
    .get() as OutboxBacklog;
}

/** The start of the sync that queued the oldest row still owed (its age is what doctor warns about). */
export function outboxOldestPending(db: Database.Database): string | undefined {
  if (!hasOutbox(db)) return undefined;
  const row = db
    .prepare(
      `SELECT min(r.started_at) AS at FROM outbox o JOIN sync_runs r ON r.id = o.created_run WHERE o.state = 'pending'`,
    )
    .get() as { at: string | null } | undefined;
  return row?.at ?? undefined;
}
