// The table renderer: exact layout, streaming with stable widths, width fitting, CJK/emoji alignment, colour.
import { describe, expect, it } from 'vitest';
import { createRenderer, type RenderOptions } from '../../src/output/renderer.js';
import { fitWidths, MIN_COLUMN, tableFits, waterFill, type ColumnWant } from '../../src/output/table.js';
import { displayWidth } from '../../src/output/text-width.js';
import { AWKWARD, collector } from './output-helpers.js';

const COLUMNS = ['id', 'data_source', 'risk_severity', 'alert_title', 'product_name', 'published_at'];

async function table(batches: Record<string, unknown>[][], extra: Partial<RenderOptions> = {}) {
  const out = collector();
  const renderer = await createRenderer({ format: 'table', out, tableColumns: COLUMNS, ...extra });
  for (const batch of batches) await renderer.write(batch);
  await renderer.end();
  return { text: out.text(), count: renderer.count };
}

const LONG = (i: number): Record<string, unknown> => ({
  id: 1000 + i,
  data_source: 'rappel_conso_food',
  risk_severity: i % 3 ? 'serious' : 'low',
  alert_title: `Rappel ${i}: 电动自行车电池 过热 😀 risk of fire when charging overnight, stop using immediately`,
  product_name: `Ｗｉｄｇｅｔ model ${i} with a long descriptive product name 🇫🇷`,
  published_at: '2024-05-01T10:00:00',
});

describe('table', () => {
  it('lays out a header, a rule and truncated single-line cells; batches continue the same table', async () => {
    const { text, count } = await table([AWKWARD.slice(0, 2), [], AWKWARD.slice(2)], { width: 80 });
    expect(text).toBe(
      [
        'id  data_source  risk_severity  alert_title    product_name  published_at (UTC)',
        '──  ───────────  ─────────────  ─────────────  ────────────  ───────────────────',
        '1   us_cpsc      high           Heater, "Mod…  =HYPERLINK(…  2024-05-01T10:00:00',
        '22  safety_gate  medium         電気ケトル …   +1 kettle     2024-05-01T11:00:00',
        // Widths come from the first batch, so a later longer id is cut rather than shifting columns.
        '3…  uk_opss      low             Tabbed line   -5            2024-05-01T12:00:00',
        '',
      ].join('\n'),
    );
    expect(count).toBe(3);
  });

  it('shows arrays joined with ", ", objects as JSON, null as empty; unknown columns empty; header:false', async () => {
    const { text } = await table([AWKWARD.slice(0, 2)], {
      columns: ['id', 'risk_types', 'involved_parties', 'packaging_description', 'nope'],
      header: false,
    });
    expect(text).toBe(
      [
        '1   fire, burn  {"name":"Acme","role":"maker","country":"US"}',
        '22                                                             @home',
        '',
      ].join('\n'),
    );
  });

  it('strips control characters so a record cannot drive the terminal', async () => {
    const { text } = await table([[{ id: 1, alert_title: 'a\u001b[31mred\u0007\u200b\u202eb' }]], {
      columns: ['id', 'alert_title'],
      header: false,
    });
    expect(text).toBe('1  a[31mredb\n');
  });

  it('writes nothing for an empty run', async () => {
    expect((await table([])).text).toBe('');
    expect((await table([[]])).text).toBe('');
  });

  it.each([60, 80, 200])('never writes a line wider than width %i, and keeps CJK/emoji rows aligned', async (width) => {
    const batches = [Array.from({ length: 5 }, (_, i) => LONG(i)), Array.from({ length: 5 }, (_, i) => LONG(i + 5))];
    const { text } = await table(batches, { width });
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(12);
    for (const line of lines) expect(displayWidth(line)).toBeLessThanOrEqual(width);
    // Every data row puts published_at (the last column) at the same display column.
    const starts = lines.slice(2).map((line) => displayWidth(line.slice(0, line.lastIndexOf('2024-'))));
    expect(new Set(starts).size).toBe(1);
    // The header appears once although two batches were written.
    expect(lines.filter((l) => l.startsWith('id')).length).toBe(1);
    // Short columns are never cut; at 200 only the longest text column is.
    expect(text).toMatch(width >= 80 ? /^1009  rappel_conso_food  low /m : /^1009  rappel_c…  low /m);
    if (width === 200) expect(text).toContain('Ｗｉｄｇｅｔ model 0 with a long descriptive product name 🇫🇷');
    expect(text).toContain('…');
  });

  it('pads with its own display widths, so an emoji newer than string-width 4 (🫨, Unicode 15) does not shift a row', async () => {
    const records = [
      { id: 1, alert_title: 'shaking 🫨 faces', published_at: '2024-05-01T10:00:00' },
      { id: 2, alert_title: 'plain words here', published_at: '2024-05-01T11:00:00' },
    ];
    const { text } = await table([records], { columns: ['id', 'alert_title', 'published_at'], width: 80 });
    // '🫨' takes two columns, so both titles are 16 columns wide and need no padding.
    expect(text).toBe(
      [
        'id  alert_title       published_at (UTC)',
        '──  ────────────────  ───────────────────',
        '1   shaking 🫨 faces  2024-05-01T10:00:00',
        '2   plain words here  2024-05-01T11:00:00',
        '',
      ].join('\n'),
    );
  });

  it('colours risk_severity (chalk at the level given), never anything else; no colour by default', async () => {
    const records = [
      { id: 1, risk_severity: 'high' },
      { id: 2, risk_severity: 'Serious' },
      { id: 3, risk_severity: 'medium' },
      { id: 4, risk_severity: 'low' },
      { id: 5, risk_severity: 'unknown' },
    ];
    const coloured = await table([records], { columns: ['id', 'risk_severity'], color: 1 });
    expect(coloured.text).toBe(
      [
        'id  risk_severity',
        '──  ─────────────',
        '1   \u001b[31mhigh\u001b[39m',
        '2   \u001b[31mSerious\u001b[39m',
        '3   \u001b[33mmedium\u001b[39m',
        '4   \u001b[32mlow\u001b[39m',
        '5   unknown',
        '',
      ].join('\n'),
    );
    const plain = await table([records], { columns: ['id', 'risk_severity'] });
    expect(plain.text).not.toContain('\u001b');
  });
});

describe('column widths', () => {
  const col = (natural: number, flex: boolean, content = natural): ColumnWant => ({ natural, content, flex });

  it('keeps natural widths when everything fits', () => {
    expect(fitWidths([col(2, false), col(10, false), col(30, true)], 80)).toEqual([2, 10, 30]);
  });

  it('keeps short columns whole and lets free-text columns share the rest', () => {
    // 60 - 3 separators of 2 = 54; fixed 2 + 19 = 21; 33 left for the two text columns.
    expect(fitWidths([col(2, false), col(19, false), col(100, true), col(80, true)], 60)).toEqual([2, 19, 17, 16]);
    expect(fitWidths([col(2, false), col(19, false), col(10, true), col(80, true)], 60)).toEqual([2, 19, 10, 23]);
  });

  it("cuts a short column's header to its values before squeezing the text columns", () => {
    // risk_severity (13) holding "serious" (7): 40 - 3 * 2 = 34; 13 + 10 leaves 11 < 2 * 12; 7 + 10 leaves 17.
    expect(fitWidths([col(13, false, 7), col(10, false), col(50, true), col(50, true)], 40)).toEqual([7, 10, 8, 9]);
  });

  it('tableFits: each column needs MIN_COLUMN or its natural width, when smaller, plus separators', () => {
    expect(MIN_COLUMN).toBe(8);
    // 2 + 8 + 8 + 2 * 2 = 22.
    expect(tableFits([col(2, false), col(19, false), col(50, true)], 22)).toBe(true);
    expect(tableFits([col(2, false), col(19, false), col(50, true)], 21)).toBe(false);
  });

  it('shrinks every column when the short ones alone do not fit', () => {
    const widths = fitWidths([col(30, false), col(30, false), col(30, true)], 40);
    expect(widths.reduce((a, b) => a + b, 0) + 4).toBeLessThanOrEqual(40);
  });

  it('water-fills: small wants are met, the rest split evenly', () => {
    expect(waterFill([3, 50, 50], 30)).toEqual([3, 13, 14]);
  });
});

describe('narrow terminals: one record per block', () => {
  // The feed's default table columns, in their order.
  const FEED_COLUMNS = ['published_at', 'data_source', 'risk_severity', 'product_brand', 'product_name', 'alert_title'];
  const RECORDS = [
    {
      published_at: '2024-05-01T10:00:00',
      data_source: 'us_cpsc',
      risk_severity: 'high',
      product_brand: 'Acme',
      product_name: 'Kettle model A',
      alert_title: 'Kettle overheats and may catch fire while boiling water',
    },
    {
      published_at: '2024-05-01T11:00:00',
      data_source: 'uk_opss',
      risk_severity: 'low',
      product_brand: 'Bolt',
      product_name: 'Cot',
      alert_title: 'Cot sides loosen',
    },
  ];
  const feed = (width: number, extra: Partial<RenderOptions> = {}) =>
    table([RECORDS], { tableColumns: FEED_COLUMNS, width, ...extra });

  it('200 columns: a table at natural widths', async () => {
    expect((await feed(200)).text).toBe(
      [
        'published_at (UTC)   data_source  risk_severity  product_brand  product_name    alert_title',
        '───────────────────  ───────────  ─────────────  ─────────────  ──────────────  ───────────────────────────────────────────────────────',
        '2024-05-01T10:00:00  us_cpsc      high           Acme           Kettle model A  Kettle overheats and may catch fire while boiling water',
        '2024-05-01T11:00:00  uk_opss      low            Bolt           Cot             Cot sides loosen',
        '',
      ].join('\n'),
    );
  });

  it('80 columns: a table; short headers cut to their values, the title cut', async () => {
    // 80 - 5 separators = 70: dates 19, the other short columns their values (7, 4, 4), name 14, title 22.
    expect((await feed(80)).text).toBe(
      [
        'published_at (UTC)   data_s…  ris…  pro…  product_name    alert_title',
        '───────────────────  ───────  ────  ────  ──────────────  ──────────────────────',
        '2024-05-01T10:00:00  us_cpsc  high  Acme  Kettle model A  Kettle overheats and …',
        '2024-05-01T11:00:00  uk_opss  low   Bolt  Cot             Cot sides loosen',
        '',
      ].join('\n'),
    );
  });

  it('58 columns is the least a six-column table gets (8 each + 5 separators); 57 gives blocks', async () => {
    expect((await feed(58)).text.split('\n')[1]).toMatch(/^─+( {2}─+){5}$/);
    expect((await feed(57)).text).toMatch(/^published_at \(UTC\): 2024-05-01T10:00:00\n/);
  });

  it('40 columns: `field: value` lines, a long value wrapped below its label, a blank line between records', async () => {
    expect((await feed(40)).text).toBe(
      [
        'published_at (UTC): 2024-05-01T10:00:00',
        'data_source: us_cpsc',
        'risk_severity: high',
        'product_brand: Acme',
        'product_name: Kettle model A',
        'alert_title:',
        ' Kettle overheats and may catch fire',
        ' while boiling water',
        '',
        'published_at (UTC): 2024-05-01T11:00:00',
        'data_source: uk_opss',
        'risk_severity: low',
        'product_brand: Bolt',
        'product_name: Cot',
        'alert_title: Cot sides loosen',
        '',
      ].join('\n'),
    );
  });

  it('20 columns: long values on the lines below their label, indented by one space; nothing wider than 20', async () => {
    const { text } = await feed(20);
    expect(text).toBe(
      [
        'published_at (UTC):',
        ' 2024-05-01T10:00:00',
        'data_source: us_cpsc',
        'risk_severity: high',
        'product_brand: Acme',
        'product_name:',
        ' Kettle model A',
        'alert_title:',
        ' Kettle overheats',
        ' and may catch fire',
        ' while boiling water',
        '',
        'published_at (UTC):',
        ' 2024-05-01T11:00:00',
        'data_source: uk_opss',
        'risk_severity: low',
        'product_brand: Bolt',
        'product_name: Cot',
        'alert_title:',
        ' Cot sides loosen',
        '',
      ].join('\n'),
    );
    for (const line of text.split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(20);
  });

  it('keeps blocks for later batches, separated like the first, and colours severities in them', async () => {
    const { text } = await table([[RECORDS[0]!], [RECORDS[1]!]], {
      columns: ['risk_severity', 'product_name'],
      width: 16,
      color: 1,
    });
    expect(text).toBe(
      [
        'risk_severity:',
        ' \u001b[31mhigh\u001b[39m',
        'product_name:',
        ' Kettle model A',
        '',
        'risk_severity:',
        ' \u001b[32mlow\u001b[39m',
        'product_name:',
        ' Cot',
        '',
      ].join('\n'),
    );
  });

  it('cuts a label wider than the terminal, leaves an empty value empty, and keeps a value to three lines', async () => {
    const record = { a_very_long_field_name: 'x', b: null, c: 'one two three four five six seven' };
    const { text } = await table([[record]], { columns: ['a_very_long_field_name', 'b', 'c'], width: 10 });
    expect(text).toBe('a_very_lo…\n x\nb:\nc:\n one two\n three\n four fiv…\n');
  });
});
