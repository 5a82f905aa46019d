// The matcher on FSIS notices that list several products: sizes as FSIS writes them, a reason inside one bullet, siblings per product.
import { describe, expect, it } from 'vitest';
import { titleFirm } from '../../src/match/brands.js';
import { nameTokens, noticeName } from '../../src/match/match-keys.js';
import { noticeItems } from '../../src/match/notice-items.js';
import { packSizes } from '../../src/match/pack-sizes.js';
import { matchesOf } from '../helpers/catalogue-rows.js';

/** Grams or millilitres, rounded; a pound is 453.59237 g and a US fluid ounce 29.5735 ml, by definition. */
const grams = (text: string) => packSizes(text).map((s) => `${s.family} ${Math.round(s.value)}`);

describe('pack sizes as FSIS writes them', () => {
  it('reads pounds written "#" after the number (Quality Poultry & Seafood, 029-2025)', () => {
    expect(grams('frozen catfish fillet products labeled “VARIED CATFISH MISCUT FILLETS”, and Net Wt. 5#.')).toEqual([
      'mass 2268',
    ]);
    expect(grams('and Net Wt. 15#.')).toEqual(['mass 6804']);
    // An item number's "#" comes before its digits: no size.
    expect(grams('Costco Item# 19927')).toEqual([]);
    // The name words drop it as they drop "15 lb": one reading of the unit for both.
    expect([...nameTokens('Varied Catfish Miscut Fillets 15#')]).toEqual([
      ...nameTokens('Varied Catfish Miscut Fillets 15 lb'),
    ]);
    expect([...nameTokens('Varied Catfish Miscut Fillets 15#')]).not.toContain('15');
  });

  it('reads fluid ounces hyphenated throughout (Common Sense Soap, Lady May tallow)', () => {
    expect(grams('•\t24-fl-oz. glass jar containing “PREMIUM QUALITY GOODS Grass-fed beef TALLOW Lady May”')).toEqual([
      'volume 710',
    ]);
  });

  it('finds the row once the sizes are read: a size it could not read no longer makes the row a sibling', () => {
    const recall = {
      product_brand: 'Quality Poultry & Seafood, Inc.',
      product_name:
        '•\tTranslucent plastic bag packages containing various pieces of frozen catfish fillet products labeled “VARIED CATFISH MISCUT FILLETS, FARMED RAISED CATFISH PRODUCT OF USA”, and Net Wt. 5#., •\tTranslucent plastic bag packages containing various pieces of frozen catfish fillet products labeled “IRREGULAR CATFISH SHANK FILLET, FARMED RAISED CATFISH PRODUCT OF USA”, and Net Wt. 5#., •\tVacuum sealed translucent plastic bag packages containing “CATFISH NUGGETS” and Net Wt. 9oz.',
    };
    const rows = [
      { brand: 'Quality Poultry & Seafood', name: 'Varied Catfish Miscut Fillets 5 lb' },
      { brand: 'Quality Poultry & Seafood', name: 'Varied Catfish Miscut Fillets 2 lb' },
    ];
    expect(matchesOf(rows, recall)).toMatchObject([{ line: 1, level: 'match', reason: 'brand+full-name' }]);
  });
});

describe('a reason written inside one listed product', () => {
  // Idaho Smokehouse Partners (CHOMPS): the first bullet says "subject to recall"; the second is the 12-count bag.
  const chomps = {
    product_brand: 'Idaho Smokehouse Partners LLC',
    product_name:
      '•\t1.15-oz vacuum-sealed packages of “CHOMPS ORIGINAL BEEF STICK MILD,” with an expiration date of 02-10-2026, and lot code 25016 printed on the label. The product subject to recall bears establishment number “6220A” ink-jetted on the package. , •\t13.8-oz plastic bags containing 12 1.15-oz vacuum-sealed packages of “CHOMPS ORIGINAL BEEF STICK MILD.” The plastic bags bear establishment number “V2059”.',
  };

  it('is cut up to the next product, not to the end of the list', () => {
    const name = noticeName(chomps.product_name);
    expect(name).toContain('printed on the label. The product subject to');
    expect(name).not.toContain('6220A');
    expect(name).toContain('13.8-oz plastic bags containing 12 1.15-oz');
  });

  it('a name with no list is still cut at its reason', () => {
    expect(noticeName('Wegmans Roasted Cashews recalled due to off odour')).toBe('Wegmans Roasted Cashews');
  });

  it('the 12-count bag of the second bullet is a match; another size of the brand is not', () => {
    const rows = [
      { brand: 'CHOMPS', name: 'Original Beef Stick Mild 12 ct 13.8 oz' },
      { brand: 'CHOMPS', name: 'Original Beef Stick Mild 24 ct 27.6 oz' },
    ];
    expect(matchesOf(rows, chomps)).toMatchObject([{ line: 1, level: 'match', reason: 'brand+full-name' }]);
  });
});

describe('the products a list names, each its own', () => {
  // Cargill Kitchen Solutions, 009-2025: products joined by commas, one of them cage-free.
  const eggs = {
    product_brand: 'Cargill Kitchen Solutions, Inc.',
    product_name:
      '32-oz. (2 LB) carton containing “egg beaters ORIGINAL LIQUID EGG SUBSTITUTE” and USE BY AUG 10 2025., 32-oz. (2 LB) carton containing “egg beaters CAGE-FREE ORIGINAL LIQUID EGG SUBSTITUTE” and USE BY AUG 09 2025., 32-oz. (2 LB) carton containing “Bob Evans Better’n Eggs Made with Real Egg Whites LIQUID EGG SUBSTITUTE” and USE BY AUG 10 2025.',
  };
  // Q'Delicia, 2024: two labels quoted on each product line, one of them gluten free.
  const empanadas = {
    product_brand: '',
    product_name:
      '1.25-lb. and 6.25-lb. plastic bags containing “Q’Delicia DE EMPANADA BEEF” and “Q’Delicia DE EMPANADA MEAT GLUTEN FREE.” , 1.25-lb. and 6.25-lb. plastic bags containing “Q’Delicia DE EMPANADA CHICKEN” and “Q’Delicia DE EMPANADA CHICKEN GLUTEN FREE.”',
  };

  it('reads a comma-joined list as its products, and the labels of one line as products of its sizes', () => {
    const words = (recall: { product_name: string }) => {
      const name = noticeName(recall.product_name);
      return noticeItems(name, nameTokens(name)).items.map((i) =>
        [...i.tokens].filter((t) => !/^\d/.test(t)).join(' '),
      );
    };
    expect(words(eggs)).toHaveLength(3);
    expect(words(eggs)[1]).toContain('cage free');
    expect(words(empanadas)).toEqual([
      'delicia empanada beef',
      'delicia empanada meat gluten free',
      'delicia empanada chicken',
      'delicia empanada chicken gluten free',
    ]);
    const name = noticeName(empanadas.product_name);
    expect(noticeItems(name, nameTokens(name)).items.map((i) => i.sizes.map((s) => s.written))).toEqual(
      Array(4).fill(['1.25-lb.', '6.25-lb.']),
    );
  });

  it('two sizes of one product before a comma stay one product', () => {
    const name = '12 oz., 16 oz. packages containing “Brand Smoked Sausage”';
    expect(noticeItems(name, nameTokens(name)).items).toHaveLength(1);
  });

  it('a sibling word in one listed product does not deny the row another product is (cage-free, gluten free)', () => {
    expect(matchesOf([{ brand: 'Egg Beaters', name: 'Original Liquid Egg Substitute 32 oz' }], eggs)).toMatchObject([
      { level: 'match', reason: 'brand+full-name' },
    ]);
    expect(matchesOf([{ brand: "Q'Delicia", name: 'Empanada Beef 1.25 lb' }], empanadas)).toMatchObject([
      { level: 'match', reason: 'brand+full-name' },
    ]);
    // The gluten-free chicken empanada is listed too. A gluten-free beef one is not: its words are gathered from two
    // labels, which never make a match (at most a `possible`, to verify).
    expect(matchesOf([{ brand: "Q'Delicia", name: 'Empanada Chicken Gluten Free 1.25 lb' }], empanadas)).toMatchObject([
      { level: 'match', reason: 'brand+full-name' },
    ]);
    expect(matchesOf([{ brand: "Q'Delicia", name: 'Empanada Beef Gluten Free 1.25 lb' }], empanadas)).toMatchObject([
      { level: 'possible', reason: 'brand+name' },
    ]);
  });

  it('a row no listed product is without a sibling word stays denied (dark for milk, beef for chicken)', () => {
    const recall = {
      product_brand: '',
      product_name:
        '•\t10-oz. packages containing “Acme Chicken Sausage”, •\t10-oz. packages containing “Acme Pork Rinds”',
    };
    expect(matchesOf([{ brand: 'Acme', name: 'Beef Sausage 10 oz' }], recall)).toEqual([]);
  });
});

describe('a label that states no pack size, its brand written only in the list', () => {
  // Gaiser's European Style Provisions, 2024: seven bologna labels, none with a size; the brand field is the firm.
  const gaisers = {
    product_brand: "Gaiser's European Style Provisions Inc.",
    product_name:
      ' • Vacuum-packed packages of “FAMILY TREE BOLOGNA VEAL” containing undeclared pork.,  • Plastic-wrapped packages of “BABUSHKA’S RECIPE CHICKEN BOLOGNA” containing undeclared pork., • Plastic-wrapped packages of “FANCY BOLOGNA” labeled with pork as an ingredient but containing undeclared beef and chicken., • Vacuum-packed packages of “GAISERS TURKEY BOLOGNA” containing undeclared chicken and pork., • Plastic-wrapped packages of “CHICKEN BOLOGNA KYPOYKA PABA” containing undeclared pork.',
  };

  it('is a match for a row of that label that states no size either: there is no size to disagree on', () => {
    expect(matchesOf([{ brand: 'Babushkas Recipe', name: 'Chicken Bologna' }], gaisers)).toMatchObject([
      { line: 1, level: 'match', reason: 'brand+full-name' },
    ]);
  });

  it('stays possible for a row with a size (the notice may sell it by weight), or a brand written on another label', () => {
    const rows = [
      { brand: 'Babushkas Recipe', name: 'Chicken Bologna 1 lb' },
      // "Family Tree" is the veal bologna's label; the chicken bologna labels are other brands'.
      { brand: 'Family Tree', name: 'Chicken Bologna' },
    ];
    expect(matchesOf(rows, gaisers)).toMatchObject([
      { line: 1, level: 'possible', reason: 'brand+name' },
      { line: 2, level: 'possible', reason: 'brand+name' },
    ]);
  });
});

describe('the title, when FSIS gives no brand field or no product list', () => {
  it('the firm the title says recalls is the brand, each name of "A Dba B" (C&T Produce, L&V Food Supply)', () => {
    const recall = {
      product_brand: '',
      alert_title:
        'C&amp;T Produce Wholesale Inc. Dba L&amp;v Food Supply Recalls Ineligible Frozen, Dried Silurifomes Products  Imported From Vietnam',
      product_name: '2-lb. cardboard boxes containing “Peppered Dried CATFISH.”',
    };
    const [found] = matchesOf([{ brand: 'L&V Food Supply', name: 'Peppered Dried Catfish 2 lb box' }], recall);
    expect(found).toMatchObject({ level: 'match', reason: 'brand+full-name' });
    expect(found?.explain).toContain('brand: notice (no brand field) ~ catalogue "L&V Food Supply" (the same once');
    // "Expands Recall" names its firm too (Starway International Group).
    const expanded = {
      product_brand: '',
      alert_title: 'Starway International Group LLC Expands Recall for Ineligible Frozen Siluriformes Fish Products',
      product_name: '• 500-g plastic bag packages containing “Xúc Xích Cá Fish Sausage” with item number “81142104”',
    };
    expect(matchesOf([{ brand: 'Starway', name: 'Xuc Xich Ca Fish Sausage 500 g' }], expanded)).toMatchObject([
      { level: 'match', reason: 'brand+full-name' },
    ]);
  });

  it('a brand field keeps its own firm: the title then names no brand of its own', () => {
    const recall = {
      product_brand: 'Quality Poultry & Seafood, Inc.',
      alert_title: 'Acme Foods Recalls Peppered Dried Catfish',
      product_name: '2-lb. cardboard boxes containing “Peppered Dried CATFISH.”',
    };
    expect(matchesOf([{ brand: 'Acme Foods', name: 'Peppered Dried Catfish 2 lb' }], recall)).toEqual([]);
  });

  it('an alert with no product list is read by its title: its brand and name make a match, its sibling none', () => {
    // FSIS, Bismillah Halal Meats: the alert lists no product.
    const recall = {
      product_brand: '',
      alert_title:
        'FSIS Issues Public Health Alert for Bismillah Halal Meats Ground Beef Due to Possible E. Coli O103 Contamination',
      product_name: '',
    };
    const rows = [
      { brand: 'Bismillah Halal Meats', name: 'Ground Beef 1 lb' },
      { brand: 'Bismillah Halal Meats', name: 'Ground Lamb 1 lb' },
    ];
    expect(matchesOf(rows, recall)).toMatchObject([{ line: 1, level: 'match', reason: 'brand+full-name' }]);
    expect(matchesOf(rows, recall)[0]?.explain).toContain("named in the notice's title");
  });
});

describe('FSIS’s Spanish alerts', () => {
  // FSIS 4600044's Spanish twin of the Q’Delicia empanada recall: each label followed by its translation.
  const recall = {
    product_brand: '',
    alert_title:
      'Q’Delicia Retira Productos De Empanada Listos Para Consumir Producidos Sin El Beneficio De La Inspección',
    product_name:
      '• Bolsas plásticas de 1.25 y 6.25 libras que contienen “Q’Delicia DE EMPANADA BEEF” (EMPANADA DE CARNE DE RES) y “Q’Delicia DE EMPANADA MEAT GLUTEN FREE” (EMPANADA DE CARNE LIBRE DE GLUTEN Q&#039;Delicia). \u00a0\u00a0, • Bolsas plásticas de 1.25 y 6.25 libras que contienen “Q’Delicia DE EMPANADA CHICKEN” (EMPANADA DE POLLO Q&#039;Delicia) y “Q’Delicia DE EMPANADA CHICKEN GLUTEN FREE” (EMPANADA DE POLLO LIBRE DE GLUTEN Q&#039;Delicia).',
  };

  it('reads "<firm> Retira …" as the title naming its firm, and each label with its translation as a product', () => {
    expect(titleFirm(recall.alert_title)?.firm).toBe('Q’Delicia');
    const { items } = noticeItems(recall.product_name, nameTokens(recall.product_name));
    expect(items).toHaveLength(4);
    // The translation stays with its label: the beef empanada is also "carne de res", and gluten-free only the second.
    expect([...(items[0]?.tokens ?? [])]).toEqual(expect.arrayContaining(['empanada', 'beef', 'carne', 'res']));
    expect(items[0]?.tokens.has('free')).toBe(false);
    expect(items[1]?.tokens.has('free')).toBe(true);
  });

  it('finds the beef empanada, whose gluten-free sibling is listed beside it, at match', () => {
    const rows = [
      { brand: "Q'Delicia", name: 'Empanada Beef 1.25 lb' },
      { brand: "Q'Delicia", name: 'Empanada Beef 3 lb' },
    ];
    expect(matchesOf(rows, recall).map((m) => [m.line, m.level, m.reason])).toEqual([[1, 'match', 'brand+full-name']]);
  });
});
