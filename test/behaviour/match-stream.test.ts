// `match` on a catalogue big enough to stream (8 MiB and over) writes the bytes the in-memory index writes for the same rows,
// as a table too.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { STREAM_FROM_BYTES, streams } from '../../src/jobs/match/stream-match.js';
import { formatNamed } from '../../src/output/format-registry.js';
import { runMainAgainst } from '../helpers/in-process.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';
import { CATALOGUE, intoWindow, loadRecalls } from '../fixtures/real-notices/quality.mjs';

const dir = tempDir('rf-match-stream-');

describe('match on a catalogue that streams', () => {
  it('the real-notice catalogue padded past the threshold: the same jsonl, csv and table bytes, the same counts', async () => {
    const sandbox = await sandboxFor({ recordCount: 0 });
    sandbox.addRecords(intoWindow(loadRecalls(), Date.now()));
    const small = readFileSync(CATALOGUE, 'utf8');
    // Rows no notice can touch (no barcode, no brand, so no weight of a name word changes), after the real ones: their lines stay.
    const filler: string[] = [];
    let size = Buffer.byteLength(small);
    for (let i = 0; size < STREAM_FROM_BYTES + 4096; i++) {
      const row = `F${i},,,Qwzt vrk ${i},,,,filler`;
      filler.push(row);
      size += row.length + 1;
    }
    const big = path.join(dir, 'catalogue.csv');
    writeFileSync(big, `${small.trimEnd()}\n${filler.join('\n')}\n`);
    // The table (the default on a terminal) streams as well: its rows are sorted for people at the end.
    expect(await streams(big, formatNamed('table'))).toBe(true);
    expect(await streams(CATALOGUE, formatNamed('table'))).toBe(false);
    for (const format of ['jsonl', 'csv', 'table']) {
      const whole = await runMainAgainst(sandbox, ['match', '--catalog', CATALOGUE, '-f', format, '--explain']);
      const streamed = await runMainAgainst(sandbox, ['match', '--catalog', big, '-f', format, '--explain']);
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
        `catalogue: ${(small.trimEnd().split('\n').length - 1 + filler.length).toLocaleString('en')} rows`,
      );
    }
  });
});
