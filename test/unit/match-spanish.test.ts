// FSIS's Spanish alerts against an English catalogue: the pack and the meat in Spanish, the label's words in English.
import { describe, expect, it } from 'vitest';
import type { Catalogue } from '../../src/match/catalogue.js';
import { glossed } from '../../src/match/glossary.js';
import { nameTokens } from '../../src/match/match-keys.js';
import { CatalogueIndex } from '../../src/match/matcher.js';
import { scopeOfText } from '../../src/match/scope.js';
import { matchesOf } from '../helpers/catalogue-rows.js';

describe('the Spanish words of a notice name', () => {
  it('gain the English word a catalogue writes, in nameTokens form, beside their own', () => {
    // "Estuches plásticos" folds to "estuche plastico", the plural's s dropped as for any word.
    const words = nameTokens('Estuches plásticos de salchicha de res ahumada');
    expect([...glossed(words)].sort()).toEqual(
      ['ahumada', 'beef', 'estuche', 'plastico', 'res', 'salchicha', 'sausage', 'smoked', 'tub'].sort(),
    );
  });

  it('leave a name with no Spanish word as it is, and add no word twice', () => {
    const english = nameTokens('Polish Kielbasa Turkey Sausage');
    expect(glossed(english)).toBe(english);
    expect([...glossed(nameTokens('salchicha sausage'))].sort()).toEqual(['salchicha', 'sausage']);
    // A carton, a box or a case: FSIS writes "caja" for each.
    expect([...glossed(nameTokens('Caja de 32 oz.'))].sort()).toEqual(['box', 'caja', 'carton', 'case']);
    // A name word that every JavaScript object answers to (name words are lower case: "constructor" is the one).
    const odd = nameTokens('Lego Technic Constructor Set');
    expect(glossed(odd)).toBe(odd);
  });
});

describe('a Spanish alert and the row its English twin names', () => {
  // Common Sense Soap's Spanish alert (FSIS, 2025): the English one says "7.8-8-lb. (1 gal) plastic tub containing".
  const tallow = {
    product_brand: '',
    alert_title: 'Common Sense Retira Productos De Sebo De Res  Producidos Sin El Beneficio De La Inspección',
    product_name:
      '• Frasco de vidrio de 24 fl-oz. que contiene “PREMIUM QUALITY GOODS Grass-fed beef TALLOW Lady May ALL NATURAL” (SEBO de res alimentada con pasto Lady May TOTALMENTE NATURAL) , • Estuche plástico de 7.8-8 lb. (1 gal) que contiene “PREMIUM QUALITY GOODS Grass-fed beef TALLOW Lady May ALL NATURAL” (SEBO de res alimentada con pasto Lady May TOTALMENTE NATURAL)',
  };
  const row = { brand: 'Lady May', name: 'Beef Tallow Original 1 gal tub' };

  it('finds the row through the tub the Spanish calls an estuche, and says only possible', () => {
    const [found, ...rest] = matchesOf([row], tallow);
    expect(rest).toEqual([]);
    expect(found).toMatchObject({ line: 1, level: 'possible', reason: 'brand+name' });
    expect(found?.explain).toMatch(/weighed cover [\d.]+ \(>= 0\.75: [^)]*\btub\b/);
  });

  it('does not find it without the Spanish pack word: the cover is the glossary’s', () => {
    const jarOnly = { ...tallow, product_name: tallow.product_name.split(' , •')[0] };
    expect(matchesOf([row], jarOnly)).toEqual([]);
  });

  it('finds the sausage in a salchicha (Salm Partners, Johnsonville, 2024)', () => {
    const kielbasa = {
      product_brand: 'Salm Partners, LLC',
      product_name:
        '• Empaques de 12 onzas empacados al vacío que contienen una sola unidad de salchicha &quot;Johnsonville POLISH KIELBASA TURKEY&quot; (KIELBASA POLACA DE PAVO de Johnsonville) y con fechas de &quot;Mejor consumir antes del día 05/17/24&quot; y &quot;05/18/24&quot; impresas en el empaque.',
    };
    const found = matchesOf([{ brand: 'Johnsonville', name: 'Polish Kielbasa Turkey Sausage 12 oz' }], kielbasa);
    expect(found).toMatchObject([{ line: 1, level: 'possible', reason: 'brand+name' }]);
    // One catalogue row weighs its four words alike: three of them cover it already; the salchicha makes it whole.
    expect(found[0]?.explain).toMatch(/weighed cover 1\.00 \(>= 0\.75: [^)]*\bsausage\b/);
  });
});

describe("a Spanish alert's pack dates", () => {
  const dates = (text: string) =>
    scopeOfText(text, 'production_dates', 'month-first').flatMap((i) =>
      i.kind === 'date' ? [[i.dateKind, i.from, i.to, i.sure]] : [],
    );

  it('reads "Usar antes del" as use by and "Mejor consumir antes del" as best before', () => {
    expect(dates('Usar antes del 10/08/2025')).toEqual([['use-by', '2025-10-08', '2025-10-08', true]]);
    expect(dates('Mejor consumir antes del 05/17/24')).toEqual([['best-before', '2024-05-17', '2024-05-17', true]]);
  });

  // Cargill Kitchen Solutions' Spanish alert (FSIS, 2025), its first two products as published; the feed gives the
  // product line as its production dates too.
  const line =
    ' •\tCaja de 32 oz. (2 lb.) que contiene “egg beaters ORIGINAL LIQUID EGG SUBSTITUTE” (SUSTITUTO DE HUEVO LÍQUIDO ORIGINAL) y fecha de &quot;USAR ANTES DEL&quot; 10 AGO 2025.,  •\tCaja de 32 oz. (2 lb.) que contiene “egg beaters CAGE-FREE ORIGINAL LIQUID EGG SUBSTITUTE” (SUSTITUTO DE HUEVO LÍQUIDO ORIGINAL LIBRE DE JAULA) y fecha de &quot;USAR ANTES DEL&quot; 09 AGO 2025.';
  const cargill = {
    production_dates: line,
    product_brand: 'Cargill Kitchen Solutions, Inc.',
    geo_jurisdictions: ['US'],
    product_name: line,
    product_description:
      '• Caja de 32 oz. (2 lb.) que contiene “egg beaters ORIGINAL LIQUID EGG SUBSTITUTE” (SUSTITUTO DE HUEVO LÍQUIDO ORIGINAL) y fecha de "USAR ANTES DEL" 10 AGO 2025., • Caja de 32 oz. (2 lb.) que contiene “egg beaters CAGE-FREE ORIGINAL LIQUID EGG SUBSTITUTE” (SUSTITUTO DE HUEVO LÍQUIDO ORIGINAL LIBRE DE JAULA) y fecha de "USAR ANTES DEL" 09 AGO 2025.',
  };

  it('excludes the carton of another date: the caja is its carton, and the use-by dates prove it out', () => {
    const catalogue: Catalogue = {
      file: 'catalogue.csv',
      headers: ['brand', 'name', 'best_before'],
      columns: { brand: 'brand', name: 'name', best_before: 'best_before' },
      rows: [
        { brand: 'Egg Beaters', name: 'Original 32oz carton', best_before: '08/24/2025' },
        { brand: 'Egg Beaters', name: 'Original 32oz carton', best_before: '08/10/2025' },
      ].map((values, i) => ({ line: i + 1, values })),
      repeated: [],
    };
    const found = new CatalogueIndex(catalogue).match(cargill).map((m) => [m.row.line, m.level, m.scope]);
    expect(found).toEqual([
      [2, 'possible', 'in-scope'],
      [1, 'excluded', 'out-of-scope'],
    ]);
  });
});
