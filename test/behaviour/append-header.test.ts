// `--append` to a csv file whose header the rows cannot follow is refused before any request; a CRLF file keeps its line ends.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { runMainAgainst } from '../helpers/in-process.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';
import { expectedFeed } from '../helpers/expected.js';
import { parseCsvWithPython } from '../helpers/python-csv.js';

let sandbox: Sandbox;
beforeAll(async () => {
  // The real clock: --state forgets what was published more than 25 hours before now.
  sandbox = await sandboxFor({ seed: 9, recordCount: 40 });
});
afterAll(() => sandbox.close());

/** The README's cron recipe, after someone re-saved the file. */
const cron = (file: string, state: string) =>
  runMainAgainst(sandbox, ['feed', '-f', 'csv', '-o', file, '--append', '--state', state, '--max', '3']);

describe('--append to a csv file whose header does not fit', () => {
  const refused = [
    {
      what: 'a `;`-delimited header (re-saved by a French or German Excel)',
      content: 'id;product_name\n1;old\n',
      message:
        /^error: cannot append to \S+semi\.csv: its header \(id;product_name\) shares no column with the records\n/,
      hint: /\nhint: it looks `;`-delimited, as a French or German Excel saves csv: re-save it with commas \(or move it away\), then run again\n$/,
      name: 'semi.csv',
    },
    {
      what: 'a header whose names differ only in case',
      content: 'ID,Product_Name\n1,old\n',
      message:
        /^error: cannot append to \S+case\.csv: its header \(ID,Product_Name\) shares no column with the records\n/,
      hint: /\nhint: its column names differ from the records' only in case \(ID, Product_Name\): rename them in lower case, or move the file away\n$/,
      name: 'case.csv',
    },
    {
      what: 'a header with some of the columns but no id',
      content: 'product_name,notes\nkettle,mine\n',
      message: /^error: cannot append to \S+noid\.csv: its header \(product_name,notes\) has no id column\n/,
      hint: /\nhint: append to a csv file this tool wrote \(with the same --columns\), or write to a new file\n$/,
      name: 'noid.csv',
    },
  ];
  for (const c of refused) {
    it(`${c.what}: exit 2, nothing sent, the file and the state untouched`, async () => {
      const dir = tempDir('rf-append-header-');
      const file = path.join(dir, c.name);
      const state = path.join(dir, 'st.json');
      writeFileSync(file, c.content);
      const stateBefore = '{"version":1,"seen":{}}\n';
      writeFileSync(state, stateBefore);
      sandbox.clearRequests();
      const r = await cron(file, state);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(c.message);
      expect(r.stderr).toMatch(c.hint);
      expect(r.stdout).toBe('');
      expect(sandbox.requests()).toEqual([]);
      expect(readFileSync(file, 'utf8')).toBe(c.content);
      expect(readFileSync(state, 'utf8')).toBe(stateBefore);
      expect(readdirSync(dir).sort()).toEqual([c.name, 'st.json'].sort());
    });
  }

  it('a header with the id and some of the columns: every row written carries its id, and only those ids are remembered', async () => {
    const dir = tempDir('rf-append-header-');
    const file = path.join(dir, 'some.csv');
    const state = path.join(dir, 'st.json');
    writeFileSync(file, 'id,product_name,my_notes\n0,old,x\n');
    const r = await cron(file, state);
    expect(r.code).toBe(0);
    const rows = await parseCsvWithPython(file);
    expect(rows[0]).toEqual(['id', 'product_name', 'my_notes']);
    const newest = expectedFeed(sandbox).slice(0, 3);
    const written = rows.slice(2);
    // Oldest first, as --state writes them; the name under its own column, the column we do not have empty.
    expect(written.map((row) => row[0])).toEqual(newest.reverse().map((rec) => String(rec.id)));
    for (const row of written) expect(row.slice(1).map((cell) => cell !== '')).toEqual([true, false]);
    const seen = Object.keys((JSON.parse(readFileSync(state, 'utf8')) as { seen: object }).seen);
    expect(seen.sort()).toEqual(written.map((row) => row[0]).sort());
  });
});

describe('--append to a CRLF csv file', () => {
  it('adds rows with CRLF line ends, also after a last line without one', async () => {
    const dir = tempDir('rf-append-crlf-');
    const file = path.join(dir, 'win.csv');
    const old = 'id,product_name\r\n0,old';
    writeFileSync(file, old);
    const r = await runMainAgainst(sandbox, [
      'feed',
      '-o',
      file,
      '--append',
      '--columns',
      'id,product_name',
      '--max',
      '4',
    ]);
    expect(r.code).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith(`${old}\r\n`)).toBe(true);
    // Every row ends with CRLF: outside quoted fields (which keep their own line breaks) no bare CR or LF.
    const outsideQuotes = text.replace(/"(?:[^"]|"")*"/g, '');
    expect(outsideQuotes.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    expect(outsideQuotes.match(/\r\n/g)).toHaveLength(6);
    const rows = await parseCsvWithPython(file);
    expect(rows.slice(2).map((row) => row[0])).toEqual(
      expectedFeed(sandbox)
        .slice(0, 4)
        .map((rec) => String(rec.id)),
    );
  });
});
