// #24.16: an archive written before cases (SQLite schema 2, PostgreSQL 1), opened read-only by cases, cases verify
// and report: no cases, with a note, never "no such table"; and nothing is written to it.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openArchive } from '../../src/archive/index.js';
import { MIGRATIONS as PG_MIGRATIONS } from '../../src/archive/postgres/schema.js';
import { MIGRATIONS } from '../../src/archive/sqlite/schema.js';
import { tempFolder } from '../helpers/archive.js';
import { runMain } from '../helpers/in-process.js';
import { adminQuery, type Engine, ENGINES, freshDatabase } from '../helpers/postgres.js';

const folder = tempFolder('rf-old-archive-');
let made = 0;

/** An archive as the version before cases left it: its --db, and how to read its schema version back. */
async function oldArchive(engine: Engine): Promise<{ db: string; version: () => Promise<string> }> {
  if (engine === 'sqlite') {
    const file = folder.file(`before-cases-${++made}.db`);
    const db = new Database(file);
    db.exec(MIGRATIONS[0]!);
    db.exec(MIGRATIONS[1]!);
    db.pragma('user_version = 2');
    db.pragma(`application_id = ${0x52434641}`);
    db.close();
    const version = async () => {
      const conn = new Database(file, { readonly: true });
      try {
        return String(conn.pragma('user_version', { simple: true }));
      } finally {
        conn.close();
      }
    };
    return { db: file, version };
  }
  const { url, name } = await freshDatabase('rf_old');
  const s = '"recall_feed"';
  await adminQuery(
    `CREATE SCHEMA ${s}; ${PG_MIGRATIONS[0]!(s)};
     INSERT INTO ${s}.archive_meta VALUES ('application', 'recall-feed'), ('schema_version', '1')`,
    [],
    name,
  );
  const version = async () =>
    String(
      (
        await adminQuery<{ value: string }>(
          `SELECT value FROM ${s}.archive_meta WHERE key = 'schema_version'`,
          [],
          name,
        )
      )[0]!.value,
    );
  return { db: url, version };
}

describe.each(ENGINES)('$engine', ({ engine, available }) => {
  it.skipIf(!available)('cases, cases verify and report say there are no cases yet, and change nothing', async () => {
    const { db, version } = await oldArchive(engine);
    const before = await version();
    const list = await runMain(['cases', '--db', db, '-f', 'jsonl']);
    expect([list.code, list.stdout]).toEqual([0, '']);
    expect(list.stderr).toContain('written by an earlier recall-feed and holds no cases yet');
    expect(list.stderr).not.toContain('no such table');
    const verify = await runMain(['cases', 'verify', '--db', db, '-f', 'json']);
    expect(verify.code, verify.stderr).toBe(0);
    expect(JSON.parse(verify.stdout)).toMatchObject({ ok: true, cases: 0, events: 0 });
    const report = await runMain(['report', '--db', db, '-f', 'json']);
    expect(report.code, report.stderr).toBe(0);
    expect(JSON.parse(report.stdout).cases).toEqual([]);
    const show = await runMain(['cases', 'show', '1', '--db', db]);
    expect(show.code).toBe(2);
    expect(show.stderr).not.toContain('no such table');
    expect(await version()).toBe(before);
  });

  it.skipIf(!available)('the store refuses its cases naming the archive as the user gave it', async () => {
    const { db } = await oldArchive(engine);
    const archive = await openArchive(db, { create: false, readOnly: true });
    try {
      // doctor prints this message as it is: on PostgreSQL it named the quoted schema ("recall_feed").
      for (const read of [() => archive.cases({ statuses: ['open'] }), () => archive.verifyCases()])
        await expect(read()).rejects.toThrow(
          `${archive.name} is from an earlier recall-feed (before cases): it holds no cases yet`,
        );
      // Nor has it an outbox: nothing is owed (doctor and the metrics ask).
      expect(await archive.outboxBacklog()).toEqual({ pending: 0, retrying: 0, failed: 0 });
      expect(await archive.outboxOldestPending()).toBeUndefined();
    } finally {
      await archive.close();
    }
  });
});
