// Text and list fields of a generated recall, in each source's own style (French sources in French).
import type { SpecRecall } from '../api/schemas.js';
import { gtinCheckDigit } from '../match/gtin.js';
import type { SourceId } from './types.js';
import type { Rng } from './rng.js';
import {
  EN_BRANDS,
  EN_MEASURE_DETAILS,
  EN_PRODUCTS,
  EU_AUTHORITIES,
  EU_COUNTRIES,
  FR_BRANDS,
  FR_FOODS,
  FR_MEASURE_DETAILS,
  FR_ORIGINS,
  FR_PRODUCTS,
  FR_RETAILERS,
  ORIGINS,
  ORIGIN_CODES,
  RETAILERS,
  type ProductTemplate,
} from './vocab.js';

type Content = Omit<SpecRecall, 'id' | 'published_at' | 'updated_at' | 'created_in_db_at'>;

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const FR_PACKAGING = [
  'Barquette plastique de 200 g',
  'Sachet de 500 g',
  'Pot en verre de 125 g',
  'Boîte carton de 6 unités',
  'Bouteille de 1 L',
];
const FR_CODES: Record<string, string> = { France: 'FR', Italie: 'IT', Espagne: 'ES', Chine: 'CN', Belgique: 'BE' };

const slug = (s: string): string =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

const frDate = (ms: number): string => {
  const d = new Date(ms);
  return `${String(d.getUTCDate()).padStart(2, '0')}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${d.getUTCFullYear()}`;
};

function models(rng: Rng): string[] {
  const prefix = rng.pick(['BW', 'KX', 'PB', 'HT', 'SC', 'ZR']);
  return Array.from({ length: rng.int(0, 3) }, () => `${prefix}-${rng.digits(4)}`);
}

/** Real barcodes end in a valid check digit: the last generated digit is replaced by it. */
function withCheckDigit(digits: string): string {
  const body = digits.slice(0, -1);
  return `${body}${gtinCheckDigit(body)}`;
}

function identifiers(rng: Rng, food: boolean): { type: string; value: string }[] {
  const out: { type: string; value: string }[] = [];
  const n = rng.int(0, 2);
  for (let i = 0; i < n; i++) {
    const type = food ? rng.pick(['GTIN', 'EAN', 'batch']) : rng.pick(['UPC', 'EAN', 'GTIN', 'ASIN']);
    const value =
      type === 'UPC'
        ? withCheckDigit(rng.digits(12))
        : type === 'ASIN'
          ? `B0${rng.digits(8)}`
          : type === 'batch'
            ? `L${rng.digits(5)}`
            : withCheckDigit(`3${rng.digits(12)}`);
    out.push({ type, value });
  }
  return out;
}

function counterfeit(rng: Rng, food: boolean): string | null {
  if (food) return rng.chance(0.8) ? null : 'no';
  return rng.weighted([
    ['no', 70],
    ['unknown', 15],
    ['yes', 5],
    [null, 10],
  ] as const);
}

function images(rng: Rng, base: string, name: string): string[] {
  return Array.from({ length: rng.int(0, 3) }, (_, i) => `${base}/${slug(name)}-${i + 1}.jpg`);
}

function english(rng: Rng, source: SourceId, publishedMs: number): Content {
  const t: ProductTemplate = rng.pick(EN_PRODUCTS);
  const brand = rng.pick(EN_BRANDS);
  const retailer = rng.pick(RETAILERS);
  const origin = rng.pick(ORIGINS);
  const year = new Date(publishedMs).getUTCFullYear();
  const units = rng.pick(['1,200', '4,800', '15,000', '38,000', '210,000']);
  const name = `${brand} ${t.product}`;
  const from = rng.int(0, 11);
  const common = {
    risk_types: t.risks,
    hazard_description: t.description,
    product_category: t.category,
    product_name: name,
    product_brand: brand,
    product_model_numbers: models(rng),
    product_description: `${t.product} sold under the ${brand} brand in ${rng.pick(['black', 'white', 'blue', 'pink', 'grey'])} and other colours.`,
    packaging_description: rng.chance(0.7) ? `Printed cardboard box with the ${brand} logo` : null,
    production_dates: `Sold from ${MONTHS[from]} ${year - 1} through ${MONTHS[rng.int(0, 11)]} ${year}`,
    standard_identifiers_and_barcodes: identifiers(rng, false),
    standards_cited: rng.some(t.standards, 0, 2),
    country_of_origin: origin,
    counterfeit: counterfeit(rng, false),
    alert_status: rng.chance(0.9) ? 'active' : 'updated',
    measure_details: rng.pick(EN_MEASURE_DETAILS),
  };
  const manufacturer = { name: `${brand} Co., Ltd.`, role: 'manufacturer', country: ORIGIN_CODES[origin] ?? 'CN' };
  if (source === 'us_cpsc') {
    const title = `${name} Recalled Due to ${t.hazard} Hazard${rng.chance(0.4) ? `; Sold Exclusively on ${retailer}` : ''}`;
    return {
      ...common,
      data_source: source,
      source_case_id: `${String(year).slice(2)}-${rng.int(100, 799)}`,
      source_url: `https://www.cpsc.gov/Recalls/${year}/${slug(title)}`,
      alert_title: title,
      alert_summary: `This recall involves ${name.toLowerCase()} sold at ${retailer}. About ${units} units were sold in the United States.`,
      risk_severity: rng.pick(['high', 'high', 'medium', 'serious']),
      measure_types: [
        'recall',
        rng.pick(['refund', 'repair', 'replacement']),
        ...(rng.chance(0.5) ? ['stop_use'] : []),
      ],
      images: images(rng, 'https://www.cpsc.gov/s3fs-public', name),
      involved_parties: [
        manufacturer,
        { name: `${brand} USA Inc.`, role: 'importer', country: 'US' },
        { name: retailer, role: 'retailer', country: 'US' },
      ],
      geo_jurisdictions: rng.chance(0.2) ? ['US', 'CA'] : ['US'],
      notifying_authority: 'U.S. Consumer Product Safety Commission',
    };
  }
  if (source === 'uk_opss') {
    const ref = `${String(year).slice(2)}${String(new Date(publishedMs).getUTCMonth() + 1).padStart(2, '0')}-${rng.digits(4)}`;
    const title = `Product Safety Report: ${t.product} sold via ${retailer} (${ref})`;
    return {
      ...common,
      data_source: source,
      source_case_id: ref,
      source_url: `https://www.gov.uk/product-safety-alerts-reports-recalls/${slug(title)}`,
      alert_title: title,
      alert_summary: `The product presents a ${t.hazard.toLowerCase()} risk and does not meet the requirements of the General Product Safety Regulations 2005.`,
      risk_severity: rng.pick(['serious', 'high', 'medium', 'low']),
      measure_types: [rng.pick(['withdrawal_from_market', 'recall_from_end_users'])],
      images: images(rng, 'https://assets.publishing.service.gov.uk/media', name),
      involved_parties: [manufacturer, { name: retailer, role: 'retailer', country: 'GB' }],
      geo_jurisdictions: ['GB'],
      notifying_authority: 'Office for Product Safety and Standards',
    };
  }
  const country = rng.pick(EU_COUNTRIES);
  return {
    ...common,
    data_source: source,
    source_case_id: `A12/0${rng.int(1000, 2999)}/${String(year).slice(2)}`,
    source_url: `https://ec.europa.eu/safety-gate-alerts/screen/webReport/alertDetail/${rng.int(10_000_000, 99_999_999)}`,
    alert_title: `${t.category} - ${t.product} - ${brand}`,
    alert_summary: `The product poses a risk of ${t.hazard.toLowerCase()}. ${t.description}`,
    risk_severity: rng.pick(['serious', 'serious', 'high', 'medium', 'unknown']),
    measure_types: rng.some(['withdrawal_from_market', 'recall_from_end_users', 'sales_ban', 'destruction'], 1, 2),
    images: images(rng, 'https://ec.europa.eu/safety-gate-alerts/public/api/notification/image', name),
    involved_parties: [manufacturer, { name: `${brand} Europe GmbH`, role: 'distributor', country }],
    geo_jurisdictions: [
      country,
      ...rng.some(
        EU_COUNTRIES.filter((c) => c !== country),
        0,
        3,
      ),
    ],
    notifying_authority: EU_AUTHORITIES[country] ?? country,
  };
}

function french(rng: Rng, source: SourceId, publishedMs: number): Content {
  const food = source === 'rappel_conso_food';
  const t: ProductTemplate = rng.pick(food ? FR_FOODS : FR_PRODUCTS);
  const brand = rng.pick(FR_BRANDS);
  const retailer = rng.pick(FR_RETAILERS);
  const origin = rng.pick(FR_ORIGINS);
  const d = new Date(publishedMs);
  const ficheId = rng.int(10_000, 29_999);
  const name = `${t.product} ${brand}`;
  return {
    data_source: source,
    source_case_id: `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}-${rng.digits(4)}`,
    source_url: `https://rappel.conso.gouv.fr/fiche-rappel/${ficheId}/Interne`,
    alert_title: `Rappel de produit : ${name}`,
    alert_summary: `Motif du rappel : ${t.description} Risques encourus par le consommateur : ${t.risks.join(', ')}.`,
    risk_severity: rng.pick(food ? ['high', 'serious', 'medium'] : ['high', 'medium', 'low', 'unknown']),
    risk_types: t.risks,
    hazard_description: t.description,
    measure_types: food
      ? rng.some(['recall', 'withdrawal_from_market', 'destruction'], 1, 2)
      : ['recall', rng.pick(['refund', 'replacement'])],
    measure_details: rng.pick(FR_MEASURE_DETAILS),
    product_category: t.category,
    product_name: name,
    product_brand: brand,
    product_model_numbers: food ? [] : models(rng),
    product_description: food
      ? `${t.product}, vendu au rayon frais.`
      : `${t.product} vendu(e) chez ${retailer} et sur Internet.`,
    packaging_description: food ? rng.pick(FR_PACKAGING) : rng.chance(0.6) ? 'Boîte en carton' : null,
    production_dates: food
      ? `Lot ${rng.digits(6)}, DLC ${frDate(publishedMs + rng.int(2, 40) * 86_400_000)}`
      : `Du ${frDate(publishedMs - rng.int(60, 400) * 86_400_000)} au ${frDate(publishedMs - rng.int(1, 30) * 86_400_000)}`,
    images: images(rng, 'https://rappel.conso.gouv.fr/image', name),
    standard_identifiers_and_barcodes: identifiers(rng, food),
    involved_parties: [
      { name: `${brand} SAS`, role: 'manufacturer', country: FR_CODES[origin] ?? 'FR' },
      { name: retailer, role: 'distributor', country: 'FR' },
    ],
    standards_cited: rng.some(t.standards, 0, 1),
    geo_jurisdictions: ['FR'],
    notifying_authority: 'DGCCRF',
    country_of_origin: origin,
    counterfeit: counterfeit(rng, food),
    alert_status: rng.chance(0.9) ? 'active' : 'updated',
  };
}

export function buildContent(rng: Rng, source: SourceId, publishedMs: number): Content {
  return source === 'rappel_conso' || source === 'rappel_conso_food'
    ? french(rng, source, publishedMs)
    : english(rng, source, publishedMs);
}
