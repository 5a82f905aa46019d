// Control characters in records: JSON-escaped (DEL, C1) in jsonl and json on both paths, the archive's stored
// text and parsed records alike; shown as \xNN by csv on a terminal; stripped from message lines.
import { describe, expect, it } from 'vitest';
import { plainLine } from '../../src/output/control-escapes.js';
import { createRenderer, type Format } from '../../src/output/renderer.js';
import { collector } from './output-helpers.js';

const RECORDS = [
  { id: 1, product_name: 'csi \u009b2J del \u007f nel \u0085 esc \u001b[2J bel \u0007', note: 'é ü 😀' },
  { id: 2, product_name: 'plain' },
];

async function render(format: Format, how: 'records' | 'texts', extra = {}) {
  const out = collector();
  const renderer = await createRenderer({ format, out, tableColumns: [], ...extra });
  if (how === 'records') await renderer.write(RECORDS);
  // The archive stores JSON.stringify's text and hands it over as it is.
  else await renderer.writeJson!(RECORDS.map((r) => JSON.stringify(r)));
  await renderer.end();
  return out.text();
}

/** One row {id: 1, v} as csv printed on a terminal. */
async function csvOnTerminal(v: string) {
  const out = collector();
  const renderer = await createRenderer({
    format: 'csv',
    out,
    tableColumns: [],
    toTerminal: true,
    csvColumns: ['id', 'v'],
  });
  await renderer.write([{ id: 1, v }]);
  await renderer.end();
  return out.text();
}

describe('jsonl and json escape DEL and C1', () => {
  it.each<Format>(['jsonl', 'json'])('%s: parsed records and stored JSON text give the same bytes', async (format) => {
    const fromRecords = await render(format, 'records');
    expect(await render(format, 'texts')).toBe(fromRecords);
    expect(fromRecords).not.toMatch(/[\u0007\u001b\u007f-\u009f]/);
    expect(fromRecords).toContain('csi \\u009b2J del \\u007f nel \\u0085 esc \\u001b[2J bel \\u0007');
    // Still the same values, and everything else (é, emoji) as UTF-8.
    expect(fromRecords).toContain('é ü 😀');
    const parsed =
      format === 'json'
        ? JSON.parse(fromRecords)
        : fromRecords
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l));
    expect(parsed).toEqual(RECORDS);
  });
});

describe('the bidi controls, which reorder what a reader sees ("…/\u202efdp.exe" shows as "…/exe.pdf")', () => {
  const hostile = { id: 3, product_name: 'kettle \u202eexe.pdf\u2066 ok\u200f' };

  it.each<Format>(['jsonl', 'json'])('%s escapes them as \\uXXXX, the same value', async (format) => {
    const out = collector();
    const renderer = await createRenderer({ format, out, tableColumns: [] });
    await renderer.write([hostile]);
    await renderer.end();
    expect(out.text()).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200e\u200f]/);
    expect(out.text()).toContain('kettle \\u202eexe.pdf\\u2066 ok\\u200f');
    const text = out.text().trim();
    expect(JSON.parse(text)).toEqual(format === 'json' ? [hostile] : hostile);
  });

  it('csv on a terminal shows them, and a carriage return that ends no line, escaped; a line end inside stays', async () => {
    expect(await csvOnTerminal('fire risk\rSafe, no action \u202eneeded\r\nnext')).toBe(
      'id,v\n1,"fire risk\\x0dSafe, no action \\u202eneeded\r\nnext"\n',
    );
  });

  it('message lines drop them, and the characters that show nothing', () => {
    expect(plainLine('a\u202eb\u200bc\u2060d\ufeffe')).toBe('abcde');
  });
});

describe('csv', () => {
  it('on a terminal shows ESC, BEL, DEL and C1 as \\xNN; tab and line ends stay', async () => {
    expect(await csvOnTerminal('a\u001b]0;t\u0007b\u009bc\u007fd\te\nf')).toBe(
      'id,v\n1,"a\\x1b]0;t\\x07b\\x9bc\\x7fd\te\nf"\n',
    );
  });

  it('into a file or pipe keeps the exact bytes', async () => {
    const out = collector();
    const renderer = await createRenderer({ format: 'csv', out, tableColumns: [], csvColumns: ['id', 'v'] });
    await renderer.write([{ id: 1, v: 'a\u001b]0;t\u0007b\u009bc' }]);
    await renderer.end();
    expect(out.text()).toBe('id,v\n1,a\u001b]0;t\u0007b\u009bc\n');
  });
});

describe('plainLine', () => {
  it('removes controls and bidi overrides, puts line breaks as spaces, and bounds the length', () => {
    expect(plainLine('a\u001b]0;x\u0007b\u009b2Jc\u202ed\ne\r\nf')).toBe('a]0;xb2Jcd e f');
    const long = plainLine('y'.repeat(20_000));
    expect(long).toBe(`${'y'.repeat(10_000)}…`);
  });
});
