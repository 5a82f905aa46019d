// -f parquet, in process against a sandbox: what feed, query and match write reads back exactly through hyparquet, a reader we did not write.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ColumnKind, createRenderer } from '../../src/output/renderer.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { runMainAgainst } from '../helpers/in-process.js';
import { sandboxFor } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp-dir.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxFor({ recordCount: 60 });
});

type Row = Record<string, unknown>;

function fileBuffer(file: string): ArrayBuffer {
  const bytes = readFileSync(file);
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
}

async function readParquet(file: string): Promise<Row[]> {
  return (await parquetReadObjects({ file: fileBuffer(file) })) as Row[];
}

/** Each schema leaf's name with its physical and converted type, as the file's footer states them. */
function columnTypes(file: string): Record<string, string> {
  const { schema } = parquetMetadata(fileBuffer(file));
  return Object.fromEntries(
    schema.slice(1).map((e) => [e.name, [e.type, e.converted_type].filter((t) => t !== undefined).join('/')]),
  );
}

const jsonl = (text: string): Row[] =>
  text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Row);

/** The instant an API timestamp names: no offset means UTC. */
const instant = (text: string) => new Date(/[Zz]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text}Z`);

describe('feed -f parquet', () => {
  it('round-trips the feed: integer ids, titles, lists of strings as lists, timestamps, nested values as JSON', async () => {
    const dir = tempDir('rf-parquet-');
    const file = path.join(dir, 'recalls.parquet');
    const expected = jsonl((await runMainAgainst(sandbox, ['feed', '-f', 'jsonl'])).stdout);
    expect(expected.length).toBe(60);

    const r = await runMainAgainst(sandbox, ['feed', '-f', 'parquet', '-o', file]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(readdirSync(dir)).toEqual(['recalls.parquet']);

    const types = columnTypes(file);
    expect(types.id).toBe('INT64');
    expect(types.published_at).toBe('INT64/TIMESTAMP_MICROS');
    expect(types.alert_title).toBe('BYTE_ARRAY/UTF8');
    expect(types.risk_types).toBe('LIST');
    expect(types.involved_parties).toBe('BYTE_ARRAY/JSON');

    const rows = await readParquet(file);
    expect(rows.map((row) => Number(row.id))).toEqual(expected.map((e) => e.id));
    expect(rows.map((row) => typeof row.id)).toEqual(expected.map(() => 'bigint'));
    expect(rows.map((row) => row.alert_title)).toEqual(expected.map((e) => e.alert_title));
    expect(rows.map((row) => row.risk_types)).toEqual(expected.map((e) => e.risk_types));
    expect(rows.map((row) => row.geo_jurisdictions)).toEqual(expected.map((e) => e.geo_jurisdictions));
    expect(rows.map((row) => row.packaging_description)).toEqual(expected.map((e) => e.packaging_description));
    expect(rows.map((row) => row.involved_parties)).toEqual(expected.map((e) => e.involved_parties));
    for (const field of ['published_at', 'updated_at', 'created_in_db_at']) {
      expect(rows.map((row) => (row[field] as Date).toISOString())).toEqual(
        expected.map((e) => instant(e[field] as string).toISOString()),
      );
    }
  });

  it('-o x.parquet picks the format by its extension; --columns picks the columns', async () => {
    const dir = tempDir('rf-parquet-');
    const file = path.join(dir, 'few.parquet');
    const r = await runMainAgainst(sandbox, ['feed', '--max', '5', '--columns', 'id,product_name', '-o', file]);
    expect(r.code).toBe(0);
    expect(Object.keys(columnTypes(file))).toEqual(['id', 'product_name']);
    expect((await readParquet(file)).length).toBe(5);
  });

  it('an empty export is still a valid file with the schema', async () => {
    const dir = tempDir('rf-parquet-');
    const file = path.join(dir, 'none.parquet');
    const r = await runMainAgainst(sandbox, ['feed', '--grep', 'no such text anywhere', '-o', file]);
    expect(r.code).toBe(0);
    expect(await readParquet(file)).toEqual([]);
    expect(columnTypes(file).id).toBe('INT64');
  });

  it('is refused, before any request, on stdout, with --append and with --resume', async () => {
    const dir = tempDir('rf-parquet-');
    sandbox.clearRequests();
    const out = await runMainAgainst(sandbox, ['feed', '-f', 'parquet']);
    expect(out.code).toBe(2);
    expect(out.stderr).toBe('error: -f parquet writes a file: add -o <file>\nhint: e.g. -o recalls.parquet\n');
    const append = await runMainAgainst(sandbox, ['feed', '-o', path.join(dir, 'a.parquet'), '--append']);
    expect(append.code).toBe(2);
    expect(append.stderr).toMatch(
      /^error: --append cannot add to a parquet file\nhint: use -f jsonl or -f csv to append\n$/,
    );
    const resume = await runMainAgainst(sandbox, ['feed', '-o', path.join(dir, 'a.parquet'), '--resume']);
    expect(resume.code).toBe(2);
    expect(resume.stderr).toMatch(/^error: --resume cannot continue a parquet file\n/);
    expect(sandbox.requests()).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a failed export leaves no partial behind and prints no --resume command (a parquet file cannot be continued)', async () => {
    const dir = tempDir('rf-parquet-');
    const file = path.join(dir, 'cut.parquet');
    sandbox.setFaults({ failAfterPages: 1 });
    try {
      const r = await runMainAgainst(sandbox, ['--retries', '0', 'feed', '--page-size', '10', '-o', file]);
      expect(r.code).toBe(6);
      expect(r.stderr).not.toContain('--resume');
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      sandbox.setFaults({});
    }
  });
});

describe('query and match -f parquet', () => {
  it('query writes the archive as typed columns, the same records as its jsonl', async () => {
    const dir = tempDir('rf-parquet-');
    const db = path.join(dir, 'a.db');
    expect((await runMainAgainst(sandbox, ['sync', '--db', db])).code).toBe(0);
    const expected = jsonl((await runMainAgainst(sandbox, ['query', '--db', db, '-f', 'jsonl'])).stdout);
    const file = path.join(dir, 'q.parquet');
    expect((await runMainAgainst(sandbox, ['query', '--db', db, '-o', file])).code).toBe(0);
    const rows = await readParquet(file);
    expect(rows.map((row) => Number(row.id))).toEqual(expected.map((e) => e.id));
    expect(rows.map((row) => row.measure_types)).toEqual(expected.map((e) => e.measure_types));
    expect(rows.map((row) => (row.published_at as Date).getTime())).toEqual(
      expected.map((e) => instant(e.published_at as string).getTime()),
    );
  });

  it('match writes its rows with integer lines and ids, the catalogue columns as text', async () => {
    const dir = tempDir('rf-parquet-');
    const feed = jsonl((await runMainAgainst(sandbox, ['feed', '--max', '3', '-f', 'jsonl'])).stdout);
    const catalog = path.join(dir, 'c.csv');
    const lines = feed.map((r, i) => `S${i},${r.product_brand},"${String(r.product_name).replaceAll('"', '""')}"`);
    writeFileSync(catalog, `sku,brand,name\n${lines.join('\n')}\n`);
    const expected = jsonl((await runMainAgainst(sandbox, ['match', '--catalog', catalog, '-f', 'jsonl'])).stdout);
    expect(expected.length).toBeGreaterThan(0);
    const file = path.join(dir, 'm.parquet');
    const r = await runMainAgainst(sandbox, ['match', '--catalog', catalog, '-o', file]);
    expect(r.code).toBe(0);
    expect(existsSync(file)).toBe(true);
    const types = columnTypes(file);
    expect([types.catalog_line, types.recall_id, types.sku]).toEqual(['INT64', 'INT64', 'BYTE_ARRAY/UTF8']);
    const rows = await readParquet(file);
    expect(rows.map((row) => [Number(row.catalog_line), Number(row.recall_id), row.sku, row.level])).toEqual(
      expected.map((e) => [e.catalog_line, e.recall_id, e.sku, e.level]),
    );
  });
});

describe('ParquetRenderer', () => {
  /** Renders `records` with the given kinds; the bytes written, or the error. */
  async function render(records: Row[], columnKinds: Record<string, ColumnKind>): Promise<ArrayBuffer> {
    const chunks: Buffer[] = [];
    const out = new Writable({
      write(chunk: Buffer, _enc, done) {
        chunks.push(Buffer.from(chunk));
        done();
      },
    });
    const renderer = await createRenderer({ format: 'parquet', out, tableColumns: [], columnKinds });
    await renderer.write(records);
    await renderer.end();
    const bytes = Buffer.concat(chunks);
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  }

  it('reads timestamps with offsets and fractions to the microsecond, naive ones as UTC', async () => {
    const file = await render(
      [
        { id: 1, at: '2026-01-02T03:04:05.123456+02:00' },
        { id: 2, at: '2026-01-02T03:04:05' },
        { id: 3, at: null },
      ],
      { id: 'integer', at: 'timestamp' },
    );
    // hyparquet gives a Date (milliseconds); the raw column keeps the microseconds.
    const rows = (await parquetReadObjects({ file })) as Row[];
    expect(rows.map((r) => (r.at as Date | null)?.toISOString() ?? null)).toEqual([
      '2026-01-02T01:04:05.123Z',
      '2026-01-02T03:04:05.000Z',
      null,
    ]);
    const raw = (await parquetReadObjects({
      file,
      columns: ['at'],
      parsers: { timestampFromMicroseconds: (micros: bigint) => micros },
    })) as Row[];
    expect(raw.map((r) => r.at)).toEqual([
      BigInt(Date.UTC(2026, 0, 2, 1, 4, 5)) * 1000n + 123456n,
      BigInt(Date.UTC(2026, 0, 2, 3, 4, 5)) * 1000n,
      null,
    ]);
  });

  it('refuses a value that does not fit its column rather than guess', async () => {
    await expect(render([{ id: 1.5 }], { id: 'integer' })).rejects.toThrow(
      /^parquet: column id of record 1\.5 holds 1\.5, not a whole number$/,
    );
    await expect(render([{ id: 7, at: 'yesterday' }], { at: 'timestamp' })).rejects.toThrow(
      /column at of record 7 holds "yesterday", not an ISO 8601 timestamp/,
    );
    await expect(render([{ id: 7, tags: ['a', 2] }], { tags: 'strings' })).rejects.toThrow(/not a list of strings/);
    // A day the month does not have is no date (Date.parse would roll it over into 2 March).
    await expect(render([{ id: 8, at: '2026-02-30T10:00:00Z' }], { at: 'timestamp' })).rejects.toThrow(
      /column at of record 8 holds "2026-02-30T10:00:00Z", not an ISO 8601 timestamp/,
    );
  });

  it('keeps values of untyped columns: text as text, anything else as its JSON', async () => {
    const file = await render([{ id: 1, note: 'x', extra: { a: [1, 2] }, n: 3 }], {});
    const rows = (await parquetReadObjects({ file })) as Row[];
    expect(rows).toEqual([{ id: '1', note: 'x', extra: '{"a":[1,2]}', n: '3' }]);
  });
});
