// The comparison keys of catalogue matching: model numbers, brands and product-name tokens.
import { fold } from '../filters/normalize.js';

/** Model numbers compare without case, accents, spaces, dashes, dots, slashes or underscores. */
export function modelKey(raw: string): string {
  return fold(raw).replace(/[\s\-./\\_]+/g, '');
}

/**
 * Brands compare without case, accents, punctuation or surrounding space ("L'Oréal" = "l oreal"), without marks
 * ("Lindt®", "Nutella(R)", "Oreo™"), with a possessive joined to its word ("Sainsbury's" = "Sainsburys") and
 * initials as one word ("H-E-B" = "HEB").
 */
export function brandKey(raw: string): string {
  // Each step runs only when its characters are there: a catalogue of millions of rows keys every name.
  let key = fold(decodeEntities(raw));
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

/** Units of pack sizes, weights and volumes ("500g", "1 L", "14 oz", "12 x 33cl", "2 ct"), English, French and German. */
const UNITS =
  'mg|g|gr|kg|ml|cl|dl|l|lt|ltr|oz|fl ?oz|lb|lbs|ct|pk|pcs?|pc|pack|pieces?|st|stk|stuck|mm|cm|m|in|inch|inches|w|kw|v|mah|wh|x';
const QUANTITY = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:\\d+(?: \\d{3})*(?: \\d+)? ?(?:${UNITS})|(?:x|lot de|pack of) ?\\d+)(?![\\p{L}\\p{N}])`,
  'gu',
);
/** A unit word left alone once its number is gone ("oz" in "14 oz"), never a name word. */
const UNIT_WORDS = new Set(
  UNITS.replace(/\?|s\?/g, '')
    .split('|')
    .concat(['fl', 'oz', 'pcs', 'pieces', 'inches']),
);

/**
 * A brandKey'd text without its quantities: "lait 1 5l" (from "1,5L") and "12 x 33cl" lose their numbers and
 * units, so two products never look alike through a shared pack size.
 */
function withoutQuantities(key: string): string {
  // Every quantity has a digit.
  return (
    (/\d/.test(key) ? key.replace(QUANTITY, ' ') : key)
      .split(' ')
      // A bare number stays: "iPhone 12" and "iPhone 13" are different products.
      .filter((w) => w !== '' && !UNIT_WORDS.has(w) && !/^\d+x$/.test(w))
      .join(' ')
  );
}

/**
 * The distinctive words of a product name: folded, 2+ characters, neither generic nor part of the brand.
 * `brand` is the brand's key (brandKey), which callers have at hand already.
 */
export function nameTokens(name: string, brand = ''): Set<string> {
  const brandWords = new Set(brand.split(' '));
  const tokens = new Set<string>();
  for (const word of withoutQuantities(brandKey(name)).split(' ')) {
    // "toys" and "toy", "chargeurs" and "chargeur": a trailing s is not a different product.
    const stem = word.length > 3 && word.endsWith('s') ? word.slice(0, -1) : word;
    if (stem.length < 2 || GENERIC.has(word) || GENERIC.has(stem) || brandWords.has(word)) continue;
    tokens.add(stem);
  }
  return tokens;
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

/**
 * A notice's product name without what is not the product: entities decoded, and the reason cut off ("… Roasted
 * Cashews recalled due to off odour" is "… Roasted Cashews").
 */
export function noticeName(raw: unknown): string {
  if (typeof raw !== 'string') return '';
  return decodeEntities(raw.slice(0, 2000)).replace(
    /\s+(?:recalled|recall|is being recalled|due to|because)\b.*$/is,
    '',
  );
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
  const m = /^(.*\d)\.\d{1,2}$/.exec(raw.trim());
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
  'vanilla chocolate strawberry cherry lemon orange mint caramel peanut almond hazelnut coconut raspberry blueberry apple banana mango peach cinnamon coffee vanille chocolat fraise cerise citron menthe noisette amande framboise myrtille pomme banane peche cafe erdbeer kirsch zitrone',
].map((g) => new Set(g.split(' ')));

/**
 * The word that makes two same-brand names siblings rather than one product: one denies what the other has
 * ("non-dairy"), or both name a different one of a group (dark vs milk, steak vs beef). Undefined when none does.
 */
export function siblingWord(a: ReadonlySet<string>, b: ReadonlySet<string>): string | undefined {
  for (const w of NEGATORS) if (a.has(w) !== b.has(w)) return w;
  for (const group of ALTERNATIVES) {
    const inA = [...a].filter((t) => group.has(t));
    const inB = [...b].filter((t) => group.has(t));
    if (inA.length > 0 && inB.length > 0 && !inA.some((t) => inB.includes(t))) return `${inA[0]}/${inB[0]}`;
  }
  return undefined;
}
