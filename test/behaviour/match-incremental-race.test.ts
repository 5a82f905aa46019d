// An incremental `match --archive` whose catalogue is rewritten between its hash and its read is refused, as before.
import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { openArchive } from '../../src/archive/open-archive.js';
import type { ArchivedRecord } from '../../src/archive/store.js';
import { testArchive } from '../helpers/archive-engines.js';
import { runMain } from '../helpers/in-process.js';
import { generatedCatalogue, generatedRecalls } from '../helpers/match-generated.js';
import { tempDir } from '../helpers/temp-dir.js';

/** Run after each hash of a file the run makes: the place to rewrite the catalogue between its hash and its read. */
const hook = vi.hoisted(() => ({ afterHash: undefined as ((file: string) => void) | undefined }));

vi.mock('../../src/jobs/match/match-state.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/jobs/match/match-state.js')>();
  return {
    ...real,
    fileSha256: async (file: string) => {
      const sha = await real.fileSha256(file);
      hook.afterHash?.(file);
      return sha;
    },
  };
});

async function store(db: string, records: Record<string, unknown>[]): Promise<void> {
  const archive = await openArchive(db, { create: true });
  try {
    const run = await archive.beginRun({}, Date.now());
    await archive.upsertPage(records as ArchivedRecord[], run);
    await archive.finishRun(run, 'ok', Date.now());
  } finally {
    await archive.close();
  }
}

// The engine plays no part in when the catalogue is read: SQLite alone.
describe('match --archive, incremental, its catalogue rewritten after it was hashed', () => {
  it('is refused with the message a full run gives, and the run after it checks every recall', async () => {
    const all = generatedRecalls(300, 23);
    const archive = await testArchive('sqlite');
    const dir = tempDir('rf-incr-race-');
    const catalog = path.join(dir, 'catalogue.csv');
    writeFileSync(catalog, generatedCatalogue(all, 300, 7, 3));
    await store(archive.db, all.slice(0, 200));
    const env = { RECALL_FEED_CACHE_DIR: tempDir('rf-incr-race-cache-') };
    const run = (args: string[] = []) =>
      runMain(['match', '--catalog', catalog, '--archive', '--db', archive.db, '-f', 'jsonl', ...args], { env });
    expect((await run()).stderr).toContain('checking every recall: no earlier run');

    // Touched, so this run hashes it to find its state; then rewritten before the recalls stored since are matched.
    const before = readFileSync(catalog, 'utf8');
    utimesSync(catalog, new Date('2026-01-01T00:00:00Z'), new Date('2026-01-01T00:00:00Z'));
    await store(archive.db, all.slice(200, 300));
    let hashed = 0;
    hook.afterHash = (file) => {
      if (file !== catalog) return;
      hashed++;
      writeFileSync(catalog, `${before}Z1,,,,one more row,,,\n`);
    };
    const raced = await run();
    hook.afterHash = undefined;
    expect(hashed).toBe(1);
    expect(raced.code).toBe(2);
    expect(raced.stdout).toBe('');
    expect(raced.stderr).toContain(`the catalogue ${catalog} changed while it was read`);
    expect(raced.stderr).toContain('run match again');

    const again = await run();
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('checking every recall: no earlier run with this catalogue');
    expect(again.stdout).toBe((await run(['--full'])).stdout);
  });
});
