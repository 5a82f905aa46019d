// A connection the server closes while recall-feed is not using it (idle_session_timeout, a pooler's or a NAT's idle
// limit, a DBA's pg_terminate_backend) is dropped as the server says so: the next call connects again instead of
// failing, so `sync --watch` with an interval longer than the idle limit fails no round. idle_session_timeout comes
// through the URL's ?options= (for this session alone), as a role's ALTER ROLE … SET would give it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openArchive } from '../../src/archive/open-archive.js';
import { InterruptedError } from '../../src/runtime/cli-errors.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { type TestArchive, testArchive } from '../helpers/archive-engines.js';
import { fakeClock, runMainAgainst } from '../helpers/in-process.js';
import { adminQuery, pgAdminUrl } from '../helpers/postgres.js';
import { jsonLines, sandboxFor } from '../helpers/sandbox.js';
import { untilValue } from '../helpers/wait.js';

const admin = pgAdminUrl();

/** The archive's URL whose sessions the server ends after 300 ms idle. */
function reapedAfterIdle(archive: TestArchive): string {
  const url = new URL(archive.db);
  url.searchParams.set('options', '-c idle_session_timeout=300');
  return url.toString();
}

/** Resolves once the server has ended every recall-feed session of the archive's database, and the word has come. */
async function reaped(archive: TestArchive): Promise<void> {
  const database = new URL(archive.db).pathname.slice(1);
  await untilValue(
    `the idle recall-feed sessions of ${database} ended by the server`,
    () =>
      adminQuery<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND application_name = 'recall-feed'`,
        [database],
      ),
    (rows) => rows[0]?.n === 0,
  );
  // The server's FATAL and the closed socket reach this process's event loop.
  await new Promise((resolve) => setTimeout(resolve, 100));
}

describe.skipIf(!admin)('PostgreSQL: a connection the server closed while idle', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await sandboxFor({ recordCount: 30, seed: 71 });
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  it('the next call of the store connects again and answers', async () => {
    const archive = await testArchive('postgres');
    expect((await runMainAgainst(sandbox, ['sync', '--db', archive.db, '-q'])).code).toBe(0);
    const store = await openArchive(reapedAfterIdle(archive), { create: false });
    try {
      expect((await store.extent()).total).toBe(30);
      await reaped(archive);
      expect((await store.extent()).total).toBe(30);
    } finally {
      await store.close();
    }
  });

  it('sync --watch: the rounds after the server ended the idle session all succeed', async () => {
    const archive = await testArchive('postgres');
    const stop = new AbortController();
    // Each interval lasts until the server has ended the idle session; the fourth ends the watch.
    const clock = fakeClock(Date.now(), async (_ms, count) => {
      await reaped(archive);
      if (count === 4) stop.abort(new InterruptedError('SIGTERM'));
    });
    const args = ['sync', '--watch', '--interval', '60', '--db', reapedAfterIdle(archive), '-f', 'jsonl'];
    const r = await runMainAgainst(sandbox, args, { clock, signal: stop.signal });
    expect(r.stderr).not.toContain('sync failed');
    expect(r.stderr).not.toContain('lost the connection');
    expect(jsonLines(r.stdout).map((s) => (s as { total: number }).total)).toEqual([30, 30, 30, 30]);
    expect(r.code).toBe(130);
  });
});
