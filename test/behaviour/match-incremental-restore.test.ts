// A backup restored under an incremental `match --archive`: the archive holds older versions of recalls than the last
// run checked, stamped before its horizon, so nothing marks them as changed since. The run sees it and checks every
// recall, so its answer is a full run's (a review found the state's rows carried over instead). SQLite, where a
// restore is a file copied back.
import { copyFileSync, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testArchive } from '../helpers/archive-engines.js';
import { storeRun } from '../helpers/archive.js';
import { runMain } from '../helpers/in-process.js';
import { emptiedVersions, generatedCatalogue, generatedRecalls } from '../helpers/match-generated.js';
import { tempDir } from '../helpers/temp-dir.js';

type Rec = Record<string, unknown>;

async function restoredSetup() {
  const all = generatedRecalls(300, 7);
  const archive = await testArchive('sqlite');
  const dir = tempDir('rf-restore-');
  const cache = tempDir('rf-restore-cache-');
  const catalog = path.join(dir, 'catalogue.csv');
  writeFileSync(catalog, generatedCatalogue(all, 250, 3, 4));
  await storeRun(archive.db, all.slice(0, 250));
  const backup = path.join(dir, 'backup.db');
  expect(existsSync(`${archive.db}-wal`)).toBe(false);
  copyFileSync(archive.db, backup);
  const run = (args: string[] = []) =>
    runMain(['match', '--catalog', catalog, '--archive', '--db', archive.db, '-f', 'jsonl', ...args], {
      env: { RECALL_FEED_CACHE_DIR: cache },
      stderrIsTTY: true,
    });
  const first = await run();
  expect(first.code, first.stderr).toBe(0);
  // 15 matched recalls given a version that names nothing of the catalogue's: they leave the answer.
  const matched = [
    ...new Set(
      first.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as Rec).recall_id),
    ),
  ];
  expect(matched.length).toBeGreaterThan(15);
  await storeRun(archive.db, emptiedVersions(all, matched.slice(0, 15)));
  const second = await run();
  expect(second.stderr).toContain('checked 15 recalls new or changed since');
  expect(second.stdout.trim().split('\n').length).toBeLessThan(first.stdout.trim().split('\n').length);
  return { all, archive, backup, run, first };
}

describe('match --archive after a backup is restored', () => {
  it('with nothing stored since: every recall checked, the answer the backup gives', async () => {
    const { archive, backup, run, first } = await restoredSetup();
    copyFileSync(backup, archive.db);
    const after = await run();
    expect(after.code, after.stderr).toBe(0);
    expect(after.stderr).toContain(
      'checking every recall: the archive no longer holds every version the last run checked (a backup restored?)',
    );
    // The backup holds what the first run checked: its answer again, as --full gives it.
    expect(after.stdout).toBe(first.stdout);
    expect((await run(['--full'])).stdout).toBe(after.stdout);
  });

  it('with new recalls stored after the restore: still every recall checked, as --full answers', async () => {
    const { all, archive, backup, run } = await restoredSetup();
    copyFileSync(backup, archive.db);
    await storeRun(archive.db, all.slice(250, 300));
    const after = await run();
    expect(after.code, after.stderr).toBe(0);
    expect(after.stderr).toContain('checking every recall: the archive no longer holds every version');
    expect((await run(['--full'])).stdout).toBe(after.stdout);
    // And the run after is incremental again, from the state this one wrote.
    const next = await run();
    expect(next.stderr).toContain('checked 0 recalls new or changed since');
    expect(next.stdout).toBe(after.stdout);
  });
});
