// Helpers of the archive tests: a self-cleaning folder, sample records, one sync run's store, and an independent text folding.
import path from 'node:path';
import type { SpecRecall } from '../../src/api/schemas.js';
import { openArchive } from '../../src/archive/open-archive.js';
import type { ArchivedRecord } from '../../src/archive/store.js';
import { generateDataset } from '../../src/sandbox/data.js';
import { FIXED_START } from './sandbox.js';
import { tempDir } from './temp-dir.js';

export { ms } from './expected.js';

/** A folder for the files of a test (or of a file, made at module level), removed as tempDir's are. */
export function tempFolder(prefix = 'rf-archive-'): { dir: string; file: (name: string) => string } {
  const dir = tempDir(prefix);
  return { dir, file: (name) => path.join(dir, name) };
}

/** The text fields full-text search indexes (beside product_model_numbers), as docs/archive.md lists them. */
export const TEXT_FIELDS = [
  'alert_title',
  'alert_summary',
  'product_name',
  'product_brand',
  'hazard_description',
  'product_description',
  'packaging_description',
] as const;

/** Generated records (awkward ones included) plus one with accents and punctuation for full-text tests. */
export function sampleRecords(count = 400, seed = 3): SpecRecall[] {
  const records = generateDataset({ seed, recordCount: count, startTime: FIXED_START });
  const accented = records[records.length - 1] as SpecRecall;
  accented.alert_title = 'Rappel : Crème brûlée à la vanille';
  accented.product_model_numbers = ['XK-200/B', 'ZQ99'];
  accented.product_brand = 'Pâtisserie Œuvre';
  return records;
}

/** Lower case without accents: written apart from src/filters so the tests do not grade the code with itself. */
export const plain = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

/** The words of a text as a full-text index sees them: runs of letters and digits, plain. */
export const words = (s: string) =>
  plain(s)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/** The words `query --search` may find a recall by: those of the fields the archive indexes, read from the spec. */
export const searchableWords = (r: SpecRecall): string[] =>
  [
    r.alert_title,
    r.alert_summary,
    r.product_name,
    r.product_brand,
    r.hazard_description,
    r.product_description,
    r.packaging_description ?? '',
    ...r.product_model_numbers,
  ].flatMap(words);

/** Every item of an async iterable (an archive listing), in order. */
export async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** Stores `records` as one sync run would (new ones first stored, known ones given a new version), the archive closed after. */
export async function storeRun(db: string, records: readonly Record<string, unknown>[]): Promise<void> {
  const archive = await openArchive(db, { create: true });
  try {
    const run = await archive.beginRun({}, Date.now());
    await archive.upsertPage(records as ArchivedRecord[], run, Date.now);
    await archive.finishRun(run, 'ok', Date.now());
  } finally {
    await archive.close();
  }
}
