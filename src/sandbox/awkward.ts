// Awkward values real data carries (CSV metacharacters, scripts, emoji, formula prefixes, nulls, huge texts).
import type { SpecRecall } from '../api/schemas.js';

const LONG_EN =
  'Consumers should immediately stop using the recalled product, unplug it, and contact the firm for instructions. ';
const LONG_FR =
  "Les personnes qui détiendraient ce produit sont invitées à ne plus l'utiliser et à le rapporter au point de vente. ";

/**
 * Field overrides applied to the first generated in-window records, so every default dataset holds each
 * kind at least once. Exporters and tables are expected to survive all of them.
 */
export function awkwardOverrides(): Partial<SpecRecall>[] {
  return [
    {
      // commas, double quotes and newlines: CSV quoting
      product_name: 'Kids\' Sleep Sack, Size "M" (6-18 months)',
      alert_summary:
        'This recall involves sleep sacks, sizes S, M and L.\nAbout 12,000 units were sold.\r\nRemedy: refund.',
      product_description: 'Zip-up "wearable blanket"; colours: grey, pink, "sky blue".',
    },
    {
      product_name: '儿童电动滑板车 Kids E-Scooter',
      product_brand: '小飞侠',
      alert_summary: '该产品前叉可能断裂，导致骑行者摔倒受伤。スクーターのリコール。',
      country_of_origin: 'China',
    },
    {
      product_brand: 'Ёлочка',
      product_name: 'Гирлянда светодиодная «Ёлочка»',
      hazard_description: 'Недостаточная изоляция проводов: риск поражения электрическим током.',
    },
    {
      product_name: 'مصباح ليلي للأطفال',
      alert_summary: 'خطر الصدمة الكهربائية بسبب العزل غير الكافي.',
      product_brand: 'نور',
    },
    {
      alert_title: '🔥 Power Bank Recalled Due to Fire Hazard ⚡ – Stop Using Now 🚫',
      product_name: 'ZenCharge Mini 🔋 10000 mAh',
    },
    {
      product_brand: '=HYPERLINK("http://example.invalid","click")',
      product_name: '+44 20 7946 0000 Hotline Edition Heater',
      product_description: '-20% Promo Pack: space heater with remote',
      measure_details: '@home customers: contact the retailer for a refund.',
    },
    {
      product_model_numbers: ['=1+1', '+SUM(A1:A2)', '-5', '@A1'],
      alert_summary: "=CMD|' /C calc'!A0 is not a real model number",
    },
    { packaging_description: null, counterfeit: null },
    {
      images: [],
      standard_identifiers_and_barcodes: [],
      standards_cited: [],
      product_model_numbers: [],
      involved_parties: [],
      risk_types: [],
    },
    {
      product_description: LONG_EN.repeat(24).trim(),
      measure_details: LONG_FR.repeat(22).trim(),
    },
    { alert_title: 'Tab\tseparated\ttitle with trailing spaces   ', production_dates: '' },
  ];
}
