// Appends one event to the case log (hash-chained to the newest) and moves the case's status with it.
import type Database from 'better-sqlite3';
import { chainedEvent, type StoredEvent } from '../cases-chain.js';
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
    const stored = chainedEvent(this.head.get(), e);
    this.insert.run(stored);
    this.move.run(e.status, e.outcome, e.at, e.caseId);
    return stored;
  }
}
