// The profile's `format` is the default of the commands that write it, never a refusal: not for a command that does
// not write it (`cases verify` with csv), nor parquet without -o (a file-only format), where the usual default applies.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { runMainAgainst } from '../helpers/in-process.js';
import { FIXED_START, jsonLines, lines, sandboxFor } from '../helpers/sandbox.js';
import { withCheck, yoghurtWithBarcode } from '../helpers/barcodes.js';
import { tempDir } from '../helpers/temp-dir.js';

let sandbox: Sandbox;
let dir: string;
let db: string;

/** `recall-feed` against the sandbox, with the profile whose format is `format` (one config folder per format). */
async function withProfileFormat(format: string, args: string[]) {
  const env = { RECALL_FEED_CONFIG_DIR: path.join(dir, `config-${format}`) };
  const set = await runMainAgainst(sandbox, ['config', 'set', 'format', format], { env });
  expect(set.code, set.stderr).toBe(0);
  return runMainAgainst(sandbox, args, { env });
}

beforeAll(async () => {
  sandbox = await sandboxFor({ recordCount: 5, seed: 3, clock: () => FIXED_START });
  dir = tempDir('rf-profile-format-');
  db = path.join(dir, 'recalls.db');
  // A recall with a barcode the catalogue's row carries, so that match opens case 1.
  const code = withCheck('356000000001');
  sandbox.addRecords([yoghurtWithBarcode(code)]);
  const synced = await runMainAgainst(sandbox, ['sync', '--db', db]);
  expect(synced.code, synced.stderr).toBe(0);
  const catalog = path.join(dir, 'products.csv');
  writeFileSync(catalog, `sku,ean\nA1,${code}\n`);
  // On a terminal, where match says what it opened.
  const matched = await runMainAgainst(
    sandbox,
    ['match', '--catalog', catalog, '--archive', '--open-cases', '--db', db],
    {
      stderrIsTTY: true,
    },
  );
  expect(matched.code, matched.stderr).toBe(0);
  expect(matched.stderr).toMatch(/cases: 1 opened/);
});
afterAll(() => sandbox.close());

describe("the profile's format where the command does not write it", () => {
  it('csv: cases verify writes its usual answer (JSON lines in a pipe)', async () => {
    const r = await withProfileFormat('csv', ['cases', 'verify', '--db', db]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(jsonLines(r.stdout).length).toBeGreaterThan(0);
  });

  it('parquet without -o: cases show, query and feed write JSON lines in a pipe', async () => {
    const show = await withProfileFormat('parquet', ['cases', 'show', '1', '--db', db]);
    expect(show.code, show.stderr).toBe(0);
    expect(jsonLines(show.stdout)[0]).toMatchObject({ id: 1, status: 'open' });
    const query = await withProfileFormat('parquet', ['query', '--db', db, '--limit', '3']);
    expect(query.code, query.stderr).toBe(0);
    expect(jsonLines(query.stdout)).toHaveLength(3);
    const feed = await withProfileFormat('parquet', ['feed', '--max', '2']);
    expect(feed.code, feed.stderr).toBe(0);
    expect(jsonLines(feed.stdout)).toHaveLength(2);
  });
});

describe("the profile's format where the command writes it", () => {
  it('csv: cases show and query write csv', async () => {
    const show = await withProfileFormat('csv', ['cases', 'show', '1', '--db', db]);
    expect(show.code, show.stderr).toBe(0);
    expect(lines(show.stdout)[0]).toMatch(/^id,status,recall_id,/);
    const query = await withProfileFormat('csv', ['query', '--db', db, '--limit', '2']);
    expect(query.code, query.stderr).toBe(0);
    expect(lines(query.stdout)[0]).toMatch(/^id,/);
  });

  it('parquet with -o (a name without an extension): query writes a Parquet file', async () => {
    const out = path.join(dir, 'recalls-export');
    const r = await withProfileFormat('parquet', ['query', '--db', db, '--limit', '2', '-o', out]);
    expect(r.code, r.stderr).toBe(0);
    const bytes = readFileSync(out);
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('PAR1');
  });
});
