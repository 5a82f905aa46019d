// Text the outputs must not change: a lone CR is a word break and ZWJ/ZWNJ stay in documents (terminal lines still
// drop them), csv's formula guard is undone exactly, and Parquet reads every timestamp the API layer reads, the same.
import { Writable } from 'node:stream';
import { parquetReadObjects } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { timestampMicros } from '../../src/api/timestamps.js';
import { guardFormula, unguardFormula } from '../../src/output/cells.js';
import { plainLine, stripControls } from '../../src/output/control-escapes.js';
import { escapeHtml, escapeMarkdown } from '../../src/output/markup.js';
import { describeItem, plain } from '../../src/output/recall-text.js';
import { createRenderer } from '../../src/output/renderer.js';

const ZWJ = '\u200d';
const ZWNJ = '\u200c';
/** A woman technologist: woman, ZWJ, laptop. */
const TECHNOLOGIST = `\u{1F469}${ZWJ}\u{1F4BB}`;
/** می‌خواهم, "I want": Persian spells it with a ZWNJ after the prefix. */
const PERSIAN = `\u0645\u06cc${ZWNJ}\u062e\u0648\u0627\u0647\u0645`;

describe('document text (plain, describeItem, markup)', () => {
  it('turns a lone CR, like every other line break, into a space between the words', () => {
    for (const br of ['\r', '\n', '\r\n', '\t', '\v', '\f', '\u0085', '\u2028', '\u2029', '\r\r\n\n']) {
      expect(plain({ name: `line1${br}line2` }, 'name'), JSON.stringify(br)).toBe('line1 line2');
    }
    expect(describeItem({ alert_title: 'Kettle\rrecall', id: 1 }).title).toBe('Kettle recall');
    // A control between two breaks goes without leaving two spaces.
    expect(plain({ v: 'a\n\u0007\nb' }, 'v')).toBe('a b');
  });

  it('keeps ZWJ and ZWNJ, and drops the controls, bidi controls and the characters that only hide', () => {
    const value = `${TECHNOLOGIST} ${PERSIAN} x\u200by\u2060z\ufeff \u001b[2Jend\u202e\u009b`;
    const expected = `${TECHNOLOGIST} ${PERSIAN} xyz [2Jend`;
    expect(plain({ v: value }, 'v')).toBe(expected);
    expect(describeItem({ product_name: value }).title).toBe(expected);
    expect(escapeHtml(value)).toBe(expected);
    expect(escapeMarkdown(value)).toBe(expected.replace('[', '\\['));
  });

  it('message lines and stripControls, which the CLI writes to a terminal, still drop ZWJ and ZWNJ', () => {
    expect(plainLine(`evil${ZWJ}.example ${PERSIAN}`)).toBe(`evil.example ${PERSIAN.replace(ZWNJ, '')}`);
    expect(stripControls(`a${ZWJ}b${ZWNJ}c\u200bd`)).toBe('abcd');
  });
});

describe("csv's formula guard", () => {
  const VALUES = ['=1+1', "'=1+1", "''=1+1", "'", "''", "'plain", '+1', '-1', '@x', '\tx', '\rx', 'plain', '', "a'b"];

  it('is undone by unguardFormula for every value', () => {
    for (const value of VALUES) expect(unguardFormula(guardFormula(value)), JSON.stringify(value)).toBe(value);
  });

  it('gives every cell starting with a quote a quote of its own: one quote off such a cell is the value', () => {
    for (const value of VALUES) {
      const cell = guardFormula(value);
      expect(cell.startsWith("'") ? cell.slice(1) : cell, JSON.stringify(value)).toBe(value);
    }
    expect(guardFormula('=1+1')).not.toBe(guardFormula("'=1+1"));
  });

  it("leaves a cell an older version wrote with its value's own quote ('x) as it is", () => {
    expect(unguardFormula("'id")).toBe("'id");
    expect(unguardFormula("'=id")).toBe('=id');
  });
});

describe('Parquet timestamps', () => {
  /** The microseconds the Parquet renderer writes for `at`, or undefined when it refuses the value. */
  async function parquetMicros(at: string): Promise<bigint | undefined> {
    const chunks: Buffer[] = [];
    const out = new Writable({
      write(chunk: Buffer, _enc, done) {
        chunks.push(Buffer.from(chunk));
        done();
      },
    });
    const renderer = await createRenderer({
      format: 'parquet',
      out,
      tableColumns: [],
      columnKinds: { at: 'timestamp' },
    });
    try {
      await renderer.write([{ id: 1, at }]);
      await renderer.end();
    } catch (err) {
      if ((err as Error).name === 'ParquetValueError') return undefined;
      throw err;
    }
    const bytes = Buffer.concat(chunks);
    const rows = await parquetReadObjects({
      file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
      parsers: { timestampFromMicroseconds: (micros: bigint) => micros },
    });
    return (rows[0] as { at: bigint }).at;
  }

  /** Dates, times and zones, combined: the forms either reader takes, and many neither does. */
  function forms(): string[] {
    const dates = ['2026-03-04', '2024-02-29', '2026-02-30', '2026-13-01', '1969-12-31'];
    const times = ['', 'T05:06', 'T05:06:07', 'T05:06:07.1', 'T05:06:07.123456789', 'T24:00:00', 'T23:59:60', 'T05'];
    const zones = ['', 'Z', '+05:30', '-0130', '+23:59', '+24:00', '-00:00'];
    const all = dates.flatMap((d) => times.flatMap((t) => zones.map((z) => `${d}${t}${z}`)));
    return [...all, 'yesterday', '2026-03-04 05:06:07', '2026-03-04T05:06.5', '20260304T050607Z', ''];
  }

  it('are read as src/api/timestamps.ts reads them: the same forms, the same instant', async () => {
    let accepted = 0;
    for (const text of forms()) {
      const api = timestampMicros(text);
      const ours = await parquetMicros(text);
      expect(ours, text).toBe(Number.isNaN(api) ? undefined : BigInt(api));
      if (ours !== undefined) accepted++;
    }
    expect(accepted).toBeGreaterThan(50);
  });

  it('are read in the ISO 8601 forms beyond those: an offset of hours, a comma, lower-case t and z', async () => {
    const base = BigInt(Date.UTC(2026, 2, 4, 5, 6, 7)) * 1000n;
    expect(await parquetMicros('2026-03-04T10:06:07+05')).toBe(base);
    expect(await parquetMicros('2026-03-04T02:06:07-03')).toBe(base);
    expect(await parquetMicros('2026-03-04T05:06:07,25Z')).toBe(base + 250_000n);
    expect(await parquetMicros('2026-03-04t05:06:07z')).toBe(base);
    expect(await parquetMicros('2026-03-04')).toBe(BigInt(Date.UTC(2026, 2, 4)) * 1000n);
    expect(await parquetMicros('2026-03-04T05:06:07+5')).toBeUndefined();
  });
});
