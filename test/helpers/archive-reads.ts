// Shared by the tests of reading an archive (in process, and as `nobody` in a process of its own): a synced archive in a
// folder anyone may read, a catalogue beside it, and the read commands run on both.
import { chmodSync, closeSync, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { tempFolder } from './archive.js';
import { runMainAgainst } from './in-process.js';

/** A folder anyone can enter and read, with an archive synced from the sandbox in it. */
export async function syncedFolder(sandbox: Sandbox): Promise<{ dir: string; db: string }> {
  const { dir, file } = tempFolder('rf-ro-');
  chmodSync(dir, 0o755);
  const db = file('recalls.db');
  expect((await runMainAgainst(sandbox, ['sync', '--db', db])).code).toBe(0);
  return { dir, db };
}

/** The commands that only read the archive (and the catalogue). */
export const ARCHIVE_READS = (db: string, catalogue: string) => [
  ['query', '--db', db, '-f', 'jsonl', '--severity', 'high'],
  ['stats', '--db', db, '--by', 'severity,day', '-f', 'json'],
  ['query', '--db', db, '-f', 'jsonl', '--search', 'fire', '--limit', '5'],
  ['match', '--archive', '--db', db, '--catalog', catalogue, '-f', 'jsonl'],
];

/** A one-product catalogue anyone may read, in the folder. */
export function catalogueIn(dir: string): string {
  const file = path.join(dir, 'catalogue.csv');
  const fd = openSync(file, 'w', 0o644);
  writeSync(fd, 'sku,ean,brand,model,name\nA,,Acme,X-1,Kettle\n');
  closeSync(fd);
  return file;
}
