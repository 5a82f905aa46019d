// Cases: opened once per catalogue key and recall, listed with their timelines, each step recorded as an event.
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
import type { Dialect, Fragment, SqlClient } from '../sql/client.js';
import { appendEvent } from './cases-events.js';
import { setMeta } from './meta.js';

const EVERY_STATUS: CaseQuery['statuses'] = ['open', 'waiting', 'closed'];

function where(d: Dialect, q: CaseQuery): Fragment {
  const parts = [
    d.anyOf('c.status', q.statuses.length > 0 ? q.statuses : [''], 'text'),
    ...(q.levels && q.levels.length > 0 ? [d.anyOf('c.level', q.levels, 'text')] : []),
    ...(q.ids ? [d.anyOf('c.id', q.ids.length > 0 ? q.ids : [-1], 'bigint')] : []),
  ];
  return { sql: parts.map((p) => p.sql).join(' AND '), params: parts.flatMap((p) => p.params) };
}

/** One write transaction: a case and its opened event for each new pair; a pair that has a case is left alone. */
export function openCases(
  client: SqlClient,
  d: Dialect,
  candidates: readonly CaseCandidate[],
  by: StepBy,
  levels?: readonly string[],
): Promise<{ opened: number; existing: number; ids: number[] }> {
  return client.transaction('write', async () => {
    // Each candidate's case, new or already there, in the candidates' order: a caller finds it by id, not by the
    // candidate's own text (which the engine may store otherwise: a lone surrogate as U+FFFD).
    const ids: number[] = [];
    if (levels !== undefined) await setMeta(client, d, 'case_levels', levels.join(','));
    let opened = 0;
    // As stored: the case row and its opened event's detail agree (cases verify compares them).
    for (const c of d.texts(candidates)) {
      const row = canonicalJson(c.catalogRow);
      // Looked up first (under the lock): a conflicting INSERT would still take an id on PostgreSQL.
      const had = await client.get<{ id: number }>(
        `SELECT id FROM ${d.t('cases')} WHERE catalog_key = ? AND recall_id = ?`,
        [c.catalogKey, c.recallId],
      );
      if (had !== undefined) {
        ids.push(Number(had.id));
        continue;
      }
      const made = await client.get<{ id: number }>(
        `INSERT INTO ${d.t('cases')} (recall_id, catalog_key, level, reason, catalog_row, alert_title, status, outcome, opened_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, 'open', NULL, ?, ?) ON CONFLICT (catalog_key, recall_id) DO NOTHING RETURNING id`,
        [c.recallId, c.catalogKey, c.level, c.reason, row, c.alertTitle, by.at, by.at],
      );
      if (made === undefined) continue;
      ids.push(Number(made.id));
      opened++;
      const detail = candidateDetail(c, row);
      await appendEvent(client, d, { caseId: made.id, ...by, action: 'opened', status: 'open', outcome: null, detail });
    }
    return { opened, existing: candidates.length - opened, ids };
  });
}

/** The cases `q` asks for, oldest first, each with its timeline, in one snapshot; `filter` applies to the recall. */
export function listCases(client: SqlClient, d: Dialect, q: CaseQuery, filter: RecordFilter = {}): Promise<CaseView[]> {
  return client.transaction('read', async () => {
    const w = where(d, q);
    const rows = await client.all<CaseRow & { recall_raw: string | null }>(
      `SELECT c.*, r.raw AS recall_raw FROM ${d.t('cases')} c LEFT JOIN ${d.t('recalls')} r ON r.id = c.recall_id
        WHERE ${w.sql} ORDER BY c.id`,
      w.params,
    );
    const keep = isEmptyFilter(filter) ? undefined : compileFilter(filter);
    const chosen = keep
      ? rows.filter((r) => r.recall_raw !== null && keep(JSON.parse(r.recall_raw) as Record<string, unknown>))
      : rows;
    const events = await client.all<CaseEventView & { case_id: number; detail: string | null }>(
      `SELECT ${EVENT_COLUMNS} FROM ${d.t('case_events')} e JOIN ${d.t('cases')} c ON c.id = e.case_id
        WHERE ${w.sql} ORDER BY e.case_id, e.seq`,
      w.params,
    );
    const byCase = eventsByCase(events);
    return chosen.map((r) => caseView(r, byCase.get(r.id)));
  });
}

/** One case with its timeline, and its recall as the archive holds it now (undefined when it does not). */
export function caseWithRecall(
  client: SqlClient,
  d: Dialect,
  id: number,
): Promise<{ case: CaseView; recall: Record<string, unknown> | undefined }> {
  return client.transaction('read', async () => {
    const [found] = await listCases(client, d, { statuses: EVERY_STATUS, ids: [id] });
    if (!found) throw new CaseNotFoundError(id);
    const row = await client.get<{ raw: string }>(`SELECT raw FROM ${d.t('recalls')} WHERE id = ?`, [found.recall_id]);
    return { case: found, recall: row ? (JSON.parse(row.raw) as Record<string, unknown>) : undefined };
  });
}

/**
 * The same step on every case of `ids`, in one write transaction, one event each: an unknown id, or a case whose
 * status does not allow the step, refuses the whole step (nothing is written).
 */
export async function stepCases(
  client: SqlClient,
  d: Dialect,
  ids: readonly number[],
  step: CaseStep,
  by: StepBy,
): Promise<CaseView[]> {
  await client.transaction('write', async () => {
    const these = d.anyOf('id', ids.length > 0 ? ids : [-1], 'bigint');
    const rows = await client.all<{ id: number; status: CaseStatus; outcome: string | null }>(
      `SELECT id, status, outcome FROM ${d.t('cases')} WHERE ${these.sql}`,
      these.params,
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    const planned = ids.map((id) => {
      const row = byId.get(id);
      if (!row) throw new CaseNotFoundError(id);
      return { id, fields: stepFields(id, row, step) };
    });
    for (const { id, fields } of planned) await appendEvent(client, d, { caseId: id, ...by, ...fields, detail: null });
  });
  const after = new Map((await listCases(client, d, { statuses: EVERY_STATUS, ids })).map((c) => [c.id, c]));
  return ids.map((id) => after.get(id) as CaseView);
}
