// A sync never counts as done without its sync_runs row: digest and report judge by those rows whether monitoring held
// (docs/archive.md), so finishing a run the archive does not hold is an error, never a summary of undefined counts.
import { describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/archive/sqlite/store.js';
import { tempFolder } from '../helpers/archive.js';

describe('finishing a sync run', () => {
  it('fails when its row is not in the archive (its INSERT never committed), rather than resolving to nothing', async () => {
    const archive = await SqliteStore.open(tempFolder().file('a.db'), { create: true });
    try {
      const run = await archive.beginRun({}, Date.parse('2026-06-01T12:00:00Z'));
      await expect(archive.finishRun(run + 1, 'ok', Date.parse('2026-06-01T12:01:00Z'))).rejects.toThrow(
        `sync_runs: run ${run + 1} is not in the archive, so its end was not recorded`,
      );
      // The run that is there ends as ever, with its counts.
      await expect(archive.finishRun(run, 'ok', Date.parse('2026-06-01T12:01:00Z'))).resolves.toEqual({
        fetched: 0,
        added: 0,
        updated: 0,
        unchanged: 0,
      });
    } finally {
      await archive.close();
    }
  });
});
