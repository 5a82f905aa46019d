// --columns takes fields the API added since this version; a custom feed's rows that share no column with the file appended to are refused.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain, runMainAgainst } from '../helpers/in-process.js';
import { ALL_KEY, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';
import { parseCsvWithPython } from '../helpers/python-csv.js';
import { feedBody, scriptedServer } from '../helpers/scripted-server.js';

describe('--columns with a field the API added', () => {
  it('is written under its own column when the records have it', async () => {
    const sandbox = await sandboxFor({ seed: 4, recordCount: 5 });
    const records = sandbox.records().slice(0, 3);
    const added = records.map((r, i) => ({ ...r, recall_reason_code: `R${i}` }));
    await sandbox.close();
    const scripted = await scriptedServer([{ body: feedBody(added) }]);
    const file = path.join(tempDir('rf-columns-'), 'x.csv');
    const r = await runMain(['--base-url', scripted.url, 'feed', '--columns', 'id,recall_reason_code', '-o', file], {
      env: { RECALL_FEED_API_KEY: ALL_KEY },
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(await parseCsvWithPython(file)).toEqual([
      ['id', 'recall_reason_code'],
      ...added.map((rec) => [String(rec.id), rec.recall_reason_code]),
    ]);
  });

  it('is left empty, with a warning, when the records lack it', async () => {
    const sandbox = await sandboxFor({ seed: 4, recordCount: 5 });
    const file = path.join(tempDir('rf-columns-'), 'x.csv');
    const r = await runMainAgainst(sandbox, ['feed', '--columns', 'id,recall_reason_code', '--max', '2', '-o', file]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^warning: no record has the column 'recall_reason_code' \(left empty\)/);
    const rows = await parseCsvWithPython(file);
    expect(rows[0]).toEqual(['id', 'recall_reason_code']);
    expect(rows.slice(1).map((row) => row[1])).toEqual(['', '']);
  });
});

describe('--append of a custom feed to a csv file', () => {
  it('whose header shares no column with its records: exit 2 once the first page shows the fields; file untouched', async () => {
    const scripted = await scriptedServer([{ body: feedBody([{ id: 'a1', sku: 'X-1' }]) }]);
    const dir = tempDir('rf-columns-');
    const file = path.join(dir, 'log.csv');
    const old = 'Kennung;Artikel\na0;X-0\n';
    writeFileSync(file, old);
    const r = await runMain(['--base-url', scripted.url, 'feed', '--custom', 'demo', '-o', file, '--append'], {
      env: { RECALL_FEED_API_KEY: ALL_KEY },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^error: cannot append to \S+log\.csv: its header \(Kennung;Artikel\) shares no column with the records\nhint: it looks `;`-delimited/,
    );
    expect(readFileSync(file, 'utf8')).toBe(old);
    expect(readdirSync(dir)).toEqual(['log.csv']);
  });
});
