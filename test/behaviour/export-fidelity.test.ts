// Exports that keep what the API sent: --columns naming a column twice is refused, csv's formula guard can be undone
// exactly, Parquet takes every ISO 8601 form and null list elements (and refuses, as an invalid answer, what it cannot
// write), and the digest's text keeps a lone CR's word break and the joiners of emoji and Persian words.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parquetReadObjects } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { runMain, runMainAgainst } from '../helpers/in-process.js';
import { parseCsvWithPython } from '../helpers/python-csv.js';
import { ALL_KEY, sandboxFor } from '../helpers/sandbox.js';
import { feedBody, scriptedServer } from '../helpers/scripted-server.js';
import { tempDir } from '../helpers/temp-dir.js';

type Row = Record<string, unknown>;

/** A record with what the client checks (id, data_source, published_at) and `fields`. */
const recall = (id: number, fields: Row = {}): Row => ({
  id,
  data_source: 'us_cpsc',
  published_at: '2026-01-02T03:04:05',
  product_name: `Kettle ${id}`,
  ...fields,
});

/** `feed` against a server that answers one page of `records`, as the API would send them. */
async function feedOf(records: Row[], args: string[]) {
  const server = await scriptedServer([{ body: feedBody(records) }]);
  return runMain(['--base-url', server.url, 'feed', ...args], { env: { RECALL_FEED_API_KEY: ALL_KEY } });
}

function parquetFile(file: string): ArrayBuffer {
  const bytes = readFileSync(file);
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
}

describe('--columns naming a column twice', () => {
  it.each([
    ['-f', 'csv'],
    ['-o', 'dup.parquet'],
  ])('is refused before any request (%s %s): exit 2, one line and a hint, no file', async (flag, value) => {
    const sandbox = await sandboxFor({ recordCount: 3 });
    const dir = tempDir('rf-fidelity-');
    sandbox.clearRequests();
    const target = flag === '-o' ? path.join(dir, value) : value;
    const r = await runMainAgainst(sandbox, ['feed', flag, target, '--columns', 'id,product_name, id', '--max', '2']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('error: --columns names id twice\nhint: name each column once: --columns id,product_name\n');
    expect(sandbox.requests()).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
    await sandbox.close();
  });

  it('says how many times when more than twice', async () => {
    const r = await runMain(['feed', '--sandbox', '--columns', 'id,id,id', '-f', 'csv']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: --columns names id 3 times\nhint: name each column once: --columns id\n');
  });
});

describe("csv's formula guard", () => {
  it('prefixes a leading quote too, so that taking one quote off every cell that starts with one gives each value back', async () => {
    const names = ['=1+1', "'=1+1", "'quoted", "''", '-5 kg', 'plain', "it's"];
    const records = names.map((product_name, i) => recall(i + 1, { product_name }));
    const file = path.join(tempDir('rf-fidelity-'), 'guard.csv');
    const r = await feedOf(records, ['--columns', 'id,product_name', '-o', file]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const rows = await parseCsvWithPython(file);
    // Written out by hand: a `'` before each cell that starts with = + - @ or '.
    expect(rows.slice(1).map((row) => row[1])).toEqual([
      "'=1+1",
      "''=1+1",
      "''quoted",
      "'''",
      "'-5 kg",
      'plain',
      "it's",
    ]);
    const undone = rows.slice(1).map((row) => (row[1]!.startsWith("'") ? row[1]!.slice(1) : row[1]));
    expect(undone).toEqual(names);
  });
});

describe('-f parquet', () => {
  it('reads every ISO 8601 form of a timestamp to the microsecond', async () => {
    // Each form with the instant it names, computed by hand.
    const forms: [string, bigint][] = [
      ['2026-01-02T03:04:05+05', BigInt(Date.UTC(2026, 0, 1, 22, 4, 5)) * 1000n],
      ['2026-01-02T03:04:05,5Z', BigInt(Date.UTC(2026, 0, 2, 3, 4, 5)) * 1000n + 500_000n],
      ['2026-01-02t03:04:05z', BigInt(Date.UTC(2026, 0, 2, 3, 4, 5)) * 1000n],
      ['2026-01-01', BigInt(Date.UTC(2026, 0, 1)) * 1000n],
      ['2026-01-02T03:04:05.123456-0130', BigInt(Date.UTC(2026, 0, 2, 4, 34, 5)) * 1000n + 123_456n],
      ['2026-01-02T03:04', BigInt(Date.UTC(2026, 0, 2, 3, 4)) * 1000n],
    ];
    const file = path.join(tempDir('rf-fidelity-'), 'times.parquet');
    const r = await feedOf(
      forms.map(([at], i) => recall(i + 1, { published_at: at })),
      ['--columns', 'id,published_at', '-o', file],
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const rows = (await parquetReadObjects({
      file: parquetFile(file),
      parsers: { timestampFromMicroseconds: (micros: bigint) => micros },
    })) as Row[];
    expect(rows.map((row) => row.published_at)).toEqual(forms.map(([, micros]) => micros));
  });

  it('writes a null element of a list of strings as a null element', async () => {
    const file = path.join(tempDir('rf-fidelity-'), 'images.parquet');
    const r = await feedOf(
      [recall(1, { images: ['a', null] }), recall(2, { images: [null] })],
      ['--columns', 'id,images', '-o', file],
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const rows = (await parquetReadObjects({ file: parquetFile(file) })) as Row[];
    expect(rows.map((row) => row.images)).toEqual([['a', null], [null]]);
  });

  it('refuses a value of another shape than its column as an invalid answer (exit 7), naming record and column; no file', async () => {
    const dir = tempDir('rf-fidelity-');
    const records = [recall(1010, { risk_types: ['fire'] }), recall(1011, { risk_types: 'fire' })];
    const r = await feedOf(records, ['-o', path.join(dir, 'x.parquet')]);
    expect(r.code).toBe(7);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'error: parquet: column risk_types of record 1011 holds "fire", not a list of strings\n' +
        'hint: the file was left as it was; -f jsonl or -f csv write records of any shape\n',
    );
    expect(readdirSync(dir)).toEqual([]);
    // The hint holds: jsonl writes the same records whole.
    const jsonl = await feedOf(records, ['-f', 'jsonl']);
    expect(jsonl.code).toBe(0);
    expect(
      jsonl.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Row),
    ).toEqual(records);
  });
});

describe("the digest's text", () => {
  it('keeps a lone CR as a word break, and ZWJ and ZWNJ, in text, markdown and html', async () => {
    const sandbox = await sandboxFor({ recordCount: 2 });
    // An emoji sequence joined by ZWJ, a Persian word spelled with ZWNJ (می‌خواهم), and a zero-width space, which goes.
    const title =
      'Kettle line1\rline2 \u{1F469}\u200d\u{1F4BB} \u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645 x\u200by';
    const shown = 'Kettle line1 line2 \u{1F469}\u200d\u{1F4BB} \u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645 xy';
    sandbox.addRecords([{ alert_title: title, risk_severity: 'serious' }]);
    const db = path.join(tempDir('rf-fidelity-'), 'a.db');
    expect((await runMainAgainst(sandbox, ['sync', '--db', db])).code).toBe(0);
    for (const format of ['text', 'markdown', 'html']) {
      const r = await runMainAgainst(sandbox, ['digest', '--db', db, '-f', format]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout, format).toContain(shown);
      expect(r.stdout, format).not.toContain('line1line2');
    }
    await sandbox.close();
  });
});
