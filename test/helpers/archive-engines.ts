// An archive for an end-to-end test on either engine: the --db value the CLI gets, and a look at what it holds.
import { existsSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { tempDir } from './temp-dir.js';
import { type Engine, freshDatabase } from './postgres.js';

export interface Held {
  count: number;
  distinct: number;
  /** 'ok' when the store is sound: SQLite's integrity_check, and on both engines every earlier version kept. */
  integrity: string;
}

export interface TestArchive {
  engine: Engine;
  /** What --db gets: a file path, or a postgres:// URL with its password. */
  db: string;
  /** How the CLI names it: the file, or the URL without its password. */
  name: string;
  /** What the archive holds now; zeros before the first sync made its tables. */
  held(): Promise<Held>;
  /** Rows of SQL over the archive's tables (in the default schema on PostgreSQL). */
  rows<T>(sql: string): Promise<T[]>;
}

/** Each recall's version is 1 + its kept versions: an update never loses the one it replaced. */
const VERSIONS_KEPT = `SELECT count(*) AS n FROM recalls r
  WHERE r.version <> 1 + (SELECT count(*) FROM recall_versions v WHERE v.recall_id = r.id)`;
const COUNTS = 'SELECT count(*) AS count, count(DISTINCT id) AS distinct_ FROM recalls';

let files = 0;
let folder: string | undefined;
/** The test file's folder of SQLite archives, kept to its end (test files share this module, and each cleans up). */
function engineFolder(): string {
  if (folder === undefined || !existsSync(folder)) folder = tempDir('rf-engines-', { scope: 'file' });
  return folder;
}

export async function testArchive(engine: Engine): Promise<TestArchive> {
  if (engine === 'sqlite') {
    const db = path.join(engineFolder(), `recalls-${++files}.db`);
    const rows = async <T>(sql: string) => {
      const handle = new Database(db, { readonly: true, fileMustExist: true });
      try {
        return handle.prepare(sql).all() as T[];
      } finally {
        handle.close();
      }
    };
    return {
      engine,
      db,
      name: db,
      rows,
      held: async () => {
        let counts: { count: number; distinct_: number }[];
        try {
          counts = await rows(COUNTS);
        } catch {
          return { count: 0, distinct: 0, integrity: 'no archive yet' };
        }
        const [check] = await rows<{ integrity_check: string }>('PRAGMA integrity_check');
        const [lost] = await rows<{ n: number }>(VERSIONS_KEPT);
        const integrity =
          check?.integrity_check === 'ok' && lost?.n === 0
            ? 'ok'
            : `${check?.integrity_check}, ${lost?.n} lost versions`;
        return { count: counts[0]!.count, distinct: counts[0]!.distinct_, integrity };
      },
    };
  }
  const { url } = await freshDatabase('rf_e2e');
  const rows = async <T>(sql: string) => {
    const client = new pg.Client({ connectionString: url, options: '-c search_path=recall_feed' });
    await client.connect();
    try {
      return (await client.query(sql)).rows as T[];
    } finally {
      await client.end();
    }
  };
  const shown = new URL(url);
  shown.password = '';
  return {
    engine,
    db: url,
    name: shown.toString(),
    rows,
    held: async () => {
      let counts: { count: string; distinct_: string }[];
      try {
        counts = await rows(COUNTS);
      } catch {
        return { count: 0, distinct: 0, integrity: 'no archive yet' };
      }
      const [lost] = await rows<{ n: string }>(VERSIONS_KEPT);
      return {
        count: Number(counts[0]!.count),
        distinct: Number(counts[0]!.distinct_),
        integrity: Number(lost?.n) === 0 ? 'ok' : `${lost?.n} lost versions`,
      };
    },
  };
}
