// Commit stamps on an archive from the previous version, both engines: the digest refuses it read-only, naming the versions; the next writer brings it forward, stamping old rows with their run's start.
import Database from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openArchive } from '../../src/archive/index.js';
import { STAT_COLUMNS } from '../../src/archive/record-columns.js';
import { sampleRecords, tempFolder } from '../helpers/archive.js';
import { runMain } from '../helpers/in-process.js';
import { ENGINES, freshDatabase } from '../helpers/postgres.js';

const T0 = Date.parse('2026-11-20T06:00:00.000Z');
const H = 3_600_000;
const STAT_NAMES = Object.keys(STAT_COLUMNS);

/** Takes the stamps (and the outbox and stat columns, later versions') out again, as the previous version's schema had none. */
async function downgrade(engine: 'sqlite' | 'postgres', where: string): Promise<number> {
  if (engine === 'sqlite') {
    const db = new Database(where);
    try {
      db.exec('DROP INDEX recalls_stats');
      for (const c of STAT_NAMES) db.exec(`ALTER TABLE recalls DROP COLUMN stat_${c}`);
      db.exec(`DROP TABLE outbox; DROP INDEX recalls_first_us; DROP INDEX recalls_version_us;
        ALTER TABLE recalls DROP COLUMN first_us; ALTER TABLE recalls DROP COLUMN version_us;
        ALTER TABLE sync_runs DROP COLUMN served; DELETE FROM archive_meta WHERE key = 'commit_us';
        PRAGMA user_version = 3;`);
    } finally {
      db.close();
    }
    return 3;
  }
  const client = new pg.Client({ connectionString: where });
  await client.connect();
  try {
    await client.query(`DROP TABLE recall_feed.outbox; DROP TABLE recall_feed.recall_stats;
      ALTER TABLE recall_feed.recalls ${STAT_NAMES.map((c) => `DROP COLUMN stat_${c}`).join(', ')};
      ALTER TABLE recall_feed.recalls DROP COLUMN first_us, DROP COLUMN version_us;
      ALTER TABLE recall_feed.sync_runs DROP COLUMN served;
      DELETE FROM recall_feed.archive_meta WHERE key = 'commit_us';
      UPDATE recall_feed.archive_meta SET value = '2' WHERE key = 'schema_version';`);
  } finally {
    await client.end();
  }
  return 2;
}

describe.each(ENGINES)('$engine: an archive without commit stamps', ({ engine, available }) => {
  if (!available) {
    it.skip('needs a PostgreSQL server: none is installed and RECALL_FEED_TEST_PG is unset', () => {});
    return;
  }

  it('is refused by the digest (exit 2, both versions named), then brought forward by the next writer', async () => {
    const where =
      engine === 'sqlite' ? tempFolder('rf-stamps-').file('old.db') : (await freshDatabase('rf_stamps')).url;
    const [a, b] = sampleRecords(2, 3);
    const archive = await openArchive(where, { create: true });
    const run = await archive.beginRun({ sources: null, hours: 24 }, T0);
    await archive.upsertPage([a!, b!], run, Date.now);
    await archive.finishRun(run, 'ok', T0 + 60_000);
    await archive.close();
    const old = await downgrade(engine, where);

    const r = await runMain(['digest', '--db', where, '-f', 'json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `was made by an earlier recall-feed (archive schema ${old}; the digest needs ${old + 1})`,
    );
    expect(r.stderr).toContain('hint: run `recall-feed sync` once: it brings the archive forward');
    expect(r.stdout).toBe('');

    // A writer opens it: the migration stamps the old rows with the start of the run that stored them.
    const upgraded = await openArchive(where, { create: false });
    try {
      const stored = await upgraded.storedIn({ fromMs: T0, toMs: T0 + H }, {});
      expect(stored.new.map((x) => x.id).sort()).toEqual([a!.id, b!.id].sort());
      expect((await upgraded.storedIn({ fromMs: T0 + 1, toMs: T0 + H }, {})).new).toEqual([]);
      // New stamps follow on from the old ones.
      expect(await upgraded.commitHorizon()).toBeGreaterThanOrEqual(T0);
    } finally {
      await upgraded.close();
    }
  });
});
