// Byte-exact contract of the csv renderer: quoting, cells, formula guard, header, BOM, columns.
import { describe, expect, it } from 'vitest';
import { createRenderer, type RenderOptions } from '../../src/output/renderer.js';
import { RECALL_FIELDS } from '../../src/api/schemas.js';
import { AWKWARD, collector } from './output-helpers.js';

async function csv(batches: Record<string, unknown>[][], extra: Partial<RenderOptions> = {}) {
  const out = collector();
  const renderer = await createRenderer({ format: 'csv', out, tableColumns: [], ...extra });
  for (const batch of batches) await renderer.write(batch);
  await renderer.end();
  return { text: out.text(), bytes: out.bytes(), count: renderer.count };
}

const BASE = ['id', 'data_source', 'alert_title', 'risk_severity'];

describe('csv', () => {
  it('quotes per RFC 4180, formats every kind of cell, guards formulas, ends lines with \\n', async () => {
    const { text, count } = await csv([AWKWARD.slice(0, 2), [], AWKWARD.slice(2)], { csvColumns: BASE });
    expect(text).toBe(
      [
        'id,data_source,alert_title,risk_severity,risk_types,product_name,packaging_description,involved_parties,published_at,extra_field',
        '1,us_cpsc,"Heater, ""Model X""\nrecalled",high,fire; burn,"\'=HYPERLINK(""http://evil"")",,' +
          '"[{""name"":""Acme"",""role"":""maker"",""country"":""US""}]",2024-05-01T10:00:00,',
        '22,safety_gate,電気ケトル 😀 リコール,medium,,\'+1 kettle,\'@home,,2024-05-01T11:00:00,"{""nested"":true}"',
        '333,uk_opss,"\'\tTabbed\r\nline",low,"[""-x"",2]",\'-5,plain,,2024-05-01T12:00:00,',
        '',
      ].join('\n'),
    );
    expect(count).toBe(3);
  });

  it('keeps cells raw with formulaGuard:false', async () => {
    const { text } = await csv([[{ a: '=1+2', b: '+x', c: '-y', d: '@z', e: '\tt', f: ['=a', 'b'], g: -5 }]], {
      formulaGuard: false,
    });
    expect(text).toBe('a,b,c,d,e,f,g\n=1+2,+x,-y,@z,\tt,=a; b,-5\n');
  });

  it('guards string cells and joined arrays, not real numbers, and the header too', async () => {
    const { text } = await csv([[{ a: '=1+2', b: '+x', c: '-y', d: '@z', e: '\tt', f: ['=a', 'b'], g: -5, '=h': 1 }]]);
    expect(text).toBe("a,b,c,d,e,f,g,'=h\n'=1+2,'+x,'-y,'@z,'\tt,'=a; b,-5,1\n");
  });

  it('writes numbers and booleans as text, null and undefined empty, arrays of non-strings and objects as JSON', async () => {
    const { text } = await csv([
      [
        {
          n: 1.5,
          t: true,
          f: false,
          z: null,
          u: undefined,
          e: [],
          s: ['a', 'b'],
          m: [1, 'a'],
          o: { k: [1] },
          q: 'say "hi"',
        },
      ],
    ]);
    expect(text).toBe('n,t,f,z,u,e,s,m,o,q\n1.5,true,false,,,,a; b,"[1,""a""]","{""k"":[1]}","say ""hi"""\n');
  });

  it('fixes the columns at the first batch: later new fields are left out, missing ones are empty', async () => {
    const { text } = await csv([[{ b: 1, a: 2 }], [{ a: 3, c: 4 }]]);
    expect(text).toBe('b,a\n1,2\n,3\n');
  });

  it('follows --columns exactly; unknown names render empty', async () => {
    const { text } = await csv([AWKWARD.slice(0, 1)], { columns: ['risk_severity', 'nope', 'id'], csvColumns: BASE });
    expect(text).toBe('risk_severity,nope,id\nhigh,,1\n');
  });

  it('starts from RECALL_FIELDS when given as csvColumns, appending unknown fields', async () => {
    const { text } = await csv([[{ id: 7, surprise: 'x' }]], { csvColumns: RECALL_FIELDS });
    const [header, row] = text.split('\n');
    expect(header).toBe([...RECALL_FIELDS, 'surprise'].join(','));
    expect(row).toBe(`7${','.repeat(RECALL_FIELDS.length - 1)},x`);
  });

  it('prepends a BOM once with bom:true, none by default', async () => {
    const withBom = await csv([[{ a: 1 }], [{ a: 2 }]], { bom: true });
    expect(withBom.bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(withBom.bytes.subarray(3).toString()).toBe('a\n1\n2\n');
    const plain = await csv([[{ a: 1 }]]);
    expect(plain.bytes[0]).toBe(0x61);
  });

  it('omits the header with header:false (appending to a non-empty file)', async () => {
    const { text } = await csv([AWKWARD.slice(0, 1)], { header: false, columns: ['id', 'risk_severity'] });
    expect(text).toBe('1,high\n');
  });

  it('writes only the header for an empty run when the columns are known up front', async () => {
    expect((await csv([], { csvColumns: BASE })).text).toBe('id,data_source,alert_title,risk_severity\n');
    expect((await csv([[]], { columns: ['a'], bom: true })).text).toBe('\ufeffa\n');
  });

  it('writes nothing (not even a BOM) for an empty run with unknown columns or header:false', async () => {
    expect((await csv([], { bom: true })).bytes.length).toBe(0);
    expect((await csv([[]], { csvColumns: BASE, header: false })).bytes.length).toBe(0);
  });

  it('quotes a field holding a lone CR, or a CR at its end, like one holding LF', async () => {
    const { text } = await csv([[{ a: 'Kettle A\rKettle B', b: 'end\r', c: 'plain' }]], { formulaGuard: false });
    expect(text).toBe('a,b,c\n"Kettle A\rKettle B","end\r",plain\n');
  });

  it('follows an existing header (guarded cells read back), writes no header, and reports each left-out field once', async () => {
    const dropped: string[][] = [];
    const { text } = await csv([[{ id: 1, '=f': 'x', new1: 'a' }], [{ id: 2, new1: 'b', new2: 'c' }]], {
      existingHeader: ['id', "'=f", 'gone'],
      header: true,
      onDroppedFields: (f) => dropped.push(f),
    });
    expect(text).toBe('1,x,\n2,,\n');
    expect(dropped).toEqual([['new1'], ['new2']]);
  });

  it('with --columns and an existing header, reports only the asked-for columns the header lacks, once', async () => {
    const dropped: string[][] = [];
    const { text } = await csv([[{ id: 1, a: 'x', b: 'y', other: 'z' }], [{ id: 2, b: 'w', more: 'v' }]], {
      existingHeader: ['id', 'a'],
      columns: ['id', 'b'],
      onDroppedFields: (f) => dropped.push(f),
    });
    expect(text).toBe('1,x\n2,\n');
    expect(dropped).toEqual([['b']]);
  });

  it('reports fields that appear after the columns were fixed, but not those --columns left out on purpose', async () => {
    const dropped: string[][] = [];
    await csv([[{ a: 1 }], [{ a: 2, late: 3 }]], { onDroppedFields: (f) => dropped.push(f) });
    expect(dropped).toEqual([['late']]);
    await csv([[{ a: 1, b: 2 }]], { columns: ['a'], onDroppedFields: (f) => dropped.push(f) });
    expect(dropped).toEqual([['late']]);
  });
});
