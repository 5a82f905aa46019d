// `sync --watch` keeps the archive current (in process, the interval on the injected clock); the profile key `db` picks the archive.
import { afterAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { tempFolder } from '../helpers/archive.js';
import { testArchive } from '../helpers/archive-engines.js';
import { ENGINES } from '../helpers/postgres.js';
import { InterruptedError } from '../../src/runtime/cli-errors.js';
import { fakeClock, runMain, runMainAgainst } from '../helpers/in-process.js';
import { jsonLines, sandboxFor } from '../helpers/sandbox.js';

const folder = tempFolder('rf-watch-');

describe.each(ENGINES)('sync --watch on $engine', ({ engine, available }) => {
  if (!available) {
    it.skip('needs a PostgreSQL server: none is installed and RECALL_FEED_TEST_PG is unset', () => {});
    return;
  }
  let sandbox: Sandbox | undefined;
  afterAll(async () => sandbox?.close());

  it('syncs on every interval, printing one summary per sync, storing new and updated recalls', async () => {
    sandbox = await sandboxFor({ recordCount: 300, seed: 51 });
    const archive = await testArchive(engine);
    const db = archive.db;
    // The injected clock is the interval: the test changes the sandbox after the first sync, and stops the watch
    // after the sync that stored the change.
    const live = sandbox;
    let out = '';
    const summaries = () => jsonLines(out.slice(0, out.lastIndexOf('\n') + 1));
    let added: { id: number }[] = [];
    let changed: { id: number }[] = [];
    let sleeps = 0;
    const stop = new AbortController();
    const clock = fakeClock(Date.now(), () => {
      sleeps++;
      if (sleeps > 100) throw new Error('no sync stored the new recalls');
      if (added.length === 0) {
        expect(summaries()[0]).toMatchObject({ new: 300, updated: 0, total: 300 });
        added = live.addRecords(2);
        changed = live.updateRecords(3);
        return;
      }
      if (summaries().some((s) => s.new === 2)) stop.abort(new InterruptedError('SIGINT'));
    });
    const r = await runMainAgainst(live, ['sync', '--watch', '--interval', '1', '--db', db, '-f', 'jsonl'], {
      clock,
      signal: stop.signal,
      onOutput: (stream, text) => {
        if (stream === 'stdout') out += text;
      },
    });
    expect(summaries()[0]).toMatchObject({ new: 300, updated: 0, total: 300 });
    // An update may land on a record just added: the archive then first sees it in its new version.
    const addedIds = new Set(added.map((x) => x.id));
    const updatedIds = changed
      .map((x) => x.id)
      .filter((id) => !addedIds.has(id))
      .sort((a, b) => a - b);
    const after = summaries().find((s) => s.new === 2)!;
    expect(after).toMatchObject({ updated: updatedIds.length, total: 302 });
    expect(r.code).toBe(130);
    const versions = await archive.rows<{ recall_id: number }>(
      'SELECT recall_id FROM recall_versions ORDER BY recall_id',
    );
    expect(versions.map((v) => Number(v.recall_id))).toEqual(updatedIds);
    const runs = await archive.rows<{ outcome: string }>('SELECT outcome FROM sync_runs');
    expect(runs.filter((r) => r.outcome === 'ok').length).toBeGreaterThanOrEqual(2);
    const stored = await archive.rows<{ n: number }>(
      `SELECT count(*) AS n FROM recalls WHERE id IN (${added[0]!.id}, ${added[1]!.id})`,
    );
    expect(Number(stored[0]!.n)).toBe(2);
  });
});

describe('the profile key db', () => {
  it('points query at the archive; --db and RECALL_FEED_DB come first', async () => {
    const config = folder.file('config');
    const missing = folder.file('from-profile.db');
    expect((await runMain(['config', 'set', 'db', missing], { env: { RECALL_FEED_CONFIG_DIR: config } })).code).toBe(0);
    const viaProfile = await runMain(['query'], { env: { RECALL_FEED_CONFIG_DIR: config } });
    expect(viaProfile.stderr).toBe(
      `error: no archive at ${missing}\nhint: run \`recall-feed sync\` first to create it, or point --db or RECALL_FEED_DB at an archive\n`,
    );
    const viaEnv = await runMain(['query'], {
      env: { RECALL_FEED_CONFIG_DIR: config, RECALL_FEED_DB: folder.file('env.db') },
    });
    expect(viaEnv.stderr).toMatch(/^error: no archive at .*env\.db\n/);
    const viaFlag = await runMain(['query', '--db', folder.file('flag.db')], {
      env: { RECALL_FEED_CONFIG_DIR: config, RECALL_FEED_DB: folder.file('env.db') },
    });
    expect(viaFlag.stderr).toMatch(/^error: no archive at .*flag\.db\n/);
  });
});
