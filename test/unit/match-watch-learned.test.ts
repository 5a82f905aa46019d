// A watch reads what `match --learn` learned again when that file changes (a weekly --learn reaches a watch that runs for
// months), whether it holds its catalogue whole or streams it: written, the next poll uses it; removed, the next poll
// goes without; unchanged, nothing is read again or said.
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileStamp } from '../../src/jobs/match/catalogue-note.js';
import { indexedPolls, type PollMatcher, type PollRows } from '../../src/jobs/match/watch-polls.js';
import { streamedPolls } from '../../src/jobs/match/watch-stream.js';
import { readCatalogue } from '../../src/match/catalogue.js';
import { CatalogueIndex } from '../../src/match/matcher.js';
import { StatusReporter } from '../../src/runtime/terminal/status.js';
import { PROMOTES_UNCHECKED, UNCHECKED_BARCODE } from '../helpers/learned-promotion.js';
import { paddedToStream } from '../helpers/stream-padding.js';
import { tempDir } from '../helpers/temp-dir.js';
import { collector } from './output-helpers.js';

const recall = { id: 7, alert_title: 'Pencil recall', standard_identifiers_and_barcodes: [UNCHECKED_BARCODE] };
const CATALOGUE = `sku,ean\nK-1,${UNCHECKED_BARCODE}\n`;

async function levels(polled: Promise<PollRows>): Promise<string[]> {
  const rows: Record<string, unknown>[] = [];
  for await (const batch of (await polled).batches()) rows.push(...batch);
  return rows.map((r) => `${r.sku} ${r.level} ${r.reason}`);
}

type Kind = 'held whole' | 'streamed';

async function watchOf(kind: Kind) {
  const dir = tempDir('rf-watch-learned-');
  const file = path.join(dir, 'catalogue.csv');
  writeFileSync(file, kind === 'streamed' ? paddedToStream(CATALOGUE, (i) => `F${i},`).text : CATALOGUE);
  const err = collector();
  const status = new StatusReporter(err, { spinner: false, quiet: false, verbose: false, now: () => 0 });
  const plan = { catalog: file, map: {} };
  const signal = new AbortController().signal;
  let polls: PollMatcher;
  if (kind === 'streamed') polls = await streamedPolls(plan, status, signal);
  else {
    const stamp = await fileStamp(file);
    const catalogue = await readCatalogue(file);
    // Started with no learned file beside the catalogue.
    const start = {
      catalogue,
      index: new CatalogueIndex(catalogue),
      stamp,
      learnedStamp: undefined,
    };
    polls = indexedPolls(start, plan, status, () => {
      throw new Error('a small catalogue is never handed over');
    });
  }
  return { learnedFile: `${file}.learned.json`, polls, err };
}

describe.each<Kind>(['held whole', 'streamed'])('a watch whose catalogue is %s', (kind) => {
  it('reads the learned file again when it is written or removed, and says so; not when it is unchanged', async () => {
    const { learnedFile, polls, err } = await watchOf(kind);
    expect(await levels(polls.poll([recall]))).toEqual(['K-1 possible barcode-unchecked']);

    writeFileSync(learnedFile, PROMOTES_UNCHECKED);
    expect(await levels(polls.poll([recall]))).toEqual(['K-1 match barcode-unchecked']);
    expect(await levels(polls.poll([recall]))).toEqual(['K-1 match barcode-unchecked']);

    rmSync(learnedFile);
    expect(await levels(polls.poll([recall]))).toEqual(['K-1 possible barcode-unchecked']);

    const said = err
      .text()
      .split('\n')
      .filter((l) => l.includes('learned.json'));
    expect(said).toEqual([
      `${learnedFile} changed: matching with what match --learn learned now`,
      `${learnedFile} is gone: matching without what match --learn learned`,
    ]);
  });

  it('a learned file rewritten with something --learn did not write is said and ignored, as at the start', async () => {
    const { learnedFile, polls, err } = await watchOf(kind);
    writeFileSync(learnedFile, PROMOTES_UNCHECKED);
    expect(await levels(polls.poll([recall]))).toEqual(['K-1 match barcode-unchecked']);
    writeFileSync(learnedFile, '{"version": 9}');
    expect(await levels(polls.poll([recall]))).toEqual(['K-1 possible barcode-unchecked']);
    expect(err.text()).toContain(`${learnedFile} is not a file match --learn wrote: ignored`);
  });
});
