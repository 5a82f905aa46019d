// The matcher on sentences of real FDA, FSIS and Health Canada notices: pack sizes, listed products, brands written in the name, item numbers.
import { describe, expect, it } from 'vitest';
import { relateBrands } from '../../src/match/brands.js';
import { brandKey, nameTokens, noticeName } from '../../src/match/match-keys.js';
import { noticeModels } from '../../src/match/notice-models.js';
import { noticeItems } from '../../src/match/notice-items.js';
import { compareSizes, packSizes } from '../../src/match/pack-sizes.js';
import { matchesOf } from '../helpers/catalogue-rows.js';

/** Grams or millilitres, rounded: what a label's conversion would print. */
const grams = (text: string) => packSizes(text).map((s) => `${s.family} ${Math.round(s.value)}`);
const sortedGrams = (text: string) => grams(text).sort();

describe('pack sizes as agencies write them', () => {
  it('reads a number and its unit however it is joined', () => {
    // FDA 3217203, FSIS 4000014, FDA 3217131: "Net Wt. 12 oz (340 g)", "12-oz.", "26 FL OZ (1 lb, 10 oz) 737g".
    expect(grams('Net Wt. 12 oz (340 g)')).toEqual(['mass 340', 'volume 355', 'mass 340']);
    expect(grams('12-oz. vacuum-packed packages')).toEqual(['mass 340', 'volume 355']);
    expect(grams('26 FL OZ (1 lb, 10 oz) 737g')).toEqual([
      'volume 769',
      'mass 454',
      'mass 283',
      'volume 296',
      'mass 737',
    ]);
    // The issue's own example: "two liter" is 2 L.
    expect(grams('Regular Wild Cherry Pepsi two liter plastic bottles')).toEqual(['volume 2000']);
    expect(grams('Empaques de 12 onzas empacados al vacío')).toEqual(['mass 340', 'volume 355']);
    // A thousands separator is not a decimal comma.
    expect(grams('Vitamin C 1,000 mg tablets')).toEqual(['mass 1']);
    expect(grams('Lait demi-écrémé 1,5 l')).toEqual(['volume 1500']);
  });

  it('gives a unit to the bare numbers listed before it', () => {
    // FDA 3217672 and 3217506 (Locatelli).
    expect(sortedGrams('Locatelli Grated Pecorino Romano, 5 and 10-pound plastic bags')).toEqual([
      'mass 2268',
      'mass 4536',
    ]);
    expect(sortedGrams('Locatelli Grated Pecorino Romano 4 oz and 8 oz plastic cup & lid')).toEqual([
      'mass 113',
      'mass 227',
      'volume 118',
      'volume 237',
    ]);
  });

  it('reads no size where there is none, and never a lot or a count', () => {
    expect(packSizes('Publix Rich & Creamy Vanilla Ice Cream')).toEqual([]);
    expect(packSizes('lot code 02673, 12 units per case')).toEqual([]);
  });

  it('compares sizes within a family, labels rounding their conversions', () => {
    expect(compareSizes(packSizes('Baby Bhindi Frozen 12 oz'), packSizes('Net Wt. 12 oz (340 g)')).kind).toBe('same');
    expect(compareSizes(packSizes('Korushka Smelts 150g'), packSizes('Net. Weight, 5.29 oz (150 g)')).kind).toBe(
      'same',
    );
    expect(compareSizes(packSizes('Marinara Sauce 26 oz'), packSizes('26 FL OZ')).kind).toBe('same');
    expect(compareSizes(packSizes('Polish Kielbasa 14 oz'), packSizes('12-oz. packages'))).toEqual({
      kind: 'differs',
      row: '14 oz',
      notice: '12-oz.',
    });
    expect(compareSizes(packSizes('Vanilla Ice Cream 1.5 qt'), packSizes('Vanilla Ice Cream')).kind).toBe('unknown');
    expect(compareSizes(packSizes('Grated 5 lb bag'), packSizes('5 and 10-pound plastic bags')).kind).toBe('same');
  });
});

describe('quantities spelt out', () => {
  it('are no name words, as digits are not', () => {
    // The example: "Wild Cherry Pepsi 2L" vs "Regular Wild Cherry Pepsi two liter plastic bottles".
    expect([...nameTokens('Regular Wild Cherry Pepsi two liter plastic bottles')]).toEqual([
      'regular',
      'wild',
      'cherry',
      'pepsi',
    ]);
    expect([...nameTokens('Wild Cherry Pepsi Two Liters')]).toEqual([...nameTokens('Wild Cherry Pepsi 2L')]);
    // FSIS's Spanish notice (4500014); a pound cake stays a cake of that name.
    expect([...nameTokens('Empaques de 12 onzas')]).toEqual(['empaque']);
    expect([...nameTokens('Pound Cake 16 oz')]).toEqual(['pound', 'cake']);
  });

  it('include the US volumes: a quart, a pint or a gallon is a size, not a word', () => {
    expect([...nameTokens('Rich & Creamy Vanilla Ice Cream 1.5 qt')]).toEqual([
      'rich',
      'creamy',
      'vanilla',
      'ice',
      'cream',
    ]);
    expect([...nameTokens('Whole Milk 1 gal')]).toEqual(['whole', 'milk']);
    expect([...nameTokens('Heavy Cream 1 pt')]).toEqual(['heavy', 'cream']);
    // FDA 3216702: the product name has no size and no brand field; the recalling firm is the retailer's own brand.
    const recall = {
      product_brand: '',
      product_name: 'Publix Rich & Creamy Vanilla Ice Cream',
      involved_parties: [{ name: 'Publix Super Markets, Inc.', role: 'recalling firm', country: 'United States' }],
    };
    expect(matchesOf([{ brand: 'Publix', name: 'Rich & Creamy Vanilla Ice Cream 1.5 qt' }], recall)).toMatchObject([
      { level: 'match', reason: 'brand+full-name' },
    ]);
  });
});

describe('the products a notice lists', () => {
  const listed = (name: string) => noticeItems(name, nameTokens(name));

  it('splits FSIS bullets, one product each with its own size', () => {
    // FSIS 4000011.
    const { items, sizes } = listed(
      noticeName(
        '•\t16-oz. plastic-wrapped tray packages containing “SAMSA HALAL” with “USE BEFORE” dates of 01/02/25 through 02/22/25., •\t12-oz. plastic-wrapped tray packages containing “M&amp;P DELICACIES Lamb Dumplings Lamb Samsa” with “USE BEFORE” dates 01/02/25 through 02/22/25.',
      ),
    );
    expect(items.map((i) => [[...i.tokens].includes('dumpling'), i.sizes[0]?.written])).toEqual([
      [false, '16-oz.'],
      [true, '12-oz.'],
    ]);
    // Every size the notice states, whichever product states it.
    expect(sizes.map((s) => s.written)).toEqual(['16-oz.', '16-oz.', '12-oz.', '12-oz.']);
  });

  it("keeps an FDA description broken into lines as one product, with the whole name's words", () => {
    // FDA 3217480.
    const name =
      'Locatelli Pecorino Romano Cheese Grated (Wegmans #270010)\nPackaged and sold by the pound\nPackaged in cylindrical clear plastic tubs with lid\n';
    const { items } = listed(name);
    expect(items).toHaveLength(1);
    expect(items[0]?.tokens).toEqual(nameTokens(name));
  });
});

describe('a brand written in the product name (the FDA has no brand field; FSIS names the firm)', () => {
  // FDA 3216686.
  const natsNuts = {
    product_brand: '',
    alert_title: 'Contains undeclared cashews',
    product_name: "Nat's Nuts Cinnamon Whiskey Pecans, 4 oz.",
  };
  it('makes a match with every name word and the same pack size', () => {
    const [m] = matchesOf([{ brand: 'Nats Nuts', name: 'Cinnamon Whiskey Pecans 4 oz' }], natsNuts);
    expect(m).toMatchObject({ level: 'match', reason: 'brand+full-name' });
    expect(m?.explain).toContain('pack size 4 oz is one the notice names');
  });

  it('stays possible when the notice names no pack size', () => {
    // FDA 3216702: nothing says which of Publix's tubs.
    const publix = { product_brand: '', product_name: 'Publix Rich & Creamy Vanilla Ice Cream' };
    expect(matchesOf([{ brand: 'Publix', name: 'Rich & Creamy Vanilla Ice Cream 1.5 qt' }], publix)).toMatchObject([
      { level: 'possible', reason: 'brand+name' },
    ]);
  });

  // FSIS 4000014: the brand field is the firm; the label's words name Johnsonville.
  const johnsonville = {
    product_brand: 'Salm Partners, LLC',
    alert_title:
      'Salm Partners, LLC, Recalls Johnsonville Polish Kielbasa Turkey Sausage Products Due to Possible Foreign Matter Contamination',
    product_name:
      '12-oz. vacuum-packed packages containing a single piece of &quot;Johnsonville POLISH KIELBASA TURKEY&quot; sausage and best by dates &quot;05/17/24&quot; and &quot;05/18/24&quot; printed on the side of the packaging.',
  };
  it('never ties another pack size of the same words (a sibling)', () => {
    const rows = [
      { brand: 'Johnsonville', name: 'Polish Kielbasa Turkey Sausage 12 oz' },
      { brand: 'Johnsonville', name: 'Polish Kielbasa 14 oz' },
      { brand: 'Johnsonville', name: 'Polish Kielbasa' },
    ];
    // The 14 oz row is another product. The row that states no size may be the recalled one: the title names the
    // brand (the brand field names the recalling firm), which counts as a brand field does, so it is a match to verify.
    // A risk taken knowingly: its name lacks "Turkey", and it may be the pork kielbasa, which no word here tells apart.
    expect(matchesOf(rows, johnsonville).map((m) => [m.line, m.level, m.reason])).toEqual([
      [1, 'match', 'brand+full-name'],
      [3, 'match', 'brand+full-name'],
    ]);
  });

  it('never makes a match of words gathered from two listed products', () => {
    // FSIS 4000011: "Samsa Halal" 16 oz in one bullet, lamb dumplings 12 oz in the other.
    const recall = {
      product_brand: 'M&P Delicacies',
      product_name:
        '•\t16-oz. plastic-wrapped tray packages containing “SAMSA HALAL”., •\t12-oz. plastic-wrapped tray packages containing “M&amp;P DELICACIES Lamb Dumplings Lamb Samsa”.',
    };
    const rows = [
      { brand: 'M&P Delicacies', name: 'Samsa Halal Lamb 16 oz' },
      { brand: 'M&P Delicacies', name: 'Lamb Dumplings 12 oz' },
    ];
    expect(matchesOf(rows, recall).map((m) => [m.line, m.level])).toEqual([
      [2, 'match'],
      [1, 'possible'],
    ]);
  });
});

describe('a notice that names its products by a word', () => {
  it("finds each of the brand's rows holding that word, as possible", () => {
    // Health Canada 6000073: "Crave Stevia brand chocolate products recalled due to undeclared milk".
    const title = 'Crave Stevia brand chocolate products recalled due to undeclared milk';
    const recall = { product_brand: 'Crave Stevia', alert_title: title, product_name: title };
    const rows = [
      { brand: 'Crave Stevia', name: 'Dark All Natural Chocolate 80 g' },
      { brand: 'Crave Stevia', name: 'Stevia Sweetener Drops 50 ml' },
    ];
    expect(matchesOf(rows, recall).map((m) => [m.line, m.level, m.reason])).toEqual([[1, 'possible', 'brand+name']]);
  });
});

describe('brand spellings and headings', () => {
  it('reads "&" and "and" as the same brand', () => {
    // FDA 3217131 against a catalogue that writes the word.
    expect(brandKey('First & Last Tavern')).toBe(brandKey('First and Last Tavern'));
    const recall = {
      product_brand: '',
      product_name: 'First & Last Tavern Marinara Sauce (tomato & basil) 26 FL OZ (1 lb, 10 oz) 737g',
    };
    expect(matchesOf([{ brand: 'First and Last Tavern', name: 'Marinara Sauce 26 oz' }], recall)).toMatchObject([
      { level: 'match', reason: 'brand+full-name' },
    ]);
  });

  it('reads a brand written as one word as the same brand written as two', () => {
    // Health Canada 6000058: "Freshprep brand Crunchy Caesar Salad"; the retailer writes "Fresh Prep".
    const title = 'Freshprep brand Crunchy Caesar Salad recalled due to undeclared milk';
    const recall = { product_brand: 'Freshprep', alert_title: title, product_name: title };
    expect(matchesOf([{ brand: 'Fresh Prep', name: 'Crunchy Caesar Salad kit' }], recall)).toMatchObject([
      { level: 'match', reason: 'brand+full-name' },
    ]);
    // Two brands that share a word are not joined into one.
    expect(matchesOf([{ brand: 'Fresh Direct', name: 'Crunchy Caesar Salad kit' }], recall)).toEqual([]);
  });

  it('reads a brand the notice spells one letter apart as the same brand (FSIS, Sabrositos Hondurenos)', () => {
    // The firm's name in the title, one letter from the brand on its own label (and in the grocer's catalogue).
    const recall = {
      alert_title: 'Sabrositos Hondurenos, LLC, Recalls Various Meat Products  Produced Without Benefit of Inspection',
      product_name:
        '•\t14-oz. vacuum-sealed packages containing homestyle chorizo labeled “OLANCHO Chorizo Suelto Olanchano SABROCITOS HONDUREÑOS.”',
    };
    const [m] = matchesOf([{ brand: 'Sabrocitos Hondurenos', name: 'Olancho Chorizo Suelto Olanchano 14 oz' }], recall);
    expect(m).toMatchObject({ level: 'match', reason: 'brand+full-name' });
    expect(m?.explain).toContain('the same but for one letter: "sabrositos hondurenos" / "sabrocitos hondurenos"');
    expect(relateBrands('kirkland signatur', 'kirkland signature')).toBe('spelled');
    expect(relateBrands('kirkland sigantures', 'kirkland signatures')).toBe('spelled');
    // Never a brand of one word (its one-letter neighbours are other brands), two letters, or a word under 7 letters.
    expect(relateBrands('sabrositos', 'sabrocitos')).toBeUndefined();
    expect(relateBrands('sabrositas hondurenos', 'sabrocitos hondurenos')).toBe('shared-word');
    expect(relateBrands('boston kreme', 'bolton kreme')).toBe('shared-word');
  });

  it('reads a brand in the singular as the same brand in the plural, in its name words too', () => {
    // Health Canada 6000001: "Miski Organic brand" in the title, "Miski Organics brand" in the summary, the firm's
    // name in the brand field; the retailer lists "Miski Organics".
    const title = 'Miski Organic brand Organic Dried Banana Slices recalled due to presence of insects';
    const recall = { product_brand: 'Miski Organic Superfoods Inc.', alert_title: title, product_name: title };
    expect(relateBrands('miski organic superfoods', 'miski organics')).toBe('contained');
    expect(relateBrands('kelloggs', 'kellogg')).toBe('same');
    // Only a plural s of a word of 5 letters or more: "Swiss" and "Mars" are words of their own.
    expect(relateBrands('swiss', 'swis')).toBeUndefined();
    expect(relateBrands('mars', 'mar')).toBeUndefined();
    // "Organic" in the row's name is its brand's word, as it is on the notice's side.
    expect(nameTokens('Organic Dried Banana Slices 150 g', 'miski organics')).toEqual(
      new Set(['dried', 'banana', 'slice']),
    );
    expect(matchesOf([{ brand: 'Miski Organics', name: 'Organic Dried Banana Slices 150 g' }], recall)).toMatchObject([
      { level: 'match', reason: 'brand+full-name' },
    ]);
  });

  it("reads the FDA's recalling firm as the brand when the notice has no brand field", () => {
    // FDA 3217577: no brand field, the firm in involved_parties, the product and its size in the name.
    const name = 'Loaded Veggie Grain Bowl; NET WT. 10/90 OZ (309g)\nNO UPC\nIdentifying N4L code: V3FR';
    const firm = [{ name: 'Nutrition for Longevity', role: 'recalling firm', country: 'United States' }];
    const recall = { product_brand: '', product_name: name, product_description: name, involved_parties: firm };
    const row = { brand: 'Nutrition for Longevity', name: 'Loaded Veggie Grain Bowl 10.9 oz' };
    expect(matchesOf([row], recall)).toMatchObject([{ level: 'match', reason: 'brand+full-name' }]);
    // A retailer that sold it is not its brand; nor is the firm when the notice has a brand field of its own.
    const sold = [{ name: 'Nutrition for Longevity', role: 'retailer', country: 'United States' }];
    expect(matchesOf([row], { ...recall, involved_parties: sold })).toEqual([]);
    expect(matchesOf([row], { ...recall, product_brand: 'Veggie Co' })).toEqual([]);
  });

  it("never reads the notice's own brand words as a sibling's", () => {
    // "zero" says a sibling recipe in a product name ("Zero Sugar"), never in the brand "Zero Water".
    const recall = { product_brand: 'Zero Water', product_name: 'Zero Water 10-Cup Ready-Pour Filter Pitcher' };
    expect(matchesOf([{ brand: 'ZeroWater', name: 'Ready-Pour Filter Pitcher 10 cup' }], recall)).toMatchObject([
      { level: 'match', reason: 'brand+full-name' },
    ]);
  });

  it('drops Health Canada\'s warning heading instead of cutting the name at its "Recall"', () => {
    // Health Canada 6000098.
    const name =
      'Food Recall Warning (Allergen) – Mastro San Daniele brand Charcuterie Trio – Prosciutto Cotto, Capocollo, Mortadella recalled due to undeclared milk';
    expect(noticeName(name)).toBe(
      'Mastro San Daniele brand Charcuterie Trio – Prosciutto Cotto, Capocollo, Mortadella',
    );
    const recall = { product_brand: 'Mastro San Daniele', alert_title: name, product_name: name };
    expect(matchesOf([{ brand: 'Mastro', name: 'San Daniele Charcuterie Trio 300 g' }], recall)).toMatchObject([
      { level: 'match', reason: 'brand+full-name' },
    ]);
  });
});

describe("a retailer's item number in the notice's text", () => {
  // FDA 3217340 and 3217480.
  const costco = {
    product_brand: '',
    product_name:
      'Costco Item# 19927 Kirkland Signature Caesar Salad, refrigerated, packaged in clear plastic clamshell container.',
  };
  const wegmans = {
    product_brand: '',
    product_name: 'Locatelli Pecorino Romano Cheese Grated (Wegmans #270010)\nPackaged and sold by the pound\n',
  };

  it('reads "Item# 19927" and "#270010", never a lot code', () => {
    expect(noticeModels(costco).map((m) => m.key)).toEqual(['19927']);
    expect(noticeModels(wegmans).map((m) => m.key)).toEqual(['270010']);
    expect(noticeModels({ product_name: '1-lb. plastic tubs with lot code 02673 and Est. #1234' })).toEqual([]);
  });

  it('makes model+brand with the brand written beside it, and model alone without', () => {
    expect(matchesOf([{ brand: 'Kirkland Signature', model: '19927', name: 'Caesar Salad' }], costco)).toMatchObject([
      { level: 'match', reason: 'model+brand' },
    ]);
    expect(matchesOf([{ brand: 'Acme', model: '19927', name: 'Garden Hose' }], costco)).toMatchObject([
      { level: 'possible', reason: 'model' },
    ]);
  });
});
