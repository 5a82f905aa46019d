// FSIS's Spanish alerts against an English catalogue: the pack and the meat in Spanish, the label's words in English.
import { describe, expect, it } from 'vitest';
import { glossed } from '../../src/match/glossary.js';
import { nameTokens } from '../../src/match/match-keys.js';
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
    // Words that are an object's own names in JavaScript are words like any other.
    const odd = nameTokens('constructor toString hasOwnProperty proto');
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
