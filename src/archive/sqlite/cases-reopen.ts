// The sync's hook on cases: a new version of a recall reopens its closed cases, and notes the change on the others.
import type Database from 'better-sqlite3';
import { canonicalJson } from '../cases-chain.js';
import { EventWriter } from './cases-events.js';
import { SYNC_ACTOR, type CaseStatus, type Outcome } from '../cases-model.js';

/** A value short enough to quote in "field: before → after"; longer text is only said to have changed. */
const QUOTABLE = 80;

function shown(value: unknown): string | undefined {
  if (value === undefined) return 'absent';
  if (value === null) return 'none';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'string' && value.length <= QUOTABLE) return value === '' ? "''" : value;
  return undefined;
}

/** What changed between two versions of a recall, field by field, in the new version's field order. */
export function describeChanges(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const fields = [...new Set([...Object.keys(after), ...Object.keys(before)])];
  const out: string[] = [];
  for (const field of fields) {
    const [a, b] = [before[field], after[field]];
    if (JSON.stringify(a) === JSON.stringify(b)) continue;
    const [sa, sb] = [shown(a), shown(b)];
    out.push(sa !== undefined && sb !== undefined ? `${field}: ${sa} → ${sb}` : `${field} changed`);
  }
  return out;
}

export class CaseReopener {
  private readonly find: Database.Statement<[number], { id: number; status: CaseStatus; outcome: Outcome | null }>;
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
    if (cases.length === 0) return;
    const changes = describeChanges(JSON.parse(oldRaw) as Record<string, unknown>, record);
    const note = `recall updated to version ${version}: ${changes.length > 0 ? changes.join('; ') : 'no field changed'}`;
    const detail = canonicalJson({ version, changes });
    const at = new Date(this.now()).toISOString();
    for (const c of cases) {
      const reopen = c.status === 'closed';
      this.events.append({
        caseId: c.id,
        at,
        actor: SYNC_ACTOR,
        action: reopen ? 'reopened' : 'recall-updated',
        status: reopen ? 'open' : c.status,
        outcome: reopen ? null : c.outcome,
        note,
        detail,
      });
    }
  }
}
