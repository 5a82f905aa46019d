// Appends one event to the case log (hash-chained to the newest) and moves the case's status with it.
import type Database from 'better-sqlite3';
import { eventHash, GENESIS, type StoredEvent } from '../cases-chain.js';
import type { NewEvent } from '../cases-model.js';

/** Prepared once per connection; `append` must run inside a write transaction (the head must not move). */
export class EventWriter {
  private readonly head: Database.Statement<[], { seq: number; hash: string }>;
  private readonly insert: Database.Statement;
  private readonly move: Database.Statement;

  constructor(db: Database.Database) {
    this.head = db.prepare('SELECT seq, hash FROM case_events ORDER BY seq DESC LIMIT 1');
    this.insert = db.prepare(
      `INSERT INTO case_events (seq, case_id, at, actor, action, status, outcome, note, detail, prev_hash, hash)
       VALUES (@seq, @case_id, @at, @actor, @action, @status, @outcome, @note, @detail, @prev_hash, @hash)`,
    );
    this.move = db.prepare('UPDATE cases SET status = ?, outcome = ?, updated_at = ? WHERE id = ?');
  }

  append(e: NewEvent): StoredEvent {
    const head = this.head.get();
    const unhashed = {
      seq: (head?.seq ?? 0) + 1,
      case_id: e.caseId,
      at: e.at,
      actor: e.actor,
      action: e.action,
      status: e.status,
      outcome: e.outcome,
      note: e.note,
      detail: e.detail,
      prev_hash: head?.hash ?? GENESIS,
    };
    const stored = { ...unhashed, hash: eventHash(unhashed) };
    this.insert.run(stored);
    this.move.run(e.status, e.outcome, e.at, e.caseId);
    return stored;
  }
}
