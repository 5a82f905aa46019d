// The sync's hook on cases: a new version of a recall reopens its closed cases, and notes the change on the others.
import type Database from 'better-sqlite3';
import { type CaseOnRecall, recallUpdatedEvents } from '../cases-changes.js';
import { EventWriter } from './cases-events.js';

export class CaseReopener {
  private readonly find: Database.Statement<[number], CaseOnRecall>;
  private readonly events: EventWriter;
  private readonly now: () => number;

  constructor(db: Database.Database, now: () => number) {
    this.find = db.prepare('SELECT id, status, outcome FROM cases WHERE recall_id = ? ORDER BY id');
    this.events = new EventWriter(db);
    this.now = now;
  }

  /** Runs inside the sync's page transaction: the new version and these events are stored together or not at all. */
  recallUpdated(recallId: number, version: number, oldRaw: string, record: Record<string, unknown>): void {
    const cases = this.find.all(recallId);
    const at = new Date(this.now()).toISOString();
    for (const e of recallUpdatedEvents(cases, version, oldRaw, record, at)) this.events.append(e);
  }
}
