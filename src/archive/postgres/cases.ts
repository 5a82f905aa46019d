// The case store on PostgreSQL: opens cases for match pairs (never twice), lists them with their timelines, and records each step.
import type pg from 'pg';
import { compileFilter, isEmptyFilter, type RecordFilter } from '../../filters/record-filter.js';
import { candidateDetail, canonicalJson } from '../cases-chain.js';
import { CaseNotFoundError } from '../cases-errors.js';
import type {
  CaseCandidate,
  CaseEventView,
  CaseQuery,
  CaseRow,
  CaseStatus,
  CaseStep,
  CaseView,
  StepBy,
} from '../cases-model.js';
import { caseView, EVENT_COLUMNS, eventsByCase, stepFields } from '../cases-steps.js';
import { appendEvent } from './cases-events.js';
import { inSnapshot, inWriteTransaction } from './transactions.js';

function where(q: CaseQuery): { sql: string; params: unknown[] } {
  const parts = ['c.status = ANY($1::text[])'];
  const params: unknown[] = [[...q.statuses]];
  if (q.levels && q.levels.length > 0) {
    params.push([...q.levels]);
    parts.push(`c.level = ANY($${params.length}::text[])`);
  }
  if (q.ids) {
    params.push([...q.ids]);
    parts.push(`c.id = ANY($${params.length}::bigint[])`);
  }
  return { sql: parts.join(' AND '), params };
}

/** One transaction: a case and its opened event for each new pair; a pair that has a case is left alone. */
export function openCases(
  client: pg.Client,
  s: string,
  schema: string,
  candidates: readonly CaseCandidate[],
  by: StepBy,
  levels?: readonly string[],
): Promise<{ opened: number; existing: number }> {
  return inWriteTransaction(client, schema, async () => {
    if (levels !== undefined)
      await client.query(
        `INSERT INTO ${s}.archive_meta (key, value) VALUES ('case_levels', $1)
         ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
        [levels.join(',')],
      );
    let opened = 0;
    for (const c of candidates) {
      const row = canonicalJson(c.catalogRow);
      // Looked up first (under the lock): a conflicting INSERT would still take an id, and ids would differ from SQLite's.
      const had = await client.query(`SELECT 1 FROM ${s}.cases WHERE catalog_key = $1 AND recall_id = $2`, [
        c.catalogKey,
        c.recallId,
      ]);
      if (had.rows.length > 0) continue;
      const made = await client.query<{ id: number }>(
        `INSERT INTO ${s}.cases (recall_id, catalog_key, level, reason, catalog_row, alert_title, status, outcome, opened_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, 'open', NULL, $7, $7) ON CONFLICT (catalog_key, recall_id) DO NOTHING RETURNING id`,
        [c.recallId, c.catalogKey, c.level, c.reason, row, c.alertTitle, by.at],
      );
      const id = made.rows[0]?.id;
      if (id === undefined) continue;
      opened++;
      const detail = candidateDetail(c, row);
      await appendEvent(client, s, { caseId: id, ...by, action: 'opened', status: 'open', outcome: null, detail });
    }
    return { opened, existing: candidates.length - opened };
  });
}

async function listIn(client: pg.Client, s: string, q: CaseQuery, filter: RecordFilter): Promise<CaseView[]> {
  const w = where(q);
  const { rows } = await client.query<CaseRow & { recall_raw: string | null }>(
    `SELECT c.*, r.raw AS recall_raw FROM ${s}.cases c LEFT JOIN ${s}.recalls r ON r.id = c.recall_id
      WHERE ${w.sql} ORDER BY c.id`,
    w.params,
  );
  const keep = isEmptyFilter(filter) ? undefined : compileFilter(filter);
  const chosen = keep
    ? rows.filter((r) => r.recall_raw !== null && keep(JSON.parse(r.recall_raw) as Record<string, unknown>))
    : rows;
  const events = await client.query<CaseEventView & { case_id: number; detail: string | null }>(
    `SELECT ${EVENT_COLUMNS} FROM ${s}.case_events e JOIN ${s}.cases c ON c.id = e.case_id
      WHERE ${w.sql} ORDER BY e.case_id, e.seq`,
    w.params,
  );
  const byCase = eventsByCase(events.rows);
  return chosen.map((r) => caseView(r, byCase.get(r.id)));
}

/** The cases `q` asks for, oldest first, each with its timeline; `filter` applies to the recall as archived. */
export function listCases(client: pg.Client, s: string, q: CaseQuery, filter: RecordFilter = {}): Promise<CaseView[]> {
  return inSnapshot(client, () => listIn(client, s, q, filter));
}

/** One case with its timeline, and its recall as the archive holds it now (undefined when it does not). */
export function caseWithRecall(
  client: pg.Client,
  s: string,
  id: number,
): Promise<{ case: CaseView; recall: Record<string, unknown> | undefined }> {
  return inSnapshot(client, async () => {
    const [found] = await listIn(client, s, { statuses: ['open', 'waiting', 'closed'], ids: [id] }, {});
    if (!found) throw new CaseNotFoundError(id);
    const { rows } = await client.query<{ raw: string }>(`SELECT raw FROM ${s}.recalls WHERE id = $1`, [
      found.recall_id,
    ]);
    return { case: found, recall: rows[0] ? (JSON.parse(rows[0].raw) as Record<string, unknown>) : undefined };
  });
}

/**
 * The same step on every case of `ids`, in one write transaction, one event each: an unknown id, or a case whose
 * status does not allow the step, refuses the whole step (nothing is written).
 */
export async function stepCases(
  client: pg.Client,
  s: string,
  schema: string,
  ids: readonly number[],
  step: CaseStep,
  by: StepBy,
): Promise<CaseView[]> {
  await inWriteTransaction(client, schema, async () => {
    const { rows } = await client.query<{ id: number; status: CaseStatus; outcome: string | null }>(
      `SELECT id, status, outcome FROM ${s}.cases WHERE id = ANY($1::bigint[])`,
      [[...ids]],
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    const planned = ids.map((id) => {
      const row = byId.get(id);
      if (!row) throw new CaseNotFoundError(id);
      return { id, fields: stepFields(id, row, step) };
    });
    for (const { id, fields } of planned) await appendEvent(client, s, { caseId: id, ...by, ...fields, detail: null });
  });
  const after = new Map(
    (await listCases(client, s, { statuses: ['open', 'waiting', 'closed'], ids })).map((c) => [c.id, c]),
  );
  return ids.map((id) => after.get(id) as CaseView);
}

/** Resolve, wait or reopen one case. */
export async function stepCase(
  client: pg.Client,
  s: string,
  schema: string,
  id: number,
  step: CaseStep,
  by: StepBy,
): Promise<CaseView> {
  return (await stepCases(client, s, schema, [id], step, by))[0] as CaseView;
}
