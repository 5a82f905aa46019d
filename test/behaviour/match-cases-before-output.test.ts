// `match --archive --open-cases -o FILE` puts FILE in place only once its cases are stored: a run whose cases cannot be
// written leaves the file as it was (docs/formats.md: "renames it over the target only when the whole run succeeded").
// Here another writer holds the archive's write lock past RECALL_FEED_DB_LOCK_WAIT, so the cases wait, then fail.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { deferCleanup } from '../helpers/cleanup.js';
import { runMain, runMainAgainst } from '../helpers/in-process.js';
import { FIXED_START, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

describe('match --archive --open-cases -o when its cases cannot be stored', () => {
  it('fails without replacing the output file, and opens no case', async () => {
    const s = await sandboxFor({ seed: 7, recordCount: 60, clock: () => FIXED_START });
    const dir = tempDir('rf-match-cases-');
    const db = path.join(dir, 'a.db');
    expect((await runMainAgainst(s, ['sync', '--db', db, '-q'])).code).toBe(0);
    const codes = s
      .records()
      .map((r) => (r.standard_identifiers_and_barcodes as unknown[])[0])
      .filter((x) => x !== undefined)
      .map((x) => (typeof x === 'string' ? x : String((x as { value: unknown }).value)));
    const catalog = path.join(dir, 'products.csv');
    writeFileSync(catalog, ['sku,gtin', ...codes.slice(0, 5).map((code, i) => `P${i},${code}`)].join('\n'));
    const out = path.join(dir, 'm1.csv');
    writeFileSync(out, 'OLD previous export\n');

    // Another writer (a sync storing a page, say) holds the write lock for the whole run.
    const other = new Database(db);
    other.pragma('journal_mode = WAL');
    other.exec('BEGIN IMMEDIATE');
    deferCleanup(() => other.close());
    const args = [
      'match',
      '--catalog',
      catalog,
      '--archive',
      '--db',
      db,
      '--open-cases',
      '--sla',
      '2wd',
      '-o',
      out,
      '-q',
    ];
    const r = await runMain(args, { env: { RECALL_FEED_DB_LOCK_WAIT: '1' } });
    expect(r.stderr).toMatch(
      /^error: the archive \S+a\.db is busy: another process kept it locked for more than 1 s\n/,
    );
    expect(r.code).toBe(9);
    expect(readFileSync(out, 'utf8')).toBe('OLD previous export\n');
    expect(readdirSync(dir).sort()).toEqual(['a.db', 'a.db-shm', 'a.db-wal', 'm1.csv', 'products.csv']);
    other.exec('ROLLBACK');
    expect(other.prepare('SELECT count(*) AS n FROM cases').get()).toEqual({ n: 0 });
  });
});
