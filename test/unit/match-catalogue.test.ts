// Catalogue reading (CSV delimiter and BOM, JSON lines), column detection and --map.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseColumnMap, resolveColumns } from '../../src/match/catalogue-columns.js';
import { detectDelimiter, readCatalogue } from '../../src/match/catalogue.js';
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

  it('says what is wrong with an unreadable catalogue', async () => {
    await expect(readCatalogue(path.join(dir, 'missing.csv'))).rejects.toThrow(
      /cannot read the catalogue .*: no such file/,
    );
    await expect(readCatalogue(file('bad.jsonl', '{"a":1}\nnot json\n'))).rejects.toThrow(/line 2: not a JSON object/);
    await expect(readCatalogue(file('none.csv', 'sku,price\n1,2\n'))).rejects.toThrow(
      /no barcode, model or brand and name column/,
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
