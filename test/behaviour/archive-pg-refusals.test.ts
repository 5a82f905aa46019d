// PostgreSQL refusals a user or DBA causes with a setting, the CLI in process on the real server: a read-only role or
// database (what a hot standby gives too, SQLSTATE 25006), temp_file_limit (53400) and idle_in_transaction_session_timeout
// (25P03) are exit 13 with one line naming host and database and a hint, never "unexpected error" (exit 1). The settings
// come through the URL's ?options=, as a role's ALTER ROLE … SET would give them; nothing is left changed. A full disk
// and the server's memory: test/unit/archive-pg-refusals.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openArchive } from '../../src/archive/open-archive.js';
import { describeError } from '../../src/runtime/error-reports.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { type TestArchive, testArchive } from '../helpers/archive-engines.js';
import { runMainAgainst } from '../helpers/in-process.js';
import { pgAdminUrl } from '../helpers/postgres.js';
import { sandboxFor } from '../helpers/sandbox.js';

const admin = pgAdminUrl();

const SETTINGS_HINT =
  "hint: check the settings the --db URL passes (?options=-c%20name%3Dvalue: a setting this server knows, with a value it takes), and the role's and database's own (ALTER ROLE … SET)\n";

/** The archive's URL with the session settings `options` (-c name=value …). */
function withOptions(archive: TestArchive, options: string): string {
  const url = new URL(archive.db);
  url.searchParams.set('options', options);
  return url.toString();
}

describe.skipIf(!admin)("PostgreSQL's refusals set by a role or database are exit 13, named", () => {
  let sandbox: Sandbox;
  let archive: TestArchive;
  let where: string;
  const password = new URL(admin ?? 'postgres://x@y/z').password;
  beforeAll(async () => {
    // Enough recalls that a sort by updated_at spills past 64 kB of work_mem into a temporary file.
    sandbox = await sandboxFor({ recordCount: 1200, seed: 61 });
    archive = await testArchive('postgres');
    expect((await runMainAgainst(sandbox, ['sync', '--db', archive.db, '-q'])).code).toBe(0);
    where = `database ${new URL(archive.db).pathname.slice(1)} on 127.0.0.1`;
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  it('a read-only role or database (default_transaction_read_only): sync is refused, nothing written', async () => {
    sandbox.addRecords(2);
    const url = withOptions(archive, '-c default_transaction_read_only=on');
    const r = await runMainAgainst(sandbox, ['sync', '--db', url]);
    expect(r.stderr).toBe(
      `error: PostgreSQL refused to write in ${where}: the role or database is read-only (default_transaction_read_only), or the server is a standby in recovery (--db must name the primary)\n${SETTINGS_HINT}`,
    );
    expect(r.code).toBe(13);
    expect(r.stderr).not.toContain(password);
    expect((await archive.held()).count).toBe(1200);
    // Reverted, the next sync stores what the refused one would have.
    expect((await runMainAgainst(sandbox, ['sync', '--db', archive.db, '-q'])).code).toBe(0);
    expect((await archive.held()).count).toBe(1202);
  });

  it('temp_file_limit: a listing whose sort needs a temporary file is refused', async () => {
    const url = withOptions(archive, '-c work_mem=64kB -c temp_file_limit=0');
    const r = await runMainAgainst(sandbox, [
      'query',
      '--sort',
      'updated_at',
      '--order',
      'asc',
      '-f',
      'jsonl',
      '--db',
      url,
    ]);
    expect(r.stderr).toBe(
      `error: a statement went past a limit the server sets in ${where}: temporary file size exceeds temp_file_limit (0kB); nothing of this command was committed\n${SETTINGS_HINT}`,
    );
    expect(r.code).toBe(13);
    expect(r.stdout).toBe('');
  });

  it('idle_in_transaction_session_timeout: the session the server ended while a listing paused is named', async () => {
    const url = withOptions(archive, '-c idle_in_transaction_session_timeout=50');
    const store = await openArchive(url, { create: false, readOnly: true });
    let read = 0;
    try {
      const listing = (async () => {
        // The listing's transaction stays open between two batches of its cursor (1000 rows each): a reader that takes
        // its time between them (a slow pipe) leaves the session idle in it.
        for await (const _ of store.recordTexts({ sortBy: 'published_at', order: 'desc' }))
          if (++read === 1) await new Promise((resolve) => setTimeout(resolve, 500));
      })();
      const err = await listing.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(read).toBe(1000);
      expect(describeError(err)).toMatchObject({
        code: 13,
        message: `PostgreSQL ended the session in ${where}: a transaction waited between two statements longer than idle_in_transaction_session_timeout; nothing of this command was committed`,
        hints: [SETTINGS_HINT.slice('hint: '.length, -1)],
      });
      // The ended session is not used again: the next call connects anew (a `sync --watch` round after it succeeds).
      expect((await store.extent()).total).toBe((await archive.held()).count);
    } finally {
      await store.close();
    }
  });
});
