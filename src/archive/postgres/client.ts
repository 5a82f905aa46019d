// The SQL client over pg: `?` numbered as $n, NUL kept out of text, writes under the schema's lock, listings by cursor.
import type pg from 'pg';
import type { SqlClient, TransactionKind } from '../sql/client.js';
import { pgTexts } from './pg-text.js';
import { cursorRows } from './cursor.js';
import { throughStop } from './stop.js';
import { inSnapshot, inTransaction, inWriteTransaction } from './transactions.js';

/** Told of the write and claim transactions: what a lost connection's message says was kept (work-done.ts). */
export interface TransactionWatch {
  began(kind: TransactionKind): void;
  committed(): void;
}

/** Shared code's SQL with `?` as PostgreSQL's $1, $2, ...: a `?` inside quotes is left alone. */
export function numbered(sql: string): string {
  let out = '';
  let n = 0;
  let quote: string | undefined;
  for (const ch of sql) {
    if (quote) {
      if (ch === quote) quote = undefined;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '?') {
      out += `$${++n}`;
      continue;
    }
    out += ch;
  }
  return out;
}

/** Each statement numbered once: the same few run for every page. */
const numberedSqls = new Map<string, string>();
function pgSql(sql: string): string {
  let text = numberedSqls.get(sql);
  if (text === undefined) {
    text = numbered(sql);
    numberedSqls.set(sql, text);
  }
  return text;
}

export class PgClient implements SqlClient {
  private depth = 0;

  constructor(
    readonly client: pg.Client,
    /** The schema's name, unquoted: its write lock's name. */
    private readonly schema: string,
    private readonly watch: TransactionWatch = { began: () => {}, committed: () => {} },
  ) {}

  private async query<T extends pg.QueryResultRow>(sql: string, params: readonly unknown[]) {
    // A catalogue's, a recall's or an error's NUL never reaches a text column (pg-text.ts).
    return this.client.query<T>(pgSql(sql), pgTexts([...params]));
  }

  async all<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return (await this.query(sql, params)).rows as T[];
  }

  async get<T>(sql: string, params: readonly unknown[] = []): Promise<T | undefined> {
    return (await this.query(sql, params)).rows[0] as T | undefined;
  }

  async run(sql: string, params: readonly unknown[] = []): Promise<number> {
    return (await this.query(sql, params)).rowCount ?? 0;
  }

  batches<T>(sql: string, params: readonly unknown[] = []): AsyncIterable<T[]> {
    return cursorRows(this.client, pgSql(sql), pgTexts([...params])) as AsyncIterable<T[]>;
  }

  async transaction<T>(kind: TransactionKind, fn: () => Promise<T>): Promise<T> {
    if (this.depth > 0) return fn();
    this.depth++;
    try {
      if (kind === 'read') return await inSnapshot(this.client, fn);
      this.watch.began(kind);
      let result: T;
      if (kind === 'claim') result = await inTransaction(this.client, 'BEGIN', fn);
      else if (kind === 'write') result = await inWriteTransaction(this.client, this.schema, fn);
      // A stop does not cut a write that records what already happened outside the archive.
      else result = await throughStop(this.client, () => inWriteTransaction(this.client, this.schema, fn, false));
      this.watch.committed();
      return result;
    } finally {
      this.depth--;
    }
  }
}
