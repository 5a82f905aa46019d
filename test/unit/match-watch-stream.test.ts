// A streamed watch's poll reads the catalogue again when the file is rewritten between its two passes, up to three
// times; a file that never holds still is a usage error.
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CatalogueUnreadableError,
  type HeldSoFar,
  indexedPolls,
  type PollRows,
} from '../../src/jobs/match/watch-polls.js';
import { fileStamp } from '../../src/jobs/match/catalogue-note.js';
import { readCatalogue } from '../../src/match/catalogue.js';
import { CatalogueIndex } from '../../src/match/matcher.js';
import { paddedToStream } from '../helpers/stream-padding.js';
import { streamedPolls } from '../../src/jobs/match/watch-stream.js';
import { endsWatch } from '../../src/runtime/failure-policy.js';
import { UsageError } from '../../src/runtime/cli-errors.js';
import { StatusReporter } from '../../src/runtime/terminal/status.js';
import { tempDir } from '../helpers/temp-dir.js';
import { collector } from './output-helpers.js';

/** A status whose progress lines can act: each catalogue pass reports through it. */
class HookedStatus extends StatusReporter {
  onProgress: ((text: string) => void) | undefined;
  override progress(text: string): void {
    this.onProgress?.(text);
    super.progress(text);
  }
}

const recall = { id: 7, alert_title: 'Pencil recall', standard_identifiers_and_barcodes: ['4006381333931'] };

async function rowsOf(polled: Promise<PollRows>) {
  const rows: Record<string, unknown>[] = [];
  for await (const batch of (await polled).batches()) rows.push(...batch);
  return rows;
}

async function setup() {
  const file = path.join(tempDir('rf-watch-stream-'), 'catalogue.csv');
  writeFileSync(file, 'sku,ean\nK-1,4006381333931\n');
  const err = collector();
  const status = new HookedStatus(err, { spinner: false, quiet: false, verbose: false, now: () => 0 });
  const polls = await streamedPolls({ catalog: file, map: {} }, status, new AbortController().signal);
  return { file, status, polls, err };
}

describe('streamedPolls', () => {
  it('a file rewritten between the census and the match pass is read again, as it is then', async () => {
    const { file, status, polls, err } = await setup();
    let rewrites = 0;
    // The census of this small file is one batch: once it is read, the file changes under the match pass.
    status.onProgress = (text) => {
      if (text.startsWith('reading') && rewrites++ === 0) writeFileSync(file, 'sku,ean\nK-2,4006381333931\n');
    };
    const rows = await rowsOf(polls.poll([recall]));
    expect(rows.map((r) => [r.sku, r.level, r.recall_id])).toEqual([['K-2', 'match', 7]]);
    expect(rewrites).toBe(2);
    expect(err.text()).toContain(`catalogue ${file} changed: 1 row`);
  });

  it('a file rewritten at every read: a usage error after the third', async () => {
    const { file, status, polls } = await setup();
    let reads = 0;
    status.onProgress = (text) => {
      if (text.startsWith('reading')) writeFileSync(file, `sku,ean\nR-${++reads},4006381333931\n`);
    };
    const failed = polls.poll([recall]);
    await expect(failed).rejects.toBeInstanceOf(UsageError);
    await expect(failed).rejects.toThrow(`the catalogue ${file} changed while it was read`);
    expect(reads).toBe(3);
  });

  it('a file gone after the first poll fails that poll only (the watch goes on); at the first poll it is exit 2', async () => {
    const { file, polls } = await setup();
    expect((await rowsOf(polls.poll([recall]))).map((r) => r.sku)).toEqual(['K-1']);
    rmSync(file);
    const gone = await polls.poll([recall]).catch((err: unknown) => err);
    expect(gone).toBeInstanceOf(CatalogueUnreadableError);
    expect(endsWatch(gone)).toBe(false);
    expect((gone as Error).message).toContain(`cannot read the catalogue ${file}`);
    writeFileSync(file, 'sku,ean\nK-3,4006381333931\n');
    expect((await rowsOf(polls.poll([recall]))).map((r) => r.sku)).toEqual(['K-3']);

    const fresh = await setup();
    rmSync(fresh.file);
    const first = await fresh.polls.poll([recall]).catch((err: unknown) => err);
    expect(first).toBeInstanceOf(UsageError);
    expect(endsWatch(first)).toBe(true);
  });

  it('a catalogue held whole that grows large enough to stream is streamed from then on, its change said', async () => {
    const file = path.join(tempDir('rf-watch-grows-'), 'catalogue.csv');
    writeFileSync(file, 'sku,ean\nK-1,4006381333931\n');
    const err = collector();
    const status = new HookedStatus(err, { spinner: false, quiet: false, verbose: false, now: () => 0 });
    const stamp = await fileStamp(file);
    const catalogue = await readCatalogue(file);
    const handedOn: HeldSoFar[] = [];
    const plan = { catalog: file, map: {} };
    const signal = new AbortController().signal;
    const polls = indexedPolls(
      { catalogue, index: new CatalogueIndex(catalogue), stamp, learnedStamp: undefined },
      plan,
      status,
      (held) => {
        handedOn.push(held);
        return streamedPolls(plan, status, signal, held);
      },
    );
    expect((await rowsOf(polls.poll([recall]))).map((r) => r.sku)).toEqual(['K-1']);
    writeFileSync(file, paddedToStream('sku,ean\nK-2,4006381333931\n', (i) => `F${i},`).text);
    expect((await rowsOf(polls.poll([recall]))).map((r) => r.sku)).toEqual(['K-2']);
    expect((await rowsOf(polls.poll([recall]))).map((r) => r.sku)).toEqual(['K-2']);
    expect(handedOn.map((h) => [h.sha256, h.shape.headers])).toEqual([[catalogue.sha256, ['sku', 'ean']]]);
    expect(err.text()).toMatch(new RegExp(`^catalogue ${file} changed: [\\d,]+ rows$`, 'm'));
  });
});
