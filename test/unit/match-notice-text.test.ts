// The matcher on sentences of real CPSC notices: a brand the notice writes in its own words, model revisions, passive titles.
import { describe, expect, it } from 'vitest';
import { brandWrittenIn, titleBrandText } from '../../src/match/brands.js';
import { brandKey, revisionBase } from '../../src/match/match-keys.js';
import { CatalogueIndex } from '../../src/match/matcher.js';
import { textModelKeys } from '../../src/match/notice-models.js';
import { catalogueOf } from '../helpers/catalogue-rows.js';

const levels = (index: CatalogueIndex, recall: Record<string, unknown>) =>
  index.match(recall, { explain: true }).map((m) => [m.row.line, m.level, m.reason]);

describe('a catalogue brand written in the notice beside an equal model', () => {
  // CPSC 1010566: the brand field names the importer; the title names the brand.
  const frigidaire = {
    product_brand: 'Curtis International Ltd.',
    alert_title: 'Curtis International Expands Recall of Frigidaire-brand Minifridges Due to Fire and Burn Hazards',
    product_name: 'Frigidaire-brand Minifridges',
    product_model_numbers: ['EFMIS121', 'EFMIS129'],
  };
  // CPSC 1010451: 3M recalls; the description writes the brand.
  const scotch = {
    product_brand: '3M Company',
    alert_title: '3M Company Recalls Thermal Laminators Due to Overheating',
    product_description:
      'This recall involves the Scotch™ Thermal Laminator, model TL909-50. The laminator is light gray/white with gray accents, and the word "Scotch" is printed in gray on the front.',
    product_model_numbers: ['TL909-50'],
  };
  // CPSC 1010433: a two-letter brand, written in the title.
  const rh = {
    product_brand: 'RH US, LLC',
    alert_title: 'RH Recalls Byron Tables and Desks Due to Risk of Injury',
    product_model_numbers: ['10138977EMPR'],
  };
  const index = new CatalogueIndex(
    catalogueOf([
      { brand: 'Frigidaire', model: 'EFMIS121', name: 'Compact Mini Fridge 1.6 cu ft' }, // 1
      { brand: 'Danby', model: 'EFMIS129', name: 'Mini Fridge' }, // 2 same model, brand nowhere in the notice
      { brand: 'Scotch', model: 'TL90950', name: 'Thermal Laminator 9 in' }, // 3
      { brand: 'RH', model: '10138977EMPR', name: 'Byron dining table' }, // 4
      { brand: 'Frigidaire', model: 'FFTR1835VW', name: 'Mini Fridge' }, // 5 brand alone
    ]),
  );

  it('is model+brand, a match; the same model under a brand the notice never writes stays possible', () => {
    expect(levels(index, frigidaire)).toEqual([
      [1, 'match', 'model+brand'],
      [2, 'possible', 'model'],
    ]);
    expect(levels(index, scotch)).toEqual([[3, 'match', 'model+brand']]);
    expect(levels(index, rh)).toEqual([[4, 'match', 'model+brand']]);
  });

  it('says where the notice wrote the brand', () => {
    const [m] = index.match(scotch, { explain: true });
    expect(m?.explain).toBe(
      'model: notice "TL909-50" = catalogue "TL90950" (key tl90950); brand: catalogue "Scotch" written in the notice\'s product_description (as "scotch")',
    );
  });

  it('never counts a brand made of place or trade words, or a word inside another', () => {
    const text = brandKey('Sold at Home Depot stores nationwide; RHINO brand');
    expect(brandWrittenIn('home', text)).toBe(false);
    expect(brandWrittenIn('rh', text)).toBe(false);
    expect(brandWrittenIn('rhino', text)).toBe(true);
  });
});

describe('model revisions', () => {
  // CPSC 1010435: "model numbers NTRW19147.0, NTRW19147.1, NTRW19147.2 or NTRW19147.3".
  it('a notice model with a revision suffix finds the base model, as possible only', () => {
    expect(revisionBase('NTRW19147.0')).toBe('ntrw19147');
    expect(revisionBase('TL909-50')).toBeUndefined();
    expect(revisionBase('1.5')).toBeUndefined();
    expect(revisionBase('V2.1')).toBeUndefined();
    const index = new CatalogueIndex(catalogueOf([{ brand: 'NordicTrack', model: 'NTRW19147', name: 'RW900 Rower' }]));
    const recall = {
      product_brand: 'iFIT Inc.',
      alert_title: 'iFIT Recalls NordicTrack Rowing Machines Due to Fire Hazard',
      product_model_numbers: ['NTRW19147.0', 'NTRW19147.1', 'NTRW19147.2', 'NTRW19147.3'],
    };
    expect(levels(index, recall)).toEqual([[1, 'possible', 'model']]);
  });
});

describe('titles that name no recalling firm', () => {
  it('read the brand before "Recalled"', () => {
    expect(
      titleBrandText(
        'Bearlala Baby Loungers Recalled Due to Risk of Serious Injury or Death from Entrapment and Fall Hazards; Sold on Walmart.com by Nuoxuann',
        'Shenzhenshiruoxuandianzishangwuyouxiangongsi doing business as Nuoxuann',
      ),
    ).toBe('bearlala baby loungers');
  });

  it('find a brand+name pair whose brand field names only the seller (CPSC 1010488)', () => {
    const index = new CatalogueIndex(catalogueOf([{ brand: 'Bearlala', model: '', name: 'Baby Lounger newborn' }]));
    const recall = {
      product_brand: 'Shenzhenshiruoxuandianzishangwuyouxiangongsi doing business as Nuoxuann',
      alert_title:
        'Bearlala Baby Loungers Recalled Due to Risk of Serious Injury or Death from Entrapment and Fall Hazards; Sold on Walmart.com by Nuoxuann',
      product_name: 'Bearlala Baby Loungers',
    };
    expect(levels(index, recall)).toEqual([[1, 'possible', 'brand+name']]);
  });
});

describe('brand+name beside barcodes', () => {
  // RappelConso 2026-08-0180 (Madrange): the notice names one GTIN; the brand sells many hams of like names.
  const madrange = {
    product_brand: 'madrange',
    product_name: 'le jambon supérieur au torchon sans nitrite 4 tranches 160 g',
    alert_title: 'le jambon supérieur au torchon sans nitrite 4 tranches 160 g',
    standard_identifiers_and_barcodes: [{ type: 'GTIN', value: '3180940083183' }],
  };
  const rows = [
    { ean: '3180940083183', brand: 'Madrange', name: 'Jambon supérieur au torchon sans nitrite x4 160g' }, // 1
    { ean: '3180940084272', brand: 'Madrange', name: "Jambon supérieur cuisiné à l'os sans nitrite 4 tranches 160 g" }, // 2
    { ean: '', brand: 'Madrange', name: "Jambon supérieur cuisiné à l'os sans nitrite 4 tranches 160 g" }, // 3
  ];
  const index = new CatalogueIndex({
    file: 'catalogue.csv',
    headers: ['ean', 'brand', 'name'],
    columns: { gtin: 'ean', brand: 'brand', name: 'name' },
    rows: rows.map((values, i) => ({ line: i + 1, values })),
    repeated: [],
  });

  it('a row whose own barcode the notice does not name is not found by its name; one without a barcode still is', () => {
    expect(levels(index, madrange)).toEqual([
      [1, 'match', 'barcode'],
      [3, 'possible', 'brand+name'],
    ]);
  });
});

describe('name words of a notice whose brand is in its title', () => {
  // CPSC 1010411: brand field "Sunbeam Products Inc.", product name "Oster French Door Countertop Ovens".
  it('leave out the brand, as the catalogue row’s do', () => {
    const index = new CatalogueIndex(
      catalogueOf([{ brand: 'Oster', model: '', name: 'Oster French Door Countertop Oven, Stainless Steel' }]),
    );
    const [m] = index.match(
      {
        product_brand: 'Sunbeam Products Inc.',
        alert_title:
          'Sunbeam Products Recalls More than One Million Oster French Door Countertop Ovens Due to Burn Hazard',
        product_name: 'Oster French Door Countertop Ovens',
      },
      { explain: true },
    );
    expect(m?.reason).toBe('brand+name');
    expect(m?.explain).toContain(
      'name words: notice {french door countertop oven}, catalogue {french door countertop oven stainles steel}, shared {french door countertop oven}, similarity 0.80',
    );
  });
});

describe('a brand written as its initials', () => {
  // CPSC 1010551: brand field "RH US, LLC", SKU 10036671NAT; the retailer writes the brand out.
  const recall = {
    product_brand: 'RH US, LLC',
    alert_title: 'RH Recalls Natural Antler Chandeliers Due to Impact Hazard',
    product_model_numbers: ['10036671NAT', '10036671SUNB'],
  };
  it('confirm an equal model (model+brand), unless a trade word is among them', () => {
    const index = new CatalogueIndex(
      catalogueOf([
        { brand: 'Restoration Hardware', model: '10036671NAT', name: 'Natural Antler Chandelier 48"' }, // 1
        { brand: 'Royal Home', model: '10036671SUNB', name: 'Chandelier' }, // 2 "RH", but "home" is a trade word
        { brand: 'Red Hen', model: '10036671SUNB', name: 'Chandelier' }, // 3 "RH" too: beside an equal SKU, a match
      ]),
    );
    expect(levels(index, recall)).toEqual([
      [1, 'match', 'model+brand'],
      [3, 'match', 'model+brand'],
      [2, 'possible', 'model'],
    ]);
  });
});

describe('brand+name beside model numbers', () => {
  // CPSC 1010467: "Peloton Original Series Bike+ Model PL02"; the retailer also sells the original Bike, PL01.
  const peloton = {
    product_brand: 'Peloton Interactive Inc.',
    product_name: 'Peloton Original Series Bike+ Model PL02',
    alert_title: 'Peloton Recalls Original Series Bike+ Exercise Bikes Due to Fall and Injury Hazards',
    product_model_numbers: ['PL02'],
  };
  it('a row whose own model the notice does not name is not found by its name; one without a model still is', () => {
    const index = new CatalogueIndex(
      catalogueOf([
        { brand: 'Peloton', model: 'PL01', name: 'Bike original' }, // 1
        { brand: 'Peloton', model: '', name: 'Bike+ Original Series' }, // 2
        { brand: 'Peloton', model: 'PL-02', name: 'Bike+' }, // 3
      ]),
    );
    expect(levels(index, peloton)).toEqual([
      [3, 'match', 'model+brand'],
      [2, 'match', 'brand+full-name'],
    ]);
  });
});

describe('models a notice lists only in its description', () => {
  // CPSC 1010411 (Oster): the model field is empty; the description lists the models.
  const oster = {
    product_brand: 'Sunbeam Products Inc.',
    alert_title: 'Sunbeam Products Recalls More than One Million Oster French Door Countertop Ovens Due to Burn Hazard',
    product_name: 'Oster French Door Countertop Ovens',
    product_model_numbers: [],
    product_description:
      'This recall involves Oster French Door Countertop Ovens with model numbers TSSTTVFDXL, TSSTTVFDDG, TSSTTVFDMAF and TSSTTVFDDAF. The recalled ovens have a spring-loaded bilateral door made of glass with metal handles. A label on the backside of the oven identifies the model number.',
  };
  it('are read, and set apart a same-brand row of another model', () => {
    expect(textModelKeys(oster.product_description)).toEqual([
      'tssttvfdxl',
      'tssttvfddg',
      'tssttvfdmaf',
      'tssttvfddaf',
    ]);
    const index = new CatalogueIndex(
      catalogueOf([
        { brand: 'Oster', model: 'TSSTTVDGXL', name: 'Oster Digital French Door Countertop Oven' }, // 1 another model
        { brand: 'Oster', model: '', name: 'Oster French Door Countertop Oven, Stainless Steel' }, // 2
      ]),
    );
    expect(levels(index, oster)).toEqual([[2, 'possible', 'brand+name']]);
  });
});

describe('a brand ending in s, read from the title', () => {
  // CPSC 1010531: "17 Stories Furniture 18-Drawer Dressers Recalled …; Imported by Shenzhen Jinhongzhen Technology Co".
  it('is left out of the notice’s name words in its stemmed form too', () => {
    const index = new CatalogueIndex(
      catalogueOf([{ brand: '17 Stories', model: '', name: '18-Drawer Dresser black' }]),
    );
    const [m] = index.match(
      {
        product_brand: 'Shenzhen Jinhongzhen Technology Co., Ltd.',
        alert_title:
          '17 Stories Furniture 18-Drawer Dressers Recalled Due to Risk of Serious Injury or Death from Tip-Over and Entrapment Hazards; Violates Mandatory Standard for Clothing Storage Units; Imported by Shenzhen Jinhongzhen Technology Co',
        product_name: '17 Stories Furniture 18-Drawer Dressers',
      },
      { explain: true },
    );
    expect(m?.explain).toContain('name words: notice {furniture 18 drawer dresser}');
  });
});
