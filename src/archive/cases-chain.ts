// The case timeline's hash chain: a canonical serialisation of each event, its sha256, and the check of the whole chain.
import { createHash } from 'node:crypto';
import type { CaseCandidate, CaseRow, NewEvent, OpenedDetail } from './cases-model.js';

/** The previous hash of the very first event. */
export const GENESIS = '0'.repeat(64);

/** An event as stored in case_events; every field but `hash` is covered by the hash. */
export interface StoredEvent {
  seq: number;
  case_id: number;
  at: string;
  actor: string;
  action: string;
  status: string;
  outcome: string | null;
  note: string | null;
  detail: string | null;
  prev_hash: string;
  hash: string;
}

/**
 * The canonical text of an event: a JSON array in a fixed order (no key order to disagree on), so anyone can
 * recompute a hash with any JSON library: sha256 of the UTF-8 of this text, as lower-case hex.
 */
export function canonicalEvent(e: Omit<StoredEvent, 'hash'>): string {
  return JSON.stringify([
    e.seq,
    e.case_id,
    e.at,
    e.actor,
    e.action,
    e.status,
    e.outcome,
    e.note,
    e.detail,
    e.prev_hash,
  ]);
}

export function eventHash(e: Omit<StoredEvent, 'hash'>): string {
  return createHash('sha256').update(canonicalEvent(e), 'utf8').digest('hex');
}

/** `e` as the next stored event after `head` (the newest, or none): numbered, chained and hashed. */
export function chainedEvent(head: { seq: number; hash: string } | undefined, e: NewEvent): StoredEvent {
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
  return { ...unhashed, hash: eventHash(unhashed) };
}

/** JSON with its object keys sorted at every level: the `detail` of an event, hashed as text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}

export interface ChainBreak {
  /** The first event that does not fit (or the one expected where events are missing). */
  seq: number;
  caseId: number | undefined;
  problem: string;
}

export interface ChainCheck {
  /** The events that checked out, from the first: every event of a sound chain, those before the break of a broken one. */
  events: number;
  /**
   * The hash of the last event (GENESIS for an empty log): write it down to detect a later truncation. Null when the
   * chain is broken: no hash is then the head of the log as written.
   */
  head: string | null;
  broken: ChainBreak | undefined;
}

/** Walks the events in seq order: numbering without gaps, each prev_hash the hash before, each hash recomputed. */
export function checkChain(events: Iterable<StoredEvent>): ChainCheck {
  let expectedSeq = 1;
  let prev = GENESIS;
  let count = 0;
  for (const e of events) {
    const at = (problem: string): ChainCheck => ({
      events: count,
      head: null,
      broken: { seq: e.seq, caseId: e.case_id, problem },
    });
    if (e.seq !== expectedSeq) {
      return {
        events: count,
        head: null,
        broken: {
          seq: expectedSeq,
          caseId: undefined,
          problem:
            e.seq > expectedSeq
              ? `event ${expectedSeq}${e.seq - expectedSeq > 1 ? `–${e.seq - 1}` : ''} is missing (removed?)`
              : `event ${e.seq} is out of order`,
        },
      };
    }
    if (e.prev_hash !== prev) return at(`event ${e.seq} does not follow event ${e.seq - 1}: the chain was changed`);
    if (eventHash(e) !== e.hash) return at(`event ${e.seq} (case ${e.case_id}) was edited: its hash does not match`);
    prev = e.hash;
    expectedSeq++;
    count++;
  }
  return { events: count, head: prev, broken: undefined };
}

/**
 * The opened event's detail: what the case was opened on, so an edit of the cases row shows up in verify. Since
 * alert_title, due_at, sla and product_name are kept here too, always (null when none): a case opened by an
 * earlier version has only the first five keys, and verify checks what its detail holds.
 */
function openedDetail(
  c: Pick<CaseRow, 'recall_id' | 'catalog_key' | 'level' | 'reason' | 'catalog_row' | 'alert_title'> & {
    due_at: string | null;
    sla: string | null;
    product_name: string | null;
  },
) {
  return canonicalJson({
    recall_id: c.recall_id,
    catalog_key: c.catalog_key,
    level: c.level,
    reason: c.reason,
    catalog_row: JSON.parse(c.catalog_row) as unknown,
    alert_title: c.alert_title,
    due_at: c.due_at,
    sla: c.sla,
    product_name: c.product_name,
  });
}

/** An opened event's detail as stored (a JSON text), parsed; undefined when it is not one. */
export function parseOpenedDetail(detail: string | null): OpenedDetail | undefined {
  if (detail === null) return undefined;
  try {
    const parsed = JSON.parse(detail) as unknown;
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as OpenedDetail)
      : undefined;
  } catch {
    return undefined;
  }
}

/** What `cases verify` found: the chain's check, and how many cases it covered. */
export interface CaseLogCheck extends ChainCheck {
  cases: number;
}

/** The opened event's detail of a new case (both engines). */
export function candidateDetail(c: CaseCandidate, catalogRow: string): string {
  return openedDetail({
    recall_id: c.recallId,
    catalog_key: c.catalogKey,
    level: c.level,
    reason: c.reason,
    catalog_row: catalogRow,
    alert_title: c.alertTitle,
    due_at: c.dueAt ?? null,
    sla: c.sla ?? null,
    product_name: c.productName ?? null,
  });
}
