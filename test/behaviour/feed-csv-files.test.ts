// csv files read back by Python's csv module: carriage returns, and columns decided by the header already in the file.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECALL_FIELDS } from '../../src/api/constants.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { runMain, runMainAgainst } from '../helpers/in-process.js';
import { FIXED_START, sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';
import { expectedFeed } from '../helpers/expected.js';
import { parseCsvWithPython } from '../helpers/python-csv.js';
import { errorBody, feedBody, scriptedServer } from '../helpers/scripted-server.js';
import { printedCommand } from '../helpers/shell-words.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxFor({ seed: 5, clock: () => FIXED_START });
});
afterAll(() => sandbox.close());

const csvFile = (name = 'out.csv') => path.join(tempDir('rf-csv-'), name);

const expected = () => expectedFeed(sandbox, { now: FIXED_START });
const column = (rows: string[][], name: string) => rows.slice(1).map((r) => r[rows[0]!.indexOf(name)]);
const warnings = (stderr: string) => stderr.split('\n').filter((l) => l.includes('warning'));

describe('csv', () => {
  it('a field with a lone carriage return is quoted and reads back as one field', async () => {
    const title = 'Kettle model A\rKettle model B';
    const [added] = sandbox.addRecords([{ alert_title: title, product_name: 'line one\nline two' }]);
    const file = csvFile();
    const r = await runMainAgainst(sandbox, ['feed', '--max', '5', '-o', file]);
    expect(r.code).toBe(0);
    const rows = await parseCsvWithPython(file);
    expect(rows).toHaveLength(6);
    expect(rows.every((row) => row.length === rows[0]!.length)).toBe(true);
    const mine = rows.find((row) => row[0] === String(added!.id))!;
    expect(mine[rows[0]!.indexOf('alert_title')]).toBe(title);
    expect(mine[rows[0]!.indexOf('product_name')]).toBe('line one\nline two');
  });

  it('--append follows the header of the file: fields it lacks are left out with one warning, its extra columns stay empty', async () => {
    const file = csvFile();
    const older = RECALL_FIELDS.filter((f) => f !== 'risk_types' && f !== 'hazard_description');
    const first = await runMainAgainst(sandbox, ['feed', '--max', '2', '-o', file, '--columns', older.join(',')]);
    expect(first.code).toBe(0);
    // A file from an older layout: one more column, which this version no longer knows.
    const old = parse(readFileSync(file, 'utf8')) as string[][];
    writeFileSync(file, stringify(old.map((row, i) => [...row, i === 0 ? 'legacy_col' : ''])));
    const r = await runMainAgainst(sandbox, ['feed', '--max', '3', '-o', file, '--append']);
    expect(r.code).toBe(0);
    expect(warnings(r.stderr)).toEqual([
      'warning: the header of the file has no column for risk_types, hazard_description; left out',
    ]);
    const rows = await parseCsvWithPython(file);
    expect(rows[0]).toEqual([...older, 'legacy_col']);
    expect(rows).toHaveLength(6);
    expect(rows.every((row) => row.length === rows[0]!.length)).toBe(true);
    const all = expected();
    expect(column(rows, 'id')).toEqual([...all.slice(0, 2), ...all.slice(0, 3)].map((x) => String(x.id)));
    expect(column(rows, 'alert_title')).toEqual([...all.slice(0, 2), ...all.slice(0, 3)].map((x) => x.alert_title));
    expect(column(rows, 'legacy_col')).toEqual(['', '', '', '', '']);
  });

  it('reads a header written by another tool: a BOM, quoted cells', async () => {
    const file = csvFile();
    writeFileSync(file, '\uFEFF"alert_title","id","legacy, col"\r\n"Old, one",7,x\r\n');
    const r = await runMainAgainst(sandbox, ['feed', '--max', '2', '-o', file, '--append']);
    expect(r.code).toBe(0);
    expect(warnings(r.stderr)).toHaveLength(1);
    const rows = await parseCsvWithPython(file);
    const two = expected().slice(0, 2);
    expect(rows).toEqual([
      ['alert_title', 'id', 'legacy, col'],
      ['Old, one', '7', 'x'],
      ...two.map((x) => [x.alert_title, String(x.id), '']),
    ]);
  });

  it('a resume whose later pages carry a new field keeps the columns of the partial, with one warning', async () => {
    const record = (id: number, extra: Record<string, unknown> = {}) => ({
      id,
      data_source: 'us_cpsc',
      alert_title: `recall ${id}`,
      published_at: '2026-01-15T11:00:00',
      updated_at: '2026-01-15T11:00:00',
      created_in_db_at: '2026-01-15T11:00:01.000000+00:00',
      ...extra,
    });
    const server = await scriptedServer([
      { body: feedBody([record(3), record(2)], { hasMore: true, next: 'c1' }) },
      { status: 503, body: errorBody('service_unavailable', 'down for a moment') },
      { body: feedBody([record(1, { hazard_code: 'H1', recall_class: 'II' })]) },
    ]);
    try {
      const file = csvFile();
      const key = { RECALL_FEED_API_KEY: sandbox.keys[0]!.key };
      const first = await runMain(['--base-url', server.url, '--retries', '0', 'feed', '-o', file], { env: key });
      expect(first.code).toBe(6);
      const second = await runMain(printedCommand(first.stderr), { env: key });
      expect(second.code).toBe(0);
      expect(warnings(second.stderr)).toEqual([
        'warning: the header of the file has no column for hazard_code, recall_class; left out',
      ]);
      const rows = await parseCsvWithPython(file);
      expect(rows[0]).toEqual([...RECALL_FIELDS]);
      expect(rows.every((row) => row.length === RECALL_FIELDS.length)).toBe(true);
      expect(column(rows, 'id')).toEqual(['3', '2', '1']);
      server.verify();
    } finally {
      await server.close();
    }
  });
});
