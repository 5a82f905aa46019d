// `match` chooses its output before anything else runs (issue 27): a bad -f or -o is refused before the key is asked for or the archive opened.
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/in-process.js';
import { tempDir } from '../helpers/temp-dir.js';

function catalogue(dir: string): string {
  const file = path.join(dir, 'products.csv');
  writeFileSync(file, 'sku,gtin,name\nA1,4006381333931,Pen\n');
  return file;
}

describe('match refuses a bad output choice first', () => {
  it('live: -f parquet without -o is a usage error (2), not the missing key (3), and nothing is written', async () => {
    const dir = tempDir();
    const r = await runMain(['match', '--catalog', catalogue(dir), '-f', 'parquet'], {
      env: { RECALL_FEED_BASE_URL: 'http://127.0.0.1:9' },
    });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('error: -f parquet writes a file: add -o <file>');
    expect(r.stderr).not.toContain('API key');
    expect(r.stdout).toBe('');
    expect(readdirSync(dir)).toEqual(['products.csv']);
  });

  it('--archive: -o x.gz is refused before the (missing) archive is looked for', async () => {
    const dir = tempDir();
    const out = path.join(dir, 'matches.jsonl.gz');
    const db = path.join(dir, 'missing.db');
    const r = await runMain(['match', '--catalog', catalogue(dir), '--archive', '--db', db, '-o', out]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('error: recall-feed does not write .gz files');
    expect(r.stderr).not.toContain('missing.db');
    expect(readdirSync(dir)).toEqual(['products.csv']);
  });

  it('--quality: a bad -o is refused before the (missing) archive is looked for', async () => {
    const dir = tempDir();
    const db = path.join(dir, 'missing.db');
    const r = await runMain(['match', '--quality', '--db', db, '-o', path.join(dir, 'q.tsv')]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('error: recall-feed does not write .tsv files');
    expect(r.stderr).not.toContain('missing.db');
    expect(readdirSync(dir)).toEqual([]);
  });
});
