// A standalone sandbox (as `recall-feed sandbox` runs) reached with --base-url and a demo key: its recalls stay apart from real ones.
import { existsSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SOURCE_IDS } from '../../src/api/schemas.js';
import { runMain } from '../helpers/in-process.js';
import { ALL_KEY, FIXED_START, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

/** A key shaped like a production one: the server below plays the real API. */
const LIVE_KEY = 'dr_live_0123456789abcdefghijklmnopqrstuvwxyz0123';

function originOf(db: string): string {
  const archive = new Database(db, { readonly: true });
  try {
    return archive.prepare("SELECT value FROM archive_meta WHERE key = 'origin'").pluck().get() as string;
  } finally {
    archive.close();
  }
}

describe('a sandbox reached with --base-url and its demo key', () => {
  it('syncs into recalls-sandbox.db; a live key then syncs into recalls.db and never into the sandbox archive', async () => {
    const demo = await sandboxFor({ recordCount: 30, seed: 4, startTime: FIXED_START });
    const live = await sandboxFor({
      recordCount: 20,
      seed: 9,
      startTime: FIXED_START,
      keys: [{ key: LIVE_KEY, name: 'live', sources: [...SOURCE_IDS] }],
    });
    const data = tempDir('rf-origin-');
    const sandboxDb = path.join(data, 'recall-feed', 'recalls-sandbox.db');
    const realDb = path.join(data, 'recall-feed', 'recalls.db');
    const env = { XDG_DATA_HOME: data };

    const first = await runMain(['--base-url', demo.url, 'sync', '-v'], {
      env: { ...env, RECALL_FEED_API_KEY: ALL_KEY },
    });
    expect(first.code).toBe(0);
    expect(first.stderr).toContain(`archive: ${sandboxDb}`);
    expect(existsSync(sandboxDb)).toBe(true);
    expect(existsSync(realDb)).toBe(false);
    expect(originOf(sandboxDb)).toBe('sandbox');

    // Reading with the demo key finds the sandbox's archive, as with --sandbox.
    const listed = await runMain(['query', '-f', 'jsonl'], { env: { ...env, RECALL_FEED_API_KEY: ALL_KEY } });
    expect(listed.code).toBe(0);
    expect(listed.stdout.trim().split('\n').length).toBeGreaterThan(0);

    // A live key: its own archive by default, and the sandbox's refused, nothing written there.
    const real = await runMain(['--base-url', live.url, 'sync'], { env: { ...env, RECALL_FEED_API_KEY: LIVE_KEY } });
    expect(real.code).toBe(0);
    expect(originOf(realDb)).toBe('api');
    const mixed = await runMain(['--base-url', live.url, 'sync', '--db', sandboxDb], {
      env: { ...env, RECALL_FEED_API_KEY: LIVE_KEY },
    });
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain(
      `${sandboxDb} holds the sandbox's invented recalls: real ones are not mixed into it`,
    );

    // And the demo key into the real archive: refused too.
    const intoReal = await runMain(['--base-url', demo.url, 'sync', '--db', realDb], {
      env: { ...env, RECALL_FEED_API_KEY: ALL_KEY },
    });
    expect(intoReal.code).toBe(2);
    expect(intoReal.stderr).toContain(`${realDb} holds real recalls`);
    expect(intoReal.stderr).toContain('a sandbox key (dr_test_…)');
    const runs = new Database(realDb, { readonly: true });
    expect(runs.prepare('SELECT count(*) FROM sync_runs').pluck().get()).toBe(1);
    runs.close();
  });
});

describe('recall-feed sandbox --keys', () => {
  it('warns of a key that does not start with dr_test_: its syncs could not be told from real ones', async () => {
    const { writeFileSync } = await import('node:fs');
    const keys = path.join(tempDir('rf-keys-'), 'keys.json');
    writeFileSync(
      keys,
      JSON.stringify([
        { key: 'dr_test_mine0000000000000000000000000000000000', sources: ['us_cpsc'] },
        { key: 'custom_key_0000000000000000000000000000000000', sources: ['us_cpsc'] },
      ]),
    );
    const stopped = new AbortController();
    stopped.abort();
    const r = await runMain(['sandbox', '--port', '0', '--keys', keys], { signal: stopped.signal });
    expect(r.code).toBe(0);
    expect(r.stderr.split('\n').filter((l) => l.startsWith('warning: '))).toEqual([
      'warning: key custom_k… does not start with dr_test_: a sync with it cannot be told from real recalls; give it its own --db',
    ]);
  });
});
