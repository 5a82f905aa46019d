// V7's work (schema.ts): the interim token-only recalls_fts of archives made by 33d23d5 to 902b417^, rebuilt as V1's.
import type Database from 'better-sqlite3';
import { ftsValues } from '../record-columns.js';
import { FTS_COLUMNS, FTS_TABLE } from './schema.js';

/** Recalls read per statement: a read cannot stay open while the same connection writes the index. */
const BATCH = 500;

/** FTS5's options as the table's CREATE statement gives them: quoted or not, any case, with or without spaces. */
const NO_POSITIONS = /\bdetail\s*=\s*['"]?(?:none|column)\b/i;
const NO_TEXT = /\bcontent\s*=\s*(?:''|"")/i;

/**
 * Whether recalls_fts is the interim one: it keeps no positions (`detail = none`), so FTS5 refuses every phrase, or no
 * copy of the text (`content = ''`). False for V1's index, and where there is none.
 */
export function interimFts(db: Database.Database): boolean {
  const row = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'recalls_fts'").get() as
    | { sql: string }
    | undefined;
  return row !== undefined && (NO_POSITIONS.test(row.sql) || NO_TEXT.test(row.sql));
}

/**
 * Inside the migration's transaction: an interim recalls_fts dropped, created again as V1 creates it, and filled from
 * every recall's raw JSON with the values a sync writes (ftsValues, recalls.ts), in id order so that FTS5 writes few
 * segments. Any other index is left as it is. True when it rebuilt one.
 */
export function repairInterimFts(db: Database.Database): boolean {
  if (!interimFts(db)) return false;
  db.exec(`DROP TABLE recalls_fts;\n${FTS_TABLE}`);
  const read = db.prepare('SELECT id, raw FROM recalls WHERE id > ? ORDER BY id LIMIT ?');
  const index = db.prepare(
    `INSERT INTO recalls_fts (rowid, ${FTS_COLUMNS.join(', ')}) VALUES (?, ${FTS_COLUMNS.map(() => '?').join(', ')})`,
  );
  let after = Number.MIN_SAFE_INTEGER;
  for (;;) {
    const rows = read.all(after, BATCH) as { id: number; raw: string }[];
    for (const { id, raw } of rows) index.run(id, ...ftsValues(JSON.parse(raw) as Record<string, unknown>));
    const last = rows.at(-1);
    if (last === undefined || rows.length < BATCH) return true;
    after = last.id;
  }
}
