// The barcodes a notice names: identifier objects or strings, RappelConso lines, GS1 codes, "UPC …" in its text, and any checked code in it.
import { parseGs1 } from './gs1.js';
import { normalizeGtin } from './gtin.js';
import { barcodeForms } from './match-fold.js';

/** One code as the notice wrote it, its 14 digits, and whether its check digit is right. */
export interface RecallCode {
  raw: string;
  gtin14: string;
  valid: boolean;
}

/**
 * Digit runs grouped by spaces or dashes ("0 12345 67890 5"), never part of a date or a decimal; bounded, as notice
 * text is hostile. Read in barcodeForms' text: a narrow NBSP, a non-breaking hyphen or an Arabic-Indic digit is its
 * ASCII one.
 */
const DIGIT_RUN = /(?<![\d/.,])\d(?:[\d -]{0,40}\d)?(?![\d/.,])/g;
/** A barcode's label in a text, then the codes after it. */
const LABELLED =
  /\b(?:upc|ean(?:-?(?:13|8))?|gtin(?:-?1[234])?|barcodes?|codes?[- ]barres?|code ean|strichcode|ean-code)s?\b[^\d\n]{0,24}(\d[\d ,-]{0,200}\d(?:\s{0,3}(?:and|et|or|ou|und)\s{0,3}\d[\d -]{0,40}\d){0,20})/gi;

function add(out: Map<string, RecallCode>, raw: string): void {
  const result = normalizeGtin(raw);
  const gtin14 = result.ok ? result.gtin14 : result.unchecked;
  // A run that is a lot or a date leaves the check digit to chance: only 8 digits or more count at all.
  if (gtin14 === undefined || out.has(gtin14)) return;
  out.set(gtin14, { raw: raw.trim(), gtin14, valid: result.ok });
}

/**
 * The codes of one digit run, in order, with how many of its space- or dash-separated groups each took: the
 * whole run when it is a GTIN ("0 12345 67890 5"), else the longest groups from each point that are one
 * ("3564709006031 1234", a GTIN then a numeric lot); a run that is no valid code at all is kept as one
 * unchecked code when its digits could be one.
 */
export function codesOfRun(run: string): { raw: string; groups: number }[] {
  const groups = run.split(/[ -]+/).filter((g) => g !== '');
  const whole = normalizeGtin(run);
  if (whole.ok) return [{ raw: run, groups: groups.length }];
  const found: { raw: string; groups: number }[] = [];
  let i = 0;
  while (i < groups.length) {
    let j = groups.length;
    while (j > i && !normalizeGtin(groups.slice(i, j).join('')).ok) j--;
    if (j > i) {
      found.push({ raw: groups.slice(i, j).join(' '), groups: j - i });
      i = j;
    } else {
      found.push({ raw: '', groups: 1 });
      i++;
    }
  }
  if (found.some((f) => f.raw !== '')) return found.filter((f) => f.raw !== '');
  if (whole.unchecked !== undefined) return [{ raw: run, groups: groups.length }];
  // A code with a wrong check digit, then a lot: the first group alone, when it could be a code.
  const first = normalizeGtin(groups[0] ?? '');
  return !first.ok && first.unchecked !== undefined && groups.length > 1
    ? [{ raw: groups[0] as string, groups: 1 }]
    : [];
}

function fromText(out: Map<string, RecallCode>, text: string): void {
  for (const m of text.matchAll(DIGIT_RUN)) for (const c of codesOfRun(m[0])) add(out, c.raw);
}

/** Digits a code written with no label must have: 12 (UPC-A) to 14; an EAN-8 or shorter run is too often something else. */
const UNLABELLED_DIGITS = 12;
/**
 * Codes written with no label anywhere in the notice's text (an FDA `code_info` line "0 11596 85161 7= 11/1/2013 -
 * 11/29/2013", "UPC" said once for a list): only a run of 12 to 14 digits whose check digit is right. A wrong one
 * could be any number; a labelled run keeps it as unchecked, an unlabelled one does not.
 */
function unlabelledFromText(out: Map<string, RecallCode>, text: string): void {
  for (const m of text.matchAll(DIGIT_RUN))
    for (const c of codesOfRun(m[0])) {
      const digits = c.raw.replace(/\D/g, '');
      if (digits.length < UNLABELLED_DIGITS || digits.length > 14 || out.has(digits.padStart(14, '0'))) continue;
      const result = normalizeGtin(c.raw);
      if (result.ok) out.set(result.gtin14, { raw: c.raw.trim(), gtin14: result.gtin14, valid: true });
    }
}

/** The notice's free-text fields a barcode may stand in, labelled or not. */
const TEXT_FIELDS = [
  'production_dates',
  'product_description',
  'packaging_description',
  'alert_summary',
  'alert_title',
  'product_name',
];
/** How much of one field is searched for unlabelled codes: hostile text may be huge. */
const TEXT_LIMIT = 20_000;

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
    const plain = barcodeForms(value);
    const gs1 = parseGs1(plain);
    if (gs1) add(out, gs1.gtin);
    else fromText(out, plain);
  }
  // Each field's text in barcodeForms' form once, for both passes: labelled codes first, then unlabelled ones.
  const texts: string[] = [];
  for (const field of TEXT_FIELDS) {
    const text = recall[field];
    if (typeof text === 'string') texts.push(barcodeForms(text));
  }
  for (const text of texts) for (const m of text.matchAll(LABELLED)) fromText(out, m[1] as string);
  for (const text of texts) unlabelledFromText(out, text.slice(0, TEXT_LIMIT));
  return [...out.values()];
}
