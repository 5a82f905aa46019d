// Stores a page in one transaction: one writer decides at a time (an advisory lock), updates never roll a record back.
import type pg from 'pg';
import { ftsValues, recordColumns, SQL_FILTERS, STAT_COLUMNS } from '../record-columns.js';
import type { ArchivedRecord, UpsertCounts } from '../store.js';
import { casesOnRecallUpdates, type RecallUpdate } from './cases-reopen.js';
import { stampWrites } from './commit-stamp.js';
import type { OutboxActions, OutboxEntry } from '../outbox-model.js';
import { queueOutbox } from './outbox.js';
import { pgText } from './pg-text.js';
import { tsvectorText } from './search.js';
import { inWriteTransaction } from './transactions.js';

/** The columns written per record; list filters travel as text[] literals, the search column as tsvector text. */
const SCALARS = ['data_source', 'published_at', 'updated_at', 'published_us', 'updated_us', 'created_us'] as const;
const LIST_FILTERS = ['severity', 'status', 'risk', 'jurisdiction'] as const;
const TEXT_FILTERS = SQL_FILTERS.filter((f) => !(LIST_FILTERS as readonly string[]).includes(f));
const STATS = Object.keys(STAT_COLUMNS).map((f) => `stat_${f}`);

const COLUMNS = [
  'id',
  'version',
  'first_run',
  'version_run',
  ...SCALARS,
  ...LIST_FILTERS.map((f) => `filter_${f}`),
  ...TEXT_FILTERS.map((f) => `filter_${f}`),
  ...STATS,
  'raw',
  'search',
];
/** Each column's SQL type, in COLUMNS order. */
const CASTS = [
  'bigint',
  'int',
  'bigint',
  'bigint',
  ...['text', 'text', 'text', 'bigint', 'bigint', 'bigint'],
  ...LIST_FILTERS.map(() => 'text[]'),
  ...TEXT_FILTERS.map(() => 'text'),
  ...STATS.map(() => 'jsonb'),
  'text',
  'tsvector',
];

/** Rows per INSERT: a statement takes at most 65,535 parameters. */
const ROWS_PER_INSERT = 1000;

/**
 * One INSERT of `rows` rows, each value a parameter of its own: texts travel as they are (an array
 * parameter would escape every quote of every record's JSON, and the server parse it back).
 */
function upsertSql(s: string, rows: number): string {
  const key = `${s}:${rows}`;
  const known = upsertSqls.get(key);
  if (known !== undefined) return known;
  const sql = buildUpsertSql(s, rows);
  upsertSqls.set(key, sql);
  return sql;
}

/** The statements built so far: a sync sends the same one (a full page) hundreds of times. */
const upsertSqls = new Map<string, string>();

function buildUpsertSql(s: string, rows: number): string {
  const width = COLUMNS.length;
  const tuples = Array.from(
    { length: rows },
    (_, r) => `(${CASTS.map((t, c) => `$${r * width + c + 1}::${t}`).join(', ')})`,
  );
  const changed = COLUMNS.filter((c) => c !== 'id' && c !== 'first_run');
  // The WHERE keeps a newer stored version even from a writer that did not take the lock.
  return `INSERT INTO ${s}.recalls (${COLUMNS.join(', ')}) VALUES ${tuples.join(', ')}
    ON CONFLICT (id) DO UPDATE SET ${changed.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}
    WHERE recalls.raw IS DISTINCT FROM EXCLUDED.raw
      AND (EXCLUDED.updated_us IS NULL OR recalls.updated_us IS NULL OR EXCLUDED.updated_us >= recalls.updated_us)`;
}

/** A text[] literal (`{"a","b"}`), from the JSON array text record-columns.ts makes for SQLite. */
function arrayLiteral(json: string): string {
  const values = JSON.parse(json) as string[];
  return `{${values.map((v) => `"${pgText(v).replace(/[\\"]/g, '\\$&')}"`).join(',')}}`;
}

/** JSON text for a jsonb column, `\u0000` replaced as rawJsonb replaces it. */
function jsonbText(json: string | null): string | null {
  return json?.includes('\\u0000') ? json.replaceAll('\\u0000', '\\ufffd') : json;
}

interface Stored {
  raw: string;
  version: number;
  updated_at: string | null;
  updated_us: number | null;
  version_run: number | null;
}

/** Rows of a write, column by column (what unnest takes). */
class Columns {
  readonly arrays: unknown[][];
  constructor(width: number) {
    this.arrays = Array.from({ length: width }, () => []);
  }
  push(values: readonly unknown[]): void {
    for (const [i, v] of values.entries()) (this.arrays[i] as unknown[]).push(v);
  }
  get size(): number {
    return (this.arrays[0] as unknown[]).length;
  }
}

/** A record made ready to store, before any transaction: what does not depend on what the archive holds. */
export interface PreparedRow {
  record: ArchivedRecord;
  raw: string;
  updated_at: string | null;
  updated_us: number | null;
  /** The row's values after id, version, first_run and version_run, in COLUMNS order. */
  values: unknown[];
}

/**
 * The page's rows, computed up front (JSON text, sort keys, folded filters, the tsvector text): the store calls
 * this before it queues the page's transaction, so a sync prepares one page while the server stores the last.
 */
export function prepareRows(records: readonly ArchivedRecord[]): PreparedRow[] {
  return records.map((record) => {
    const raw = JSON.stringify(record);
    const columns = recordColumns(record, raw);
    const row = columns as unknown as Record<string, unknown>;
    return {
      record,
      raw,
      updated_at: pgText(columns.updated_at),
      updated_us: columns.updated_us,
      // Text columns never hold a NUL (PostgreSQL refuses it); raw is JSON text, where a NUL is written \u0000.
      values: [
        ...SCALARS.map((c) => pgText(row[c])),
        ...LIST_FILTERS.map((f) => arrayLiteral(row[`filter_${f}`] as string)),
        ...TEXT_FILTERS.map((f) => pgText(row[`filter_${f}`])),
        // jsonb refuses the escape \u0000: the stand-in rawJsonb (pg-text.ts) puts in raw's place, so both agree.
        ...STATS.map((c) => jsonbText(row[c] as string | null)),
        raw,
        tsvectorText(ftsValues(record)),
      ],
    };
  });
}

export async function upsertPage(
  client: pg.Client,
  s: string,
  schema: string,
  rows: readonly PreparedRow[],
  runId: number,
  outbox?: OutboxActions,
): Promise<UpsertCounts> {
  const counts: UpsertCounts = { added: 0, updated: 0, unchanged: 0 };
  // One writer decides at a time: two syncs never both find a record new, nor both store one change.
  return inWriteTransaction(client, schema, async () => {
    const found = await client.query<Stored & { id: number }>(
      `SELECT id, raw, version, updated_at, updated_us, version_run FROM ${s}.recalls WHERE id = ANY($1::bigint[])`,
      [rows.map((r) => r.record.id)],
    );
    const stored = new Map<number, Stored>(found.rows.map((r) => [r.id, r]));
    const writes = new Map<number, unknown[]>();
    const history = new Columns(6);
    const updates: RecallUpdate[] = [];
    const queued: OutboxEntry[] = [];
    for (const row of rows) {
      const { record, raw } = row;
      const old = stored.get(record.id);
      if (old?.raw === raw) {
        counts.unchanged++;
        continue;
      }
      // An older version arriving late (a concurrent sync that fetched before the change) is not stored.
      if (old && row.updated_us !== null && old.updated_us !== null && row.updated_us < old.updated_us) {
        counts.unchanged++;
        continue;
      }
      const version = old ? old.version + 1 : 1;
      queued.push({ recallId: record.id, version, kind: old ? 'update' : 'new', raw });
      if (old) {
        history.push([record.id, old.version, old.updated_at, old.version_run, runId, old.raw]);
        updates.push({ recallId: record.id, version, oldRaw: old.raw, record });
        counts.updated++;
      } else counts.added++;
      stored.set(record.id, {
        raw,
        version,
        updated_at: row.updated_at,
        updated_us: row.updated_us,
        version_run: runId,
      });
      writes.set(record.id, [record.id, version, runId, runId, ...row.values]);
    }
    if (history.size > 0) {
      await client.query(
        `INSERT INTO ${s}.recall_versions (recall_id, version, updated_at, stored_run, replaced_run, raw)
           SELECT * FROM unnest($1::bigint[], $2::int[], $3::text[], $4::bigint[], $5::bigint[], $6::text[])
           ON CONFLICT DO NOTHING`,
        history.arrays,
      );
    }
    const values = [...writes.values()];
    for (let i = 0; i < values.length; i += ROWS_PER_INSERT) {
      const part = values.slice(i, i + ROWS_PER_INSERT);
      // A named statement: the server parses and plans this many-parameter INSERT once per connection, not per
      // page. One store is one connection on one schema, so the row count alone tells the statements apart.
      await client.query({
        name: `recall-feed-upsert-${part.length}`,
        text: upsertSql(s, part.length),
        values: part.flat(),
      });
    }
    // Stamped under the lock with the database's clock: a digest attributes recalls by it (commit-stamp.ts).
    await stampWrites(client, s, [...writes.keys()]);
    // In this page's transaction: the new versions and their cases' "recall updated" events commit together.
    await casesOnRecallUpdates(client, s, updates);
    // The actions these recalls owe, in the same transaction: queued exactly when they are stored.
    await queueOutbox(client, s, queued, outbox, runId);
    await client.query(
      `UPDATE ${s}.sync_runs SET fetched = fetched + $1, added = added + $2, updated = updated + $3,
         unchanged = unchanged + $4 WHERE id = $5`,
      [rows.length, counts.added, counts.updated, counts.unchanged, runId],
    );
    return counts;
  });
}
