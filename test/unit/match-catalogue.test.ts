// Catalogue reading (CSV delimiter and BOM, JSON lines), column detection and --map.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseColumnMap, resolveColumns } from '../../src/match/catalogue-columns.js';
import { decodeCatalogue, detectDelimiter, readCatalogue, readError } from '../../src/match/catalogue.js';
import { RecallIndex } from '../../src/match/recall-index.js';
import { readCensus } from '../../src/match/stream-matches.js';
import { tempDir } from '../helpers/temp-dir.js';

const dir = tempDir('rf-catalogue-');

function file(name: string, content: string): string {
  const p = path.join(dir, name);
  writeFileSync(p, content);
  return p;
}

describe('catalogue files', () => {
  it('detects the delimiter outside quotes', () => {
    expect(detectDelimiter('a,b,c')).toBe(',');
    expect(detectDelimiter('"a;b",c;d;e')).toBe(';');
    expect(detectDelimiter('a\tb\tc')).toBe('\t');
  });

  it('reads a semicolon CSV with a BOM and quoted cells; rows count from 1', async () => {
    const p = file(
      'fr.csv',
      '\uFEFFEAN13;Marque;Libellé\n"3017620422003";"Côté; Cuisine";"Pâte, à tartiner"\n0036000291452;Kidzone;Plush\n',
    );
    const cat = await readCatalogue(p, { gtin: 'EAN13', name: 'Libellé' });
    expect(cat.headers).toEqual(['EAN13', 'Marque', 'Libellé']);
    expect(cat.columns).toEqual({ gtin: 'EAN13', brand: 'Marque', name: 'Libellé' });
    expect(cat.rows).toEqual([
      { line: 1, values: { EAN13: '3017620422003', Marque: 'Côté; Cuisine', Libellé: 'Pâte, à tartiner' } },
      { line: 2, values: { EAN13: '0036000291452', Marque: 'Kidzone', Libellé: 'Plush' } },
    ]);
  });

  it('reads JSON lines, non-string values as text', async () => {
    const p = file(
      'cat.jsonl',
      '{"gtin": 4006381333931, "brand": "Voltra", "model_number": "VX-200"}\n\n{"gtin": "73513537", "title": "Charger"}\n',
    );
    const cat = await readCatalogue(p);
    expect(cat.columns).toEqual({ gtin: 'gtin', brand: 'brand', model: 'model_number', name: 'title' });
    expect(cat.rows.map((r) => r.values.gtin)).toEqual(['4006381333931', '73513537']);
  });

  it('a repeated column is one column: each row reads its first non-empty value; rows where they differ are counted', async () => {
    const p = file('repeated.csv', 'sku,ean,name,ean\nA,111,x,\nB,,y,222\nC,333,z,444\nD,555,w,555\n');
    const cat = await readCatalogue(p);
    expect(cat.headers).toEqual(['sku', 'ean', 'name']);
    expect(cat.rows.map((r) => r.values.ean)).toEqual(['111', '222', '333', '555']);
    expect(cat.repeated).toEqual([{ header: 'ean', positions: [2, 4], conflicts: 1 }]);
  });

  it('decodes UTF-16 (with a BOM, or without one from its NUL bytes) and reads invalid UTF-8 as Windows-1252', () => {
    const text = 'EAN;Libellé\n1;“Pâte”\n';
    const le = Buffer.from(text, 'utf16le');
    expect(decodeCatalogue('a', Buffer.concat([Buffer.from([0xff, 0xfe]), le]))).toEqual({ text });
    expect(decodeCatalogue('a', le)).toEqual({ text });
    expect(decodeCatalogue('a', Buffer.from(le).swap16())).toEqual({ text });
    expect(decodeCatalogue('a', Buffer.from(`\uFEFF${text}`))).toEqual({ text });
    // Windows-1252 bytes: é is E9, the curly quotes 93 and 94, â E2.
    const cp1252 = Buffer.from([
      ...Buffer.from('EAN;Libell'),
      0xe9,
      ...Buffer.from('\n1;'),
      0x93,
      ...Buffer.from('P'),
      0xe2,
      ...Buffer.from('te'),
      0x94,
      0x0a,
    ]);
    expect(decodeCatalogue('a', cp1252)).toEqual({ text, readAs: 'windows-1252' });
    // A UTF-8 byte-order mark, then a Windows-1252 byte: the mark is no part of the first header.
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    expect(decodeCatalogue('a', Buffer.concat([bom, cp1252]))).toEqual({ text, readAs: 'windows-1252' });
  });

  it('names a blank header by its position: two blanks are two columns, whole or streamed', async () => {
    const f = file('blanks.csv', ',ean,,name\n7,3017620422003,x,Nutella\n');
    const whole = await readCatalogue(f);
    expect(whole.headers).toEqual(['column 1', 'ean', 'column 3', 'name']);
    expect(whole.repeated).toEqual([]);
    expect({ ...whole.rows[0]?.values }).toEqual({
      'column 1': '7',
      ean: '3017620422003',
      'column 3': 'x',
      name: 'Nutella',
    });
    const streamed = await readCensus(f, {}, new RecallIndex());
    expect(streamed.headers).toEqual(whole.headers);
    expect(streamed.repeated).toEqual([]);
  });

  it("keeps each row's values as its own columns, whatever the headers are called", async () => {
    const csv = await readCatalogue(file('proto.csv', '__proto__,constructor,ean\np,c,3017620422003\n'));
    const jsonl = await readCatalogue(
      file('proto.jsonl', '{"__proto__":"p","constructor":"c","ean":"3017620422003"}\n'),
    );
    for (const cat of [csv, jsonl]) {
      const values = cat.rows[0]?.values as Record<string, string>;
      expect(Object.entries(values)).toEqual([
        ['__proto__', 'p'],
        ['constructor', 'c'],
        ['ean', '3017620422003'],
      ]);
      // Nothing of Object's is inherited: a column the file lacks reads as missing.
      expect((values as Record<string, unknown>).toString).toBeUndefined();
      expect((values as Record<string, unknown>).hasOwnProperty).toBeUndefined();
    }
  });

  it('refuses a spreadsheet with a hint to save it as CSV', () => {
    const xlsx = Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(20)]);
    expect(() => decodeCatalogue('cat.xlsx', xlsx)).toThrow(/cat\.xlsx is a zip or spreadsheet file/);
  });

  it('a file this user may not read says so with a hint (it said EACCES, bare)', () => {
    // As fs reports it; a test running as root could not make the file unreadable.
    const denied = readError('/srv/p.csv', Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' }));
    expect(denied.message).toBe('cannot read the catalogue /srv/p.csv: permission denied');
    expect(denied.hint).toBe('let this user read it (chmod o+r), or run as a user who may');
    const odd = readError('/srv/p.csv', Object.assign(new Error('EMFILE: too many open files'), { code: 'EMFILE' }));
    expect([odd.message, odd.hint]).toEqual(['cannot read the catalogue /srv/p.csv: EMFILE', undefined]);
  });

  it('says what is wrong with an unreadable catalogue', async () => {
    await expect(readCatalogue(path.join(dir, 'missing.csv'))).rejects.toThrow(
      /cannot read the catalogue .*: no such file/,
    );
    await expect(readCatalogue(file('bad.jsonl', '{"a":1}\nnot json\n'))).rejects.toThrow(/line 2: not a JSON object/);
    // A value nested 100,000 deep (a hostile file): a line to mend, not a stack overflow.
    const deep = `{"sku":"a","brand":"Acme","name":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    await expect(readCatalogue(file('deep.jsonl', `{"sku":"b","brand":"Acme","name":"x"}\n${deep}\n`))).rejects.toThrow(
      /deep\.jsonl, line 2: a value nested too deep to read/,
    );
    await expect(readCatalogue(file('none.csv', 'sku,price\n1,2\n'))).rejects.toThrow(
      /no barcode, model or brand and name column/,
    );
    // A file of many columns is named by its first 20 and a count: one line, whatever its width.
    const wide = Array.from({ length: 30 }, (_, i) => `c${i + 1}`);
    await expect(
      readCatalogue(file('wide.csv', `${wide.join(',')}\n${wide.map(() => 'x').join(',')}\n`)),
    ).rejects.toThrow(
      'found no barcode, model or brand and name column among: c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14, c15, c16, c17, c18, c19, c20 and 10 more',
    );
  });
});

describe('columns', () => {
  it('finds common names without case, spaces or punctuation', () => {
    expect(resolveColumns(['SKU', 'UPC', 'Brand Name', 'Model No.', 'Product Title'], {})).toEqual({
      gtin: 'UPC',
      brand: 'Brand Name',
      model: 'Model No.',
      name: 'Product Title',
    });
  });

  it('--map wins, and must name an existing column', () => {
    expect(resolveColumns(['ean', 'code'], parseColumnMap('gtin=code'))).toEqual({ gtin: 'code' });
    expect(() => resolveColumns(['ean'], parseColumnMap('gtin=EAN13'))).toThrow(/no column 'EAN13'/);
    expect(() => parseColumnMap('colour=red')).toThrow(/--map must look like/);
    expect(() => parseColumnMap('gtin')).toThrow(/--map must look like/);
  });
});
