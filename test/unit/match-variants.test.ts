// A brand's other product whose every name word the notice's product holds: the words that tell them apart are a
// colour, a size, an age, "sans", or a number with its label ("Stage 1", "SPF 30", "60 ct", "6-in-1"), which name words leave
// out. Such a row is `possible`, never `match`, and --explain names the variant (a review's rows, notices as agencies
// write them).
import { describe, expect, it } from 'vitest';
import type { Catalogue } from '../../src/match/catalogue.js';
import { CatalogueIndex } from '../../src/match/matcher.js';

function matchOf(notice: Record<string, unknown>, brand: string, name: string) {
  const catalogue: Catalogue = {
    file: 'c.csv',
    headers: ['brand', 'name'],
    columns: { brand: 'brand', name: 'name' },
    rows: [{ line: 1, values: { brand, name } }],
    repeated: [],
  };
  const [m] = new CatalogueIndex(catalogue).match({ geo_jurisdictions: ['US'], ...notice }, { explain: true });
  return m;
}

const US = (brand: string, product: string) => ({ product_brand: brand, product_name: product });
const FR = (brand: string, product: string) => ({ ...US(brand, product), geo_jurisdictions: ['FR'] });

describe('a variant the name words leave out keeps a row possible', () => {
  it.each([
    [
      US('Ghirardelli', 'Ghirardelli Milk Chocolate Baking Chips 11.5 oz'),
      'White Chocolate Baking Chips 11.5 oz',
      'milk/white',
    ],
    [FR("Côte d'Or", 'Tablette chocolat au lait 200 g'), 'Tablette chocolat noir 200 g', 'milk/dark'],
    [FR('Cellier des Dauphins', 'Côtes du Rhône rosé 75 cl'), 'Côtes du Rhône rouge 75cl', 'pink/red'],
    [US("Eggland's Best", "Eggland's Best Large Brown Eggs 12 ct"), 'Medium Brown Eggs 12 ct', 'large/medium'],
    [
      US('One A Day', "One A Day Men's Complete Multivitamin Tablets 100 ct"),
      "Women's Complete Multivitamin Tablets 100 ct",
      'men/women',
    ],
    [US('Pillowfort', 'Pillowfort Weighted Blanket, 6 lb, gray with stars'), 'Weighted Blanket 6 lb pink', 'gray/pink'],
    [FR('Schär', 'Pain de mie sans gluten 300 g'), 'Pain de mie 300 g', 'sans'],
    [
      US('Similac', 'Similac Pro-Advance Stage 1 Infant Formula Powder 20.6 oz'),
      'Pro-Advance Stage 2 Infant Formula Powder 20.6 oz',
      'stage 1/stage 2',
    ],
    [US('Pampers', 'Pampers Swaddlers Diapers Size 1, 84 count'), 'Swaddlers Diapers Size 2 84 ct', 'size 1/size 2'],
    [
      US('Banana Boat', 'Banana Boat Sport Ultra Sunscreen Lotion SPF 30, 8 fl oz'),
      'Sport Ultra Sunscreen Lotion SPF 50 8 fl oz',
      'spf 30/spf 50',
    ],
    [
      US('Nature Made', 'Nature Made Fish Oil 1200 mg Softgels, 60 ct'),
      'Fish Oil 1200 mg Softgels 100 ct',
      'ct 60/ct 100',
    ],
    [
      US('Nature Made', 'Nature Made Vitamin D3 2000 IU Softgels 90 count'),
      'Vitamin D3 2000 IU Softgels 220 ct',
      'ct 90/ct 220',
    ],
    [US('Ninja', 'Ninja Foodi 6-in-1 Digital Air Fryer'), 'Foodi 8-in-1 Digital Air Fryer', 'in1 6/in1 8'],
    [US('Cuisinart', 'Cuisinart 10-Piece Stainless Cookware Set'), 'Stainless Cookware Set 7 pc', 'piece 10/piece 7'],
    [US('Hamilton Beach', 'Hamilton Beach 6-Speed Hand Mixer'), '5 Speed Hand Mixer', 'speed 6/speed 5'],
  ])('%j against %s', (notice, name, variant) => {
    const brand = String(notice.product_brand);
    const m = matchOf(notice, brand, name);
    expect(m?.level).toBe('possible');
    expect(m?.explain).toContain(`possible, not match: the notice's product and the row differ in ${variant}`);
  });
});

describe('the same variant on both sides is still a match', () => {
  it.each([
    // Written differently: spelling, number, possessive, language; or one of the sizes a notice lists.
    [US('Carhartt', 'Carhartt Fleece Hoodie grey 12 oz'), 'Fleece Hoodie gray 12 oz'],
    [US('Carters', "Carter's Boys Fleece Sleeper 6 oz"), "Boy's Fleece Sleeper 6 oz"],
    [US('Gerber', 'Gerber Toddler Puffs Strawberry 1.48 oz'), 'Toddlers Puffs Strawberry 1.48 oz'],
    [US('Crayola', 'Crayola Kids Washable Markers 10 ct'), "Kid's Washable Markers 10 ct"],
    [
      US('Tylenol', "Tylenol Infants' Acetaminophen Oral Suspension 1 fl oz"),
      'Baby Acetaminophen Oral Suspension 1 fl oz',
    ],
    [US('Pampers', 'Pampers Cruisers Diapers Size 3-7'), 'Cruisers Diapers Size 4'],
    [US('Pampers', 'Pampers Cruisers Diapers Size 3, 4, 5'), 'Cruisers Diapers Size 4'],
    [US('Ghirardelli', 'Ghirardelli Milk Chocolate Baking Chips 11.5 oz'), 'Milk Chocolate Baking Chips 11.5 oz'],
    [
      US('Similac', 'Similac Pro-Advance Stage 1 Infant Formula Powder 20.6 oz'),
      'Pro-Advance Stage 1 Infant Formula 20.6 oz',
    ],
    [
      US('Nature Made', 'Nature Made Fish Oil 1200 mg Softgels, 60 ct and 100 ct bottles'),
      'Fish Oil 1200 mg Softgels 100 ct',
    ],
    [FR('Schär', 'Pain de mie sans gluten 300 g'), 'Pain de mie sans gluten 300 g'],
    [US('Ninja', 'Ninja Foodi 6-in-1 Digital Air Fryer'), 'Foodi 6 in 1 Digital Air Fryer'],
    [US('Cuisinart', 'Cuisinart 10-Piece Stainless Cookware Set'), 'Stainless Cookware Set 10 pcs'],
  ])('%j against %s', (notice, name) => {
    const m = matchOf(notice, String(notice.product_brand), name);
    expect(m?.level).toBe('match');
    expect(m?.reason).toBe('brand+full-name');
  });
});
