// Generated recalls and a catalogue built against them: barcodes, models, brands written many ways, names, lots, decoys.
type Rec = Record<string, unknown>;

/** A deterministic generator: the same seed gives the same data. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export function gtin13(body12: string): string {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(body12[11 - i]) * (i % 2 === 0 ? 3 : 1);
  return body12 + ((10 - (sum % 10)) % 10);
}

const BRANDS = [
  'Acme',
  'Acme Tools',
  'Brightway Inc',
  'Cat & Jack',
  'Jack & Jones',
  'Bon Marché',
  'Atelier Lumière',
  'Saveurs des Alpes',
  'Kettle Brand',
  'Nordic Home',
  'Zentra / Brightway',
  'Polar Sun LLC',
  'Maison Dupont',
  'Wet & Forget',
  'Restoration Hardware',
  'Acme Tools / Acme Home',
  'Acme Home',
];
const WORDS =
  `organic dark milk chocolate bar roasted salted cashews turkey sausage polish kielbasa helmet bicycle scooter
  charger lamp kettle heater blanket puzzle galettes riz yaourt nature saucisson sec jambon cuit stainless steel stroller
  crib mattress toddler boots hose nozzle remover vanilla strawberry beef chicken tools home`.split(/\s+/);
/** Words only the catalogue uses: their weights are counted over rows before and after the first row weighed. */
const CATALOGUE_WORDS = 'deluxe compact family edition outdoor travel classic royal golden twin'.split(' ');

const pick = <T>(rand: () => number, list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
const words = (rand: () => number, n: number) => Array.from({ length: n }, () => pick(rand, WORDS)).join(' ');

/** `count` recalls: barcodes (some with lots and dates), models with revisions, brands in fields, titles and prose. */
export function generatedRecalls(count: number, seed = 1): Rec[] {
  const rand = rng(seed);
  return Array.from({ length: count }, (_, i) => {
    const brand = pick(rand, BRANDS);
    const kind = i % 5;
    const valid = gtin13(`50${String(Math.floor(rand() * 1e10)).padStart(10, '0')}`);
    // Some notices print a code whose check digit is wrong: a catalogue with the same digits is barcode-unchecked.
    const code = i % 11 === 5 ? `${valid.slice(0, 12)}${(Number(valid[12]) + 1) % 10}` : valid;
    const lot = `L${100 + Math.floor(rand() * 20)}`;
    const name = `${kind === 3 ? `${brand} ` : ''}${words(rand, 2 + Math.floor(rand() * 3))}`;
    const model = `ZX-${100 + Math.floor(rand() * 60)}${kind === 1 ? '.1' : ''}`;
    return {
      id: 1000 + i,
      data_source: i % 2 === 0 ? 'us_cpsc' : 'rappel_conso',
      alert_title:
        kind === 2 ? `Retail Corp Recalls ${brand} ${name}` : kind === 4 ? `${brand} ${name} Recalled` : `${name}`,
      product_brand: kind === 2 ? 'Retail Corp' : kind === 4 ? '' : brand,
      product_name: name,
      product_description: kind === 0 ? `Sold under the ${pick(rand, BRANDS)} brand; model ${model}` : '',
      product_model_numbers: kind === 1 || kind === 0 ? [model] : [],
      standard_identifiers_and_barcodes:
        i % 3 === 0 || i % 11 === 5
          ? [i % 2 === 0 ? { type: 'gtin', value: code } : `${code} ${lot} DLC 04/04/2026`]
          : [],
      production_dates: i % 7 === 0 ? `Lots ${lot}, L${200 + i}` : '',
      risk_severity: pick(rand, ['serious', 'high', 'medium', 'low']),
      published_at: `2026-06-0${1 + (i % 9)}T10:00:00`,
      source_url: `https://example.test/recall/${i}`,
    };
  });
}

/** A CSV catalogue of `rows` rows: about one row in `every` taken from a recall, the rest invented (some alike). */
export function generatedCatalogue(recalls: readonly Rec[], rows: number, seed = 2, every = 8): string {
  const rand = rng(seed);
  const out = ['sku,ean,brand,model,name,lot,best_before,ean'];
  const cell = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
  for (let i = 0; i < rows; i++) {
    const r = i % every === 0 ? (pick(rand, recalls) as Record<string, any>) : undefined;
    const ids = (r?.standard_identifiers_and_barcodes ?? []) as unknown[];
    const first = ids[0] as { value?: string } | string | undefined;
    const code = typeof first === 'string' ? first.slice(0, 13) : (first?.value ?? '');
    const coin = rand();
    const ean =
      r && code && coin < 0.6
        ? coin < 0.1
          ? `${code.slice(0, 12)}${(Number(code[12]) + 1) % 10}`
          : coin < 0.2
            ? `0${code}`
            : code
        : rand() < 0.3
          ? gtin13(`40${String(Math.floor(rand() * 1e10)).padStart(10, '0')}`)
          : rand() < 0.05
            ? 'n/a'
            : '';
    const brand = r
      ? rand() < 0.5
        ? String(r.product_brand || pick(rand, BRANDS)).toUpperCase()
        : pick(rand, BRANDS)
      : rand() < 0.8
        ? pick(rand, BRANDS)
        : '';
    const modelSrc = (r?.product_model_numbers as string[] | undefined)?.[0];
    const model = modelSrc ? modelSrc.replace(/\.\d$/, '').toLowerCase() : rand() < 0.2 ? `zx ${100 + i} ` : '';
    const extra = rand() < 0.4 ? pick(rand, CATALOGUE_WORDS) : '';
    const name = r && rand() < 0.7 ? `${String(r.product_name)} ${extra}` : `${words(rand, 2)} ${extra}`;
    const lot = rand() < 0.2 ? `L${100 + Math.floor(rand() * 25)}` : '';
    const date = rand() < 0.1 ? `0${1 + Math.floor(rand() * 9)}/04/2026` : '';
    const second = rand() < 0.05 ? gtin13(`30${String(i).padStart(10, '0')}`) : '';
    out.push([`S${i}`, ean, brand, model, name.trim(), lot, date, second].map(cell).join(','));
  }
  return `${out.join('\n')}\n`;
}

/** New versions of these recalls that name nothing any catalogue holds: the rows they matched leave the answer. */
export function emptiedVersions(recalls: readonly Rec[], ids: readonly unknown[]): Rec[] {
  return ids.map((id) => ({
    ...recalls.find((r) => r.id === id),
    standard_identifiers_and_barcodes: [],
    product_model_numbers: [],
    product_brand: 'Nobody',
    product_name: 'nothing',
    alert_title: 'nothing',
    product_description: '',
  }));
}
