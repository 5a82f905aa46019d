// An incremental `match --archive` whose catalogue is rewritten between its hash and its read is refused, as before.
import { execFileSync } from 'node:child_process';
import { openSync, closeSync, promises as fs, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testArchive } from '../helpers/archive-engines.js';
import { runMain } from '../helpers/in-process.js';
import { generatedCatalogue, generatedRecalls } from '../helpers/match-generated.js';
import { storeRun } from '../helpers/archive.js';
import { tempDir } from '../helpers/temp-dir.js';

/**
 * Waits for the run to open the named pipe `fifo` to read, calls `then`, and lets it read nothing; false when the
 * run ended first (the pipe then opened both ways, so nothing is left waiting on it).
 */
async function whenRead(fifo: string, run: Promise<unknown>, then: () => void = () => {}): Promise<boolean> {
  const opening = fs.open(fifo, 'w');
  const opened = await Promise.race([opening, run.then(() => undefined)]);
  if (!opened) {
    closeSync(openSync(fifo, 'r+'));
    await (await opening).close();
    return false;
  }
  then();
  await opened.close();
  return true;
}

// A named pipe as the --learned file holds the run between its hash of the catalogue (the learned file is hashed
// next) and its read of it. The engine plays no part in when the catalogue is read: SQLite alone.
describe.skipIf(process.platform === 'win32')('match --archive, its catalogue rewritten after it was hashed', () => {
  it('is refused with the message a full run gives, and the run after it checks every recall', async () => {
    const all = generatedRecalls(300, 23);
    const archive = await testArchive('sqlite');
    const dir = tempDir('rf-incr-race-');
    const catalog = path.join(dir, 'catalogue.csv');
    const learned = path.join(dir, 'learned.json');
    writeFileSync(catalog, generatedCatalogue(all, 300, 7, 3));
    writeFileSync(learned, '');
    await storeRun(archive.db, all.slice(0, 200));
    const env = { RECALL_FEED_CACHE_DIR: tempDir('rf-incr-race-cache-') };
    const args = ['match', '--catalog', catalog, '--archive', '--db', archive.db, '-f', 'jsonl', '--learned', learned];
    // On a terminal: which kind of run it was is said to someone watching (off one, a success is silent).
    const run = (more: string[] = []) => runMain([...args, ...more], { env, stderrIsTTY: true });
    expect((await run()).stderr).toContain('checking every recall: no earlier run');

    // Touched, so the run hashes it to find its state; rewritten before the recalls stored since are matched.
    const before = readFileSync(catalog, 'utf8');
    utimesSync(catalog, new Date('2026-01-01T00:00:00Z'), new Date('2026-01-01T00:00:00Z'));
    await storeRun(archive.db, all.slice(200, 300));
    rmSync(learned);
    execFileSync('mkfifo', [learned]);
    const racing = run();
    const rewrite = () => {
      writeFileSync(catalog, `${before}Z1,,,,one more row,,,\n`);
      // Its next read of the learned file (just before the catalogue's) finds a plain file of the same bytes.
      rmSync(learned);
      writeFileSync(learned, '');
    };
    expect(await whenRead(learned, racing, rewrite)).toBe(true);
    const raced = await racing;
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
