// `match --watch` with what `match --learn` learned beside the catalogue: used from the first poll, read again when the
// file changes (here: removed) and said once, whether the catalogue is held whole or streams.
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InterruptedError } from '../../src/runtime/cli-errors.js';
import { fakeClock, runMainAgainst } from '../helpers/in-process.js';
import { PROMOTES_UNCHECKED, UNCHECKED_BARCODE } from '../helpers/learned-promotion.js';
import { jsonLines, sandboxFor } from '../helpers/sandbox.js';
import { paddedToStream } from '../helpers/stream-padding.js';
import { tempDir } from '../helpers/temp-dir.js';

type Rec = Record<string, any>;
const dir = tempDir('rf-match-watch-learned-', { scope: 'file' });
const ean = (value: string) => ({ standard_identifiers_and_barcodes: [{ type: 'EAN', value }] });

describe('match --watch and the learned file', () => {
  it.each([
    ['held whole', (csv: string) => csv],
    ['streamed', (csv: string) => paddedToStream(csv, (i) => `F${i},`).text],
  ])('a catalogue %s: the learned file is used from the first poll, and its removal at the next', async (kind, pad) => {
    const sandbox = await sandboxFor({ recordCount: 0 });
    const catalog = path.join(dir, `${kind.replace(' ', '-')}.csv`);
    writeFileSync(catalog, pad(`sku,ean\nK-1,${UNCHECKED_BARCODE}\n`));
    const learned = `${catalog}.learned.json`;
    writeFileSync(learned, PROMOTES_UNCHECKED);
    const added: { id: number }[] = [];
    let pauses = 0;
    const stop = new AbortController();
    // Poll 1: an empty window. Then a recall of K-1's barcode (poll 2); then the learned file removed and another
    // recall (poll 3); then Ctrl-C.
    const clock = fakeClock(Date.now(), () => {
      pauses++;
      if (pauses === 1) added.push(...sandbox.addRecords([ean(UNCHECKED_BARCODE)]));
      if (pauses === 2) {
        rmSync(learned);
        added.push(...sandbox.addRecords([ean(UNCHECKED_BARCODE)]));
      }
      if (pauses === 3) stop.abort(new InterruptedError('SIGINT'));
    });
    const r = await runMainAgainst(sandbox, ['match', '--catalog', catalog, '--watch', '-f', 'jsonl'], {
      clock,
      signal: stop.signal,
    });
    expect(r.code, r.stderr).toBe(130);
    const [one, two] = added;
    expect((jsonLines(r.stdout) as Rec[]).map((row) => [row.recall_id, row.sku, row.level, row.reason])).toEqual([
      [one!.id, 'K-1', 'match', 'barcode-unchecked'],
      [two!.id, 'K-1', 'possible', 'barcode-unchecked'],
    ]);
    expect(r.stderr.split('\n').filter((line) => line.includes('learned.json'))).toEqual([
      `${learned} is gone: matching without what match --learn learned`,
    ]);
  });
});
