// Helpers of the archive tests: a temporary folder removed afterwards, sample records, and an independent text folding.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SpecRecall } from '../../src/api/schemas.js';
import { generateDataset } from '../../src/sandbox/data.js';

export const SAMPLE_START = Date.parse('2026-01-15T12:00:00Z');

/** A folder for one test's files; `cleanup` removes it and everything in it. */
export function tempFolder(prefix = 'rf-archive-'): {
  dir: string;
  file: (name: string) => string;
  cleanup: () => void;
} {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  return { dir, file: (name) => path.join(dir, name), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Generated records (awkward ones included) plus one with accents and punctuation for full-text tests. */
export function sampleRecords(count = 400, seed = 3): SpecRecall[] {
  const records = generateDataset({ seed, recordCount: count, startTime: SAMPLE_START });
  const accented = records[records.length - 1] as SpecRecall;
  accented.alert_title = 'Rappel : Crème brûlée à la vanille';
  accented.product_model_numbers = ['XK-200/B', 'ZQ99'];
  accented.product_brand = 'Pâtisserie Œuvre';
  return records;
}

/** Naive timestamps are UTC; milliseconds since the epoch. */
export const ms = (iso: string) => Date.parse(/([zZ]|[+-]\d\d:\d\d)$/.test(iso) ? iso : `${iso}Z`);

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
