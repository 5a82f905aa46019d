// PostgreSQL's side of a page: the decided records in one multi-row INSERT … ON CONFLICT, then their commit stamp.
import type pg from 'pg';
import { ftsValues, recordColumns, SQL_FILTERS, STAT_COLUMNS } from '../record-columns.js';
import type { PageRow, RecallWrite, RecallWriter } from '../sql/engine.js';
import type { PgClient } from './client.js';
import { stampWrites } from './commit-stamp.js';
import { jsonbText, pgText } from './pg-text.js';
import { tsvectorText } from './search.js';

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
/** recall_stats' columns (schema v6), copied from the row recalls keeps: what stats counts by. */
const STATS_ROW = ['id', 'published_us', 'data_source', ...STATS];

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
  // The WHERE keeps a newer stored version even from a writer that did not take the lock. The rows it wrote, and only
  // those, go on to recall_stats (schema v6) in the same statement, so the two tables never disagree.
  return `WITH written AS (
    INSERT INTO ${s}.recalls (${COLUMNS.join(', ')}) VALUES ${tuples.join(', ')}
    ON CONFLICT (id) DO UPDATE SET ${changed.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}
    WHERE recalls.raw IS DISTINCT FROM EXCLUDED.raw
      AND (EXCLUDED.updated_us IS NULL OR recalls.updated_us IS NULL OR EXCLUDED.updated_us >= recalls.updated_us)
    RETURNING ${STATS_ROW.join(', ')})
    INSERT INTO ${s}.recall_stats (${STATS_ROW.join(', ')}) SELECT ${STATS_ROW.join(', ')} FROM written
    ON CONFLICT (id) DO UPDATE SET ${STATS_ROW.slice(1)
      .map((c) => `${c} = EXCLUDED.${c}`)
      .join(', ')}`;
}

/** A text[] literal (`{"a","b"}`), from the JSON array text record-columns.ts makes for SQLite. */
function arrayLiteral(json: string): string {
  const values = JSON.parse(json) as string[];
  return `{${values.map((v) => `"${pgText(v).replace(/[\\"]/g, '\\$&')}"`).join(',')}}`;
}

/**
 * The page's rows, computed up front (sort keys, folded filters, the tsvector text): the store calls this before it
 * queues the page's transaction, so a sync prepares one page while the server stores the last. Each row's values
 * after id, version, first_run and version_run, in COLUMNS order.
 */
function prepareRows(rows: readonly PageRow[]): unknown[][] {
  return rows.map(({ record, raw }) => {
    const row = recordColumns(record, raw) as unknown as Record<string, unknown>;
    // Text columns never hold a NUL (PostgreSQL refuses it); raw is JSON text, where a NUL is written \u0000.
    return [
      ...SCALARS.map((c) => pgText(row[c])),
      ...LIST_FILTERS.map((f) => arrayLiteral(row[`filter_${f}`] as string)),
      ...TEXT_FILTERS.map((f) => pgText(row[`filter_${f}`])),
      // jsonb refuses the escapes of a NUL and a lone surrogate: U+FFFD, as rawJsonb (pg-text.ts) casts raw. raw itself
      // is JSON.stringify's text, escapes and all, so that the next sync finds it unchanged (upsert.ts).
      ...STATS.map((c) => jsonbText(row[c] as string | null)),
      raw,
      tsvectorText(ftsValues(record)),
    ];
  });
}

export class PostgresRecalls implements RecallWriter {
  constructor(
    private readonly s: string,
    /** Told of each page handed over: only a sync stores pages. */
    private readonly onPage: () => void = () => {},
  ) {}

  prepare(rows: readonly PageRow[]): unknown[][] {
    this.onPage();
    return prepareRows(rows);
  }

  async write(sql: PgClient, prepared: unknown, writes: readonly RecallWrite[], runId: number): Promise<void> {
    if (writes.length === 0) return;
    const client: pg.Client = sql.client;
    const rows = prepared as unknown[][];
    // A recall twice in the page: its last version only (one INSERT may not touch a row twice); the first is history.
    const byId = new Map(
      writes.map((w) => [w.row.record.id, [w.row.record.id, w.version, runId, runId, ...(rows[w.index] ?? [])]]),
    );
    const values = [...byId.values()];
    for (let i = 0; i < values.length; i += ROWS_PER_INSERT) {
      const part = values.slice(i, i + ROWS_PER_INSERT);
      // A named statement: the server parses and plans this many-parameter INSERT once per connection, not per
      // page. One store is one connection on one schema, so the row count alone tells the statements apart.
      await client.query({
        name: `recall-feed-upsert-${part.length}`,
        text: upsertSql(this.s, part.length),
        values: part.flat(),
      });
    }
    // Stamped under the lock with the database's clock: a digest attributes recalls by it (commit-stamp.ts).
    await stampWrites(client, this.s, [...byId.keys()]);
  }
}
