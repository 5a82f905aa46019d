// Model numbers, brands and product names written in Unicode forms (full-width, ligatures, ß, Turkish ı, ł, invisible
// characters, Unicode dashes, other scripts' digits) are the same keys as their plain spelling: the pair is found.
import { describe, expect, it } from 'vitest';
import { brandKey, modelKey, nameTokens, revisionBase } from '../../src/match/match-keys.js';
import { matchesOf } from '../helpers/catalogue-rows.js';

const found = (rows: Record<string, string>[], recall: Record<string, unknown>) =>
  matchesOf(rows, { id: 1, ...recall }).map((m) => [m.line, m.level, m.reason]);

describe('model numbers in Unicode forms (review defect 6)', () => {
  const row = { ean: '', brand: 'Voltra', model: 'PB-2000X', name: 'Portable charger 10000mAh' };

  it.each([
    ['non-breaking hyphen U+2011', 'PB\u20112000X'],
    ['hyphen U+2010', 'PB\u20102000X'],
    ['en dash U+2013', 'PB\u20132000X'],
    ['minus sign U+2212', 'PB\u22122000X'],
    ['full-width', 'ＰＢ－２０００Ｘ'],
    ['ZWSP', 'PB-\u200b2000X'],
    ['ZWSP instead of the dash', 'PB\u200b2000X'],
  ])('the notice writes the model with a %s: model+brand, as "PB-2000X" is', (_, model) => {
    expect(found([row], { product_brand: 'Voltra', product_model_numbers: [model] })).toEqual([
      [1, 'match', 'model+brand'],
    ]);
  });

  it.each([
    ['soft hyphen', 'PB\u00ad2000X'],
    ['hyphen U+2010', 'PB\u20102000X'],
    ['full-width', 'ＰＢ－２０００Ｘ'],
  ])('the catalogue cell writes it with a %s: model+brand', (_, model) => {
    expect(found([{ ...row, model }], { product_brand: 'Voltra', product_model_numbers: ['PB-2000X'] })).toEqual([
      [1, 'match', 'model+brand'],
    ]);
  });

  it('keys: every form is "pb2000x"; digits of other scripts are 0-9; a full-width revision has its base', () => {
    for (const model of ['PB\u20112000X', 'ＰＢ－２０００Ｘ', 'PB\u00ad2000X', 'PB\u22122000X', 'PB-٢٠٠٠X', 'PB-۲۰۰۰X'])
      expect(modelKey(model)).toBe('pb2000x');
    expect(modelKey('PB-२०००X')).toBe('pb2000x');
    expect(modelKey('PB-๒๐๐๐X')).toBe('pb2000x');
    expect(revisionBase('ＮＴＲＷ１９１４７．０')).toBe('ntrw19147');
  });
});

describe('brands and names in Unicode forms (review defect 7)', () => {
  const pairs: [string, [string, string], [string, string]][] = [
    ['ß and SS', ['Weißenhorner', 'Weißwurst Klassik'], ['WEISSENHORNER', 'WEISSWURST KLASSIK']],
    ['the ligature ﬁ', ['Saﬁlo Foods', 'Conﬁture de ﬁgues'], ['Safilo Foods', 'Confiture de figues']],
    ['full-width letters', ['Ｎｉｓｓｉｎ', 'Ｃｕｐ Ｎｏｏｄｌｅ Ｓｅａｆｏｏｄ'], ['Nissin', 'Cup Noodle Seafood']],
    ['half-width katakana', ['Nissin', 'カップヌードル シーフード'], ['Nissin', 'ｶｯﾌﾟﾇｰﾄﾞﾙ ｼｰﾌｰﾄﾞ']],
    ['Turkish capitals', ['İZMİR GIDA', 'KIRMIZI BİBER SALÇASI'], ['İzmir Gıda', 'Kırmızı Biber Salçası']],
    ['ł, which has no accent to drop', ['Łowicz', 'Dżem truskawkowy'], ['Lowicz', 'Dzem truskawkowy']],
    ['œ', ['Charal', 'Bœuf bourguignon'], ['Charal', 'Boeuf bourguignon']],
    ['a soft hyphen in a word', ['Spreewald', 'Gewürz\u00adgurken Auslese'], ['Spreewald', 'Gewürzgurken Auslese']],
    ['a ZWSP in a word', ['Spreewald', 'Gewürz\u200bgurken Auslese'], ['Spreewald', 'Gewürzgurken Auslese']],
  ];

  it.each(pairs)('%s: brand+full-name, either way round', (_, [brandA, nameA], [brandB, nameB]) => {
    const ab = found([{ ean: '', brand: brandB, model: '', name: nameB }], {
      product_brand: brandA,
      product_name: nameA,
    });
    const ba = found([{ ean: '', brand: brandA, model: '', name: nameA }], {
      product_brand: brandB,
      product_name: nameB,
    });
    expect(ab).toEqual([[1, 'match', 'brand+full-name']]);
    expect(ba).toEqual([[1, 'match', 'brand+full-name']]);
  });

  it('a one-word name with a soft hyphen is that word: brand+name, as the plain word gives', () => {
    const row = { ean: '', brand: 'Spreewald', model: '', name: 'Gewürzgurken' };
    expect(found([row], { product_brand: 'Spreewald', product_name: 'Gewürz\u00adgurken' })).toEqual([
      [1, 'possible', 'brand+name'],
    ]);
  });

  it('keys: spelt as a shop without the keyboard types them', () => {
    expect(brandKey('Weißenhorner')).toBe('weissenhorner');
    expect(brandKey('WEIẞENHORNER')).toBe('weissenhorner');
    expect(brandKey('Gıda')).toBe('gida');
    expect(brandKey('GIDA')).toBe('gida');
    expect(brandKey('İZMİR GIDA')).toBe('izmir gida');
    expect(brandKey('Łowicz')).toBe('lowicz');
    expect(brandKey('Søstrene Grene')).toBe('sostrene grene');
    expect(brandKey('Đakovo')).toBe('dakovo');
    expect(brandKey('Skjærgård')).toBe('skjaergard');
    expect(brandKey('Ｎｉｓｓｉｎ')).toBe('nissin');
    expect(brandKey('Saﬁlo')).toBe('safilo');
    expect(brandKey('L\u200eidl')).toBe('lidl');
    expect([...nameTokens('Bœuf bourguignon ５００ｇ')]).toEqual(['boeuf', 'bourguignon']);
    expect([...nameTokens('iPhone ١٢')]).toEqual(['iphone', '12']);
  });

  it('the marks and apostrophes brandKey drops or joins are still dropped and joined', () => {
    expect(brandKey('Oreo™')).toBe('oreo');
    expect(brandKey('Lindt℠ Excellence')).toBe('lindt excellence');
    expect(brandKey('Sainsbury´s')).toBe('sainsburys');
    expect(brandKey('Crème Brûlée Co')).toBe('creme brulee co');
    // Greek capitals lower to a final sigma where a word ends, as the word typed in small letters has it.
    expect(brandKey('ΜΕΛΙΣΣΑ ΚΡΗΤΗΣ')).toBe('μελισσα κρητης');
    expect(brandKey('Μέλισσα Κρήτης')).toBe('μελισσα κρητης');
  });
});
