// What a run declares it uses is opened by the session before the job and closed after it: the archive (read, write,
// create, optional), the output; a missing archive is refused before the job runs.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ArchiveMissingError } from '../../src/archive/archive-errors.js';
import { CannotWriteError } from '../../src/runtime/cli-errors.js';
import type { Context } from '../../src/runtime/context.js';
import { loadSettings, runIn, sessionWith, using, withSession } from '../../src/runtime/session.js';
import { tempDir } from '../helpers/temp-dir.js';

function context(): Context {
  return {
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    stdin: new PassThrough(),
    env: { TERM: 'dumb', RECALL_FEED_CONFIG_DIR: tempDir('rf-uses-config-') },
    now: () => Date.UTC(2026, 10, 26, 12),
    sleep: async () => {},
    signal: new AbortController().signal,
  };
}

const choice = (db: string) => ({ db, schema: undefined });

describe('a run’s uses', () => {
  it('creates the archive a sync declares, hands the job its store open, and closes it when the run ends', async () => {
    const db = path.join(tempDir('rf-uses-'), 'recalls.db');
    const ctx = context();
    const session = sessionWith(await loadSettings({}, ctx), {}, ctx);
    const seen = await runIn(session, (s) =>
      using(s, { archive: { db: choice(db), mode: 'create' } }, async (run) => {
        expect(existsSync(db)).toBe(true);
        return { name: run.store.name, runs: await run.store.syncRuns({ fromMs: 0, toMs: Date.now() }) };
      }),
    );
    expect(seen).toEqual({ name: db, runs: [] });
    expect(session.store).toBeUndefined();
  });

  it('refuses a missing archive declared for reading before the job runs, and creates nothing', async () => {
    const dir = tempDir('rf-uses-');
    let ran = false;
    const run = withSession(
      {},
      context(),
      { archive: { db: choice(path.join(dir, 'none.db')), mode: 'read' } },
      async () => {
        ran = true;
      },
    );
    await expect(run).rejects.toBeInstanceOf(ArchiveMissingError);
    expect(ran).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('gives no store for an optional archive that is missing, and the job still runs', async () => {
    const dir = tempDir('rf-uses-');
    const uses = { archive: { db: choice(path.join(dir, 'none.db')), mode: 'read', optional: true } } as const;
    const store = await withSession({}, context(), uses, async (s) => s.store);
    expect(store).toBeUndefined();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('chooses the declared output first, and the job takes that one', async () => {
    const dir = tempDir('rf-uses-');
    const uses = {
      output: { format: 'json' },
      archive: { db: choice(path.join(dir, 'none.db')), mode: 'read' },
    } as const;
    // A bad -o is refused before the (missing) archive is looked for.
    const bad = withSession({ output: path.join(dir, 'no-folder', 'x.json') }, context(), uses, async () => {});
    await expect(bad).rejects.toBeInstanceOf(CannotWriteError);
    const format = await withSession({}, context(), { output: { format: 'json' } }, async (s) => {
      const output = await s.output();
      await expect(s.output({ format: 'csv' })).rejects.toBeInstanceOf(TypeError);
      return output.format;
    });
    expect(format.name).toBe('json');
  });
});
