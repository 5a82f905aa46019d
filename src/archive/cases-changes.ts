// What a new version of a recall changed, and the events the sync writes on its cases (both engines' reopen hook).
import { canonicalJson } from './cases-chain.js';
import { type CaseStatus, type NewEvent, type Outcome, SYNC_ACTOR } from './cases-model.js';

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

/** A case on the updated recall, as the hook reads it. */
export interface CaseOnRecall {
  id: number;
  status: CaseStatus;
  outcome: Outcome | null;
}

/** The events for a recall's new version: its closed cases reopen, the open and waiting ones hear of it. */
export function recallUpdatedEvents(
  cases: readonly CaseOnRecall[],
  version: number,
  oldRaw: string,
  record: Record<string, unknown>,
  at: string,
): NewEvent[] {
  if (cases.length === 0) return [];
  const changes = describeChanges(JSON.parse(oldRaw) as Record<string, unknown>, record);
  const note = `recall updated to version ${version}: ${changes.length > 0 ? changes.join('; ') : 'no field changed'}`;
  const detail = canonicalJson({ version, changes });
  return cases.map((c) => {
    const reopen = c.status === 'closed';
    return {
      caseId: c.id,
      at,
      actor: SYNC_ACTOR,
      action: reopen ? 'reopened' : 'recall-updated',
      status: reopen ? 'open' : c.status,
      outcome: reopen ? null : c.outcome,
      note,
      detail,
    };
  });
}
