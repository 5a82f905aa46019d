// Stores a page in one write transaction: new recalls inserted, changed ones given a new version, the old one kept.
import type { OutboxActions, OutboxEntry } from '../outbox-model.js';
import { micros } from '../record-columns.js';
import type { Dialect, SqlClient } from '../sql/client.js';
import type { PageRow, RecallWrite, RecallWriter, StoredRecall } from '../sql/engine.js';
import { insertRows } from '../sql/insert.js';
import type { ArchivedRecord, UpsertCounts } from '../store.js';
import { casesOnRecallUpdates, type RecallUpdate } from './cases-reopen.js';
import { queueOutbox } from './outbox.js';

/** The page's JSON texts: computed before its turn. */
export function pageRows(records: readonly ArchivedRecord[]): PageRow[] {
  return records.map((record) => ({ record, raw: JSON.stringify(record) }));
}

const HISTORY = ['recall_id', 'version', 'updated_at', 'stored_run', 'replaced_run', 'raw'];

/** What a page changes, given what the archive holds: same bytes, or an older version arriving late, change nothing. */
function decide(rows: readonly PageRow[], stored: Map<number, StoredRecall>, runId: number, counts: UpsertCounts) {
  const writes: RecallWrite[] = [];
  for (const [index, row] of rows.entries()) {
    const { record, raw } = row;
    const old = stored.get(record.id);
    if (old?.raw === raw) {
      counts.unchanged++;
      continue;
    }
    // Only now, for the few records that differ: an older version arriving late (a concurrent sync that fetched
    // before the change) is not stored.
    const updatedUs = micros(record.updated_at);
    if (old && updatedUs !== null && old.updated_us !== null && updatedUs < old.updated_us) {
      counts.unchanged++;
      continue;
    }
    const version = old ? old.version + 1 : 1;
    writes.push({ row, index, version, old });
    if (old) counts.updated++;
    else counts.added++;
    // A record twice in one page: the second compares with the first.
    const updated_at = typeof record.updated_at === 'string' ? record.updated_at : null;
    stored.set(record.id, { id: record.id, raw, version, updated_at, updated_us: updatedUs, version_run: runId });
  }
  return writes;
}

/**
 * One page, both or neither: its recalls, their history, their cases' events (stamped by the run's clock), their
 * outbox rows, the run's counts.
 */
export function upsertPage(
  client: SqlClient,
  d: Dialect,
  writer: RecallWriter,
  page: { rows: readonly PageRow[]; prepared: unknown },
  runId: number,
  outbox: OutboxActions | undefined,
  now: () => number,
): Promise<UpsertCounts> {
  const { rows } = page;
  // The write lock first: two syncs never both find a record new, nor both store one change.
  return client.transaction('write', async () => {
    const counts: UpsertCounts = { added: 0, updated: 0, unchanged: 0 };
    const ids = d.anyOf('id', [...new Set(rows.map((r) => r.record.id))], 'bigint');
    const found = rows.length
      ? await client.all<StoredRecall>(
          `SELECT id, raw, version, updated_at, updated_us, version_run FROM ${d.t('recalls')} WHERE ${ids.sql}`,
          ids.params,
        )
      : [];
    const writes = decide(rows, new Map(found.map((r) => [r.id, r])), runId, counts);
    const replaced = writes.filter((w) => w.old !== undefined);
    const history = replaced.map(({ row, old }) => {
      const o = old as StoredRecall;
      return [row.record.id, o.version, o.updated_at, o.version_run, runId, o.raw];
    });
    await insertRows(client, d.t('recall_versions'), HISTORY, history, 'ON CONFLICT DO NOTHING');
    await writer.write(client, page.prepared, writes, runId);
    // In this page's transaction: the new versions and their cases' "recall updated" events commit together.
    const updates: RecallUpdate[] = replaced.map(({ row, version, old }) => ({
      recallId: row.record.id,
      version,
      oldRaw: (old as StoredRecall).raw,
      record: row.record,
    }));
    await casesOnRecallUpdates(client, d, updates, now);
    // The actions these recalls owe, in the same transaction: queued exactly when they are stored.
    const queued: OutboxEntry[] = writes.map(({ row, version, old }) => ({
      recallId: row.record.id,
      version,
      kind: old ? 'update' : 'new',
      raw: row.raw,
    }));
    await queueOutbox(client, d, queued, outbox, runId);
    await client.run(
      `UPDATE ${d.t('sync_runs')} SET fetched = fetched + ?, added = added + ?, updated = updated + ?,
         unchanged = unchanged + ? WHERE id = ?`,
      [rows.length, counts.added, counts.updated, counts.unchanged, runId],
    );
    return counts;
  });
}
