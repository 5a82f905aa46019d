// The barcodes a notice names: identifier objects or strings, RappelConso lines, GS1 codes, and "UPC …" in its text.
import { parseGs1 } from './gs1.js';
import { normalizeGtin } from './gtin.js';

/** One code as the notice wrote it, its 14 digits, and whether its check digit is right. */
export interface RecallCode {
  raw: string;
  gtin14: string;
  valid: boolean;
}

/** Digit runs grouped by spaces or dashes ("0 12345 67890 5"), never part of a date or a decimal. */
const DIGIT_RUN = /(?<![\d/.,])\d(?:[\d -]*\d)?(?![\d/.,])/g;
/** A barcode's label in a text, then the codes after it. */
const LABELLED =
  /\b(?:upc|ean(?:-?(?:13|8))?|gtin(?:-?1[234])?|barcodes?|codes?[- ]barres?|code ean|strichcode|ean-code)s?\b[^\d\n]{0,24}(\d[\d ,-]*\d(?:\s*(?:and|et|or|ou|und)\s*\d[\d -]*\d)*)/gi;

function add(out: Map<string, RecallCode>, raw: string): void {
  const result = normalizeGtin(raw);
  const gtin14 = result.ok ? result.gtin14 : result.unchecked;
  // A run that is a lot or a date leaves the check digit to chance: only 8 digits or more count at all.
  if (gtin14 === undefined || out.has(gtin14)) return;
  out.set(gtin14, { raw: raw.trim(), gtin14, valid: result.ok });
}

function fromText(out: Map<string, RecallCode>, text: string): void {
  for (const m of text.matchAll(DIGIT_RUN)) {
    // Two codes written side by side with a dash between them: each group of 8+ digits is tried alone too.
    if (/ - /.test(m[0])) for (const part of m[0].split(/ - /)) add(out, part);
    else add(out, m[0]);
  }
}

/** Every code of the notice, valid or not: identical digits with a wrong check digit still count, as possible. */
export function recallCodes(recall: Record<string, unknown>): RecallCode[] {
  const out = new Map<string, RecallCode>();
  const ids = recall.standard_identifiers_and_barcodes;
  for (const id of Array.isArray(ids) ? ids : []) {
    const value =
      typeof id === 'string'
        ? id
        : typeof (id as { value?: unknown })?.value === 'string'
          ? (id as { value: string }).value
          : undefined;
    const type = typeof (id as { type?: unknown })?.type === 'string' ? (id as { type: string }).type : '';
    if (value === undefined || /^(?:asin|batch|lot|isbn|sku|model)$/i.test(type)) continue;
    const gs1 = parseGs1(value);
    if (gs1) add(out, gs1.gtin);
    else fromText(out, value);
  }
  for (const field of ['product_description', 'packaging_description', 'alert_summary']) {
    const text = recall[field];
    if (typeof text !== 'string') continue;
    for (const m of text.matchAll(LABELLED)) fromText(out, m[1] as string);
  }
  return [...out.values()];
}

/** The barcodes a recall names that are valid GTINs, as GTIN-14. */
export function recallGtins(recall: Record<string, unknown>): string[] {
  return recallCodes(recall)
    .filter((c) => c.valid)
    .map((c) => c.gtin14);
}
