// The comparison keys of catalogue matching: model numbers, brands and product-name tokens.
import { matchFold, matchForms } from './match-fold.js';
import { NUMBER_WORDS, poundsWritten, SIZE_ABBREVIATIONS, SPELT_UNITS } from './unit-words.js';

/**
 * fold() for keys, with matching's Unicode forms (matchFold: full-width, ligatures, ß, Turkish ı, ł, invisible
 * characters, other digits). ASCII text has none of them and no accents to take apart, so its Unicode normalization
 * (the dearest step, and a new string every time) is skipped there. A catalogue of millions of rows keys every name,
 * brand and model.
 */
function foldKey(text: string): string {
  if (!ASCII.test(text)) return matchFold(text);
  const lower = text.toLowerCase();
  return (OTHER_SPACE.test(lower) ? lower.replace(/\s+/g, ' ') : lower).trim();
}
const ASCII = /^[\x00-\x7f]*$/;
/** White space that fold() would collapse to one space: any but a single space. */
const OTHER_SPACE = /[\t\n\v\f\r]| {2}/;

const PLAIN = /^[a-z0-9 ]*$/;

/**
 * A battery's IEC size (CR2032, CR2016, LR44, SR626, AG13, 6LR61, CR123A) as a model key: every maker's cell of that
 * size has it, so it names a size, not a product, and ties two brands' packs no more than "AA" does.
 */
export function isCellSize(key: string): boolean {
  return CELL_SIZE.test(key);
}
const CELL_SIZE = /^\d?(?:cr|br|lr|sr|ag)\d{1,4}[a-z]?$/;

/**
 * Model numbers compare without case, accents, spaces, dashes, dots, slashes or underscores: of any kind, as a text
 * that is not ASCII may write them ("PB‑2000X" with a non-breaking hyphen, "ＰＢ－２０００Ｘ").
 */
export function modelKey(raw: string): string {
  const key = foldKey(raw);
  return ASCII.test(key) ? key.replace(SEPARATORS, '') : key.replace(ANY_SEPARATORS, '');
}
const SEPARATORS = /[\s\-./\\_]+/g;
/** SEPARATORS and every other dash, the minus sign and the fraction and division slashes (matchFold keeps them). */
const ANY_SEPARATORS = /[\s\p{Pd}\u2212\u2043\u2044\u2215./\\_]+/gu;

/**
 * Brands compare without case, accents, punctuation or surrounding space ("L'Oréal" = "l oreal"), with "&" and
 * "and" left out, without marks ("Lindt®", "Nutella(R)", "Oreo™"), with a possessive joined to its word
 * ("Sainsbury's" = "Sainsburys") and initials as one word ("H-E-B" = "HEB").
 */
export function brandKey(raw: string): string {
  // Each step runs only when its characters are there: a catalogue of millions of rows keys every name.
  let key = foldKey(decodeEntities(raw));
  // "First & Last Tavern" = "First and Last Tavern": neither the ampersand nor the word is kept (the FDA writes one,
  // a catalogue the other).
  if (key.includes(' and ')) key = key.replace(/ and(?= )/g, '');
  // Most names are letters, digits and single spaces already, which every step below leaves as they are.
  if (PLAIN.test(key)) return key;
  if (/[(®™©℠]/.test(key)) key = key.replace(/\((?:r|tm|c|sm)\)|[®™©℠]/g, ' ');
  if (/['’`´]/.test(key)) key = key.replace(/(\p{L})['’`´]s(?![\p{L}\p{N}])/gu, '$1s');
  // Initials written with dots or dashes are one word: "H-E-B" = "HEB", "P.F. Chang's" = "PF Changs".
  if (/[.-]/.test(key))
    key = key.replace(/(?<![\p{L}\p{N}])\p{L}(?:[.-]\p{L})+(?![\p{L}\p{N}])/gu, (m) => m.replace(/[.-]/g, ''));
  return key.replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/**
 * Words too common in product names to say two products are the same; a shared one of these alone is
 * never a match (English and French, the languages of the sources).
 */
const GENERIC = new Set(
  `a an and the of for with in on to by from set pack kit new model edition size mini max pro plus
  kids kid children childrens child baby infant adult mens womens unisex toy toys product products
  item items piece pieces black white red blue green pink grey gray small medium large
  le la les un une des de du d l et en au aux pour avec sans sur par enfant enfants bebe jouet
  jouets produit lot noir blanc rouge bleu vert rose gris petit petite grand grande
  package packages packaged packaging containing contains container containers plastic cardboard vacuum packed sealed
  bag bags box boxes tray trays bottle bottles jar jars can cans pouch pouches case cases wrapped clear single various
  weight sliced retail brand labeled labelled bearing label`.split(/\s+/),
);

/**
 * Units of quantities ("500g", "1 L", "14 oz", "1.5 qt", "12 x 33cl", "2 ct"): every pack size's (unit-words.ts), then
 * counts, lengths and power, English, French and German.
 */
const UNITS = [
  ...SIZE_ABBREVIATIONS.map((u) => u.replace(' ', ' ?')),
  'ct|pk|pcs?|pc|pack|pieces?|st|stk|stuck|mm|cm|m|in|inch|inches|w|kw|v|mah|wh|x',
].join('|');
const QUANTITY = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:\\d+(?: \\d{3})*(?: \\d+)? ?(?:${UNITS})|(?:x|lot de|pack of) ?\\d+)(?![\\p{L}\\p{N}])`,
  'gu',
);
const SPELT_UNIT = new RegExp(`(?:^| )(?:${SPELT_UNITS})(?: |$)`);
const SPELT_QUANTITY = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:\\d+(?: \\d+)?|${Object.keys(NUMBER_WORDS).join('|')}|half|a) (?:${SPELT_UNITS})(?![\\p{L}\\p{N}])`,
  'gu',
);
/** A unit word left alone once its number is gone ("oz" in "14 oz"), never a name word. */
const UNIT_WORDS = new Set(
  UNITS.replace(/\?|s\?/g, '')
    .split('|')
    .concat(['fl', 'oz', 'pcs', 'pieces', 'inches']),
);

/** Whether `word` (no spaces, not empty) is one of the space-separated words of `text`. */
function hasWord(text: string, word: string): boolean {
  for (let i = text.indexOf(word); i >= 0; i = text.indexOf(word, i + 1)) {
    const end = i + word.length;
    if ((i === 0 || text[i - 1] === ' ') && (end === text.length || text[end] === ' ')) return true;
  }
  return false;
}

/**
 * The distinctive words of a product name: folded, 2+ characters, neither generic nor part of the brand.
 * `brand` is the brand's key (brandKey), which callers have at hand already. A brandKey'd name loses its quantities
 * first: "lait 1 5l" (from "1,5L") and "12 x 33cl" lose their numbers and units, so two products never look alike
 * through a shared pack size.
 */
export function nameTokens(name: string, brand = ''): Set<string> {
  const tokens = new Set<string>();
  forEachNameWord(name, brand, (t) => tokens.add(t));
  return tokens;
}

/**
 * "96% FAT FREE" is a claim on the label, not a recipe: with its share written, "free" denies nothing (a row for the
 * same ham need not repeat it). "Fat Free" alone stays a negator (fat-free milk is not whole milk).
 */
const SHARE_FREE = /(\d\s?%\s*\p{L}+)[\s-]+free\b/giu;
function claimed(name: string): string {
  return name.includes('%') ? name.replace(SHARE_FREE, '$1') : name;
}

/** nameTokens' words one by one, as the name has them (once each time it has them): a census needs no Set per row. */
export function forEachNameWord(name: string, brand: string, visit: (token: string) => void): void {
  let key = brandKey(claimed(poundsWritten(name)));
  // "two liter", "12 onzas", "5 pound": a quantity spelt out (a lone "pound", as in "pound cake", stays a word).
  if (SPELT_UNIT.test(key)) key = key.replace(SPELT_QUANTITY, ' ');
  // Every other quantity has a digit.
  for (const word of (/\d/.test(key) ? key.replace(QUANTITY, ' ') : key).split(' ')) {
    // A bare number stays: "iPhone 12" and "iPhone 13" are different products.
    if (word === '' || UNIT_WORDS.has(word) || (word.endsWith('x') && /^\d+x$/.test(word))) continue;
    // "toys" and "toy", "chargeurs" and "chargeur": a trailing s is not a different product.
    const stem = word.length > 3 && word.endsWith('s') ? word.slice(0, -1) : word;
    if (stem.length < 2 || GENERIC.has(word) || (stem !== word && GENERIC.has(stem))) continue;
    // The brand's own words, in either number: "Organic" in a name of "Miski Organics" is its brand, as the notice's
    // side leaves it out (a core's word or that word with an s).
    if (brand !== '' && (hasWord(brand, word) || hasWord(brand, `${stem}s`))) continue;
    visit(stem);
  }
}

/** HTML entities agencies leave in their text ("Boar&#039;s Head", "&quot;Johnsonville"), decoded. */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(?:#(\d{1,6})|#x([\da-f]{1,6})|(quot|amp|apos|lt|gt|nbsp));/gi, (m, dec, hex, name) => {
    if (name)
      return (
        ({ quot: '"', amp: '&', apos: "'", lt: '<', gt: '>', nbsp: ' ' } as Record<string, string>)[
          name.toLowerCase()
        ] ?? m
      );
    const code = dec ? Number(dec) : Number.parseInt(hex, 16);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
  });
}

/** Health Canada's "Food Recall Warning (Allergen) – " before the product: not the product, and not where to cut. */
const WARNING_PREFIX = /^\s*(?:\p{L}+\s+)?recall\s+(?:warning|notice|alert)(?:\s*\([^)]{0,40}\))?\s*[–—:-]\s*/iu;

/**
 * A reason and what follows it, up to the next product a list names: FSIS writes "The product subject to recall bears
 * establishment number …" inside its first bullet, and the bullets after it are products still.
 */
const REASON = /\s+(?:recalled|recall|is being recalled|due to|because)\b[^•]*/giu;

/**
 * A notice's product name without what is not the product: entities decoded, a warning's heading dropped, and the
 * reason cut off ("… Roasted Cashews recalled due to off odour" is "… Roasted Cashews").
 */
export function noticeName(raw: unknown): string {
  if (typeof raw !== 'string') return '';
  return decodeEntities(raw.slice(0, 2000)).replace(WARNING_PREFIX, '').replace(REASON, '');
}

/**
 * The name a notice's products are compared by: its product name, or its title when it gives none (an FSIS alert may
 * list no product: "FSIS Issues Public Health Alert for Bismillah Halal Meats Ground Beef Due to …"). `name`: the
 * product name as noticeName gives it, when the caller has it already.
 */
export function noticeProductName(
  recall: Record<string, unknown>,
  name: string = noticeName(recall.product_name),
): string {
  return name.trim() !== '' ? name : noticeName(recall.alert_title);
}

/** Dice similarity of two token sets: 2|A∩B| / (|A|+|B|); 0 when either is empty. */
export function tokenSimilarity(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const t of a) if (b.has(t)) shared++;
  return (2 * shared) / (a.size + b.size);
}

/** A model's key without a revision suffix (".0" to ".99" after a digit), when it has one long enough to compare. */
export function revisionBase(raw: string): string | undefined {
  const m = /^(.*\d)\.\d{1,2}$/.exec(matchForms(raw).trim());
  if (!m) return undefined;
  const base = modelKey(m[1] as string);
  // "1.5" or "V2.1" are versions of nothing a catalogue lists: the base must carry letters and digits.
  return base.length >= 5 && /[a-z]/.test(base) ? base : undefined;
}

/** Words that deny what follows or precedes ("non-dairy", "sugar free", "sans sucre", "decaf"): a different recipe. */
const NEGATORS = new Set('non free sans ohne sin zero diet decaf decaffeinated unsweetened lite light'.split(' '));
/** Groups of words of which a product is one: dark or milk chocolate, beef or steak pie, vanilla or cherry. */
const ALTERNATIVES = [
  'dark milk white noir lait blanc zartbitter vollmilch weiss negro leche blanco',
  'beef steak chicken pork turkey lamb ham bacon sausage salmon tuna cod shrimp prawn veal duck boeuf poulet porc dinde agneau jambon saumon thon canard crevette rind huhn schwein pute lachs',
  'vanilla chocolate strawberry cherry lemon orange mint caramel peanut almond hazelnut cashew pistachio walnut pecan macadamia coconut raspberry blueberry apple banana mango peach cinnamon coffee vanille chocolat fraise cerise citron menthe noisette amande framboise myrtille pomme banane peche cafe erdbeer kirsch zitrone',
].map((g) => new Set(g.split(' ')));

/**
 * The word that makes two same-brand names siblings rather than one product: one denies what the other has
 * ("non-dairy"), or both name a different one of a group (dark vs milk, steak vs beef). Undefined when none does.
 */
export function siblingWord(a: ReadonlySet<string>, b: ReadonlySet<string>): string | undefined {
  for (const w of NEGATORS) if (a.has(w) !== b.has(w)) return w;
  // Each row's name is weighed against many notices: no arrays per group.
  for (const group of ALTERNATIVES) {
    let inA: string | undefined;
    let shared = false;
    for (const t of a)
      if (group.has(t)) {
        inA ??= t;
        if (b.has(t)) shared = true;
      }
    if (inA === undefined || shared) continue;
    for (const t of b) if (group.has(t)) return `${inA}/${t}`;
  }
  return undefined;
}
