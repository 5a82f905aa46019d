// The Unicode forms matching folds beyond fold(): a text written in full-width, ligature, Turkish or Arabic-Indic forms is
// the same brand, name, model or barcode. fold() itself stays as it is: record filters and archive columns share it.
import { fold } from '../filters/normalize.js';
import { asciiDigits, digitValue } from './ascii-digits.js';

/** Text every step below leaves as it is: most catalogue cells and notice fields. */
const ASCII = /^[\x00-\x7f]*$/;

/** Invisible format characters (soft hyphen, ZWSP, LRM, BOM...): a word with one inside is that word. */
const FORMAT = /\p{Cf}/gu;
/**
 * Signs NFKC would spell out wrongly for the keys: ™ and ℠ as the letters "TM" and "SM" (brandKey drops the marks, not
 * the letters), and the acute accent ´, used as an apostrophe ("Sainsbury´s"), as a space and a mark.
 */
const BEFORE_NFKC = /[™℠´]/g;
const BEFORE_NFKC_AS: Record<string, string> = { '™': ' ', '℠': ' ', '´': '’' };
/**
 * Letters NFD does not take apart (no accent to drop) and full case folding that toLowerCase lacks: written as the
 * plain letters a shop without the keyboard types ("Łowicz" is "Lowicz", "Weißwurst" is "WEISSWURST", Turkish "Gıda"
 * is "GIDA", "Bœuf" is "Boeuf").
 */
const LETTERS: Record<string, string> = {
  ß: 'ss',
  ẞ: 'ss',
  ı: 'i',
  ł: 'l',
  Ł: 'l',
  ø: 'o',
  Ø: 'o',
  đ: 'd',
  Đ: 'd',
  ð: 'd',
  Ð: 'd',
  ħ: 'h',
  Ħ: 'h',
  ŧ: 't',
  Ŧ: 't',
  æ: 'ae',
  Æ: 'ae',
  œ: 'oe',
  Œ: 'oe',
  þ: 'th',
  Þ: 'th',
};
const LETTER = new RegExp(`[${Object.keys(LETTERS).join('')}]`, 'g');
/**
 * Whether a text needs more than NFKC: one test, as most accented text (French, German names) needs only NFKC, and
 * each further scan of a catalogue's every name costs. NFKC itself makes none of these characters (bar mathematical
 * letters), so the text as written tells.
 */
const BEYOND_NFKC = new RegExp(`[\\p{Cf}™℠´${Object.keys(LETTERS).join('')}]|(?![0-9])\\p{Nd}`, 'u');

const IS_DIGIT = /^\p{Nd}$/u;

/**
 * A text's matching forms before fold(): format characters dropped, compatibility forms folded (NFKC: full-width
 * letters and digits, ligatures "ﬁ", half-width katakana), the letters LETTERS lists spelt plainly, and every decimal
 * digit as 0-9. Pure ASCII text is returned as it is, at the cost of one test.
 */
export function matchForms(text: string): string {
  if (ASCII.test(text)) return text;
  if (!BEYOND_NFKC.test(text)) return text.normalize('NFKC');
  // After NFKC, which makes mathematical and full-width digits 0-9 already: asciiDigits takes the scripts' own.
  return asciiDigits(
    text
      .replace(BEFORE_NFKC, (c) => BEFORE_NFKC_AS[c] as string)
      .replace(FORMAT, '')
      .normalize('NFKC')
      .replace(LETTER, (c) => LETTERS[c] as string),
  );
}

/** fold() for matching keys: matchForms' forms, then no case, no accents, spaces collapsed. */
export function matchFold(text: string): string {
  return fold(matchForms(text));
}

/**
 * What a barcode's digits may be written with, besides 0-9, space and "-": other digits, spaces (NBSP, narrow NBSP,
 * thin space), dashes (non-breaking hyphen, en dash, minus), invisible characters, and the full-width or Arabic forms
 * of the ". , /" that mark a decimal or a date.
 */
const BARCODE_SIGN =
  /(?![ \-0-9])[\p{Nd}\p{Zs}\p{Cf}\p{Pd}\u2212\u2043\u066b\u066c\u060c\uff0c\uff0e\uff0f\u2044\u2215]/gu;
const BARCODE_AS: Record<string, string> = {
  '\u066b': '.',
  '\uff0e': '.',
  '\u066c': ',',
  '\u060c': ',',
  '\uff0c': ',',
  '\uff0f': '/',
  '\u2044': '/',
  '\u2215': '/',
};
const DASH = /^[\p{Pd}\u2212\u2043]$/u;

function barcodeSign(sign: string): string {
  if (IS_DIGIT.test(sign)) return digitValue(sign);
  // An invisible character between digits separates their groups as a space does: never one longer run.
  return BARCODE_AS[sign] ?? (DASH.test(sign) ? '-' : ' ');
}

/**
 * A text as barcodes are read in ASCII: every digit 0-9, every space a space, every dash "-", and an invisible
 * character a space. One character for each, so a run's groups and ends stay where they were written: a group
 * separated by a narrow NBSP is read exactly as one separated by a space.
 */
export function barcodeForms(text: string): string {
  if (ASCII.test(text)) return text;
  return text.replace(BARCODE_SIGN, barcodeSign);
}
