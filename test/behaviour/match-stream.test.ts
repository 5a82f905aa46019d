// `match` on a catalogue big enough to stream (8 MiB and over) writes the bytes the in-memory index writes for the same rows,
// in every format.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { largeEnoughToStream } from '../../src/jobs/match/stream-match.js';
import { paddedToStream } from '../helpers/stream-padding.js';
import { runMainAgainst } from '../helpers/in-process.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';
import { CATALOGUE, intoWindow, loadRecalls } from '../fixtures/real-notices/quality.mjs';

const dir = tempDir('rf-match-stream-');

describe('match on a catalogue that streams', () => {
  it('the real-notice catalogue padded past the threshold: the same jsonl, csv, table and Parquet bytes, the same counts', async () => {
    const sandbox = await sandboxFor({ recordCount: 0 });
    sandbox.addRecords(intoWindow(loadRecalls(), Date.now()));
    const small = readFileSync(CATALOGUE, 'utf8');
    // Rows no notice can touch (no barcode, no brand, so no weight of a name word changes), after the real ones: their lines stay.
    const padded = paddedToStream(small.trimEnd(), (i) => `F${i},,,Qwzt vrk ${i},,,,filler`);
    const big = path.join(dir, 'catalogue.csv');
    writeFileSync(big, padded.text);
    expect(await largeEnoughToStream(big)).toBe(true);
    expect(await largeEnoughToStream(CATALOGUE)).toBe(false);
    // On a terminal, where the last line (the counts) is said.
    const terminal = { stderrIsTTY: true };
    for (const format of ['jsonl', 'csv', 'table']) {
      const whole = await runMainAgainst(
        sandbox,
        ['match', '--catalog', CATALOGUE, '-f', format, '--explain'],
        terminal,
      );
      const streamed = await runMainAgainst(sandbox, ['match', '--catalog', big, '-f', format, '--explain'], terminal);
      expect(whole.code, whole.stderr).toBe(0);
      expect(streamed.code, streamed.stderr).toBe(0);
      expect(whole.stdout.split('\n').length).toBeGreaterThan(50);
      expect(streamed.stdout).toBe(whole.stdout);
      const counts = (stderr: string) =>
        stderr
          .trim()
          .split('\n')
          .at(-1)
          ?.replace(/^catalogue: [\d,]+ rows/, '');
      expect(counts(streamed.stderr)).toBe(counts(whole.stderr));
      expect(streamed.stderr).toContain(
        `catalogue: ${(small.trimEnd().split('\n').length - 1 + padded.added).toLocaleString('en')} rows`,
      );
    }
    // Parquet too, file against file (its bytes hold no time): the table (the default on a terminal) above.
    const wholeFile = path.join(dir, 'whole.parquet');
    const streamedFile = path.join(dir, 'streamed.parquet');
    const whole = await runMainAgainst(sandbox, ['match', '--catalog', CATALOGUE, '-f', 'parquet', '-o', wholeFile]);
    const streamed = await runMainAgainst(sandbox, ['match', '--catalog', big, '-f', 'parquet', '-o', streamedFile]);
    expect(whole.code, whole.stderr).toBe(0);
    expect(streamed.code, streamed.stderr).toBe(0);
    expect(readFileSync(wholeFile).length).toBeGreaterThan(1000);
    expect(readFileSync(streamedFile).equals(readFileSync(wholeFile))).toBe(true);
  });
});
