// A notice's product name as the products it lists (FSIS writes one per bullet, the FDA joins them with semicolons),
// each with its name words and pack sizes.
import { glossed } from './glossary.js';
import { nameTokens } from './match-keys.js';
import { type PackSize, packSizes } from './pack-sizes.js';
import { variantWords } from './variants.js';

export interface NoticeItem {
  tokens: ReadonlySet<string>;
  /** Its words with a Spanish alert's in English beside them (glossary.ts): what may cover a row, not a full name. */
  covering: ReadonlySet<string>;
  sizes: readonly PackSize[];
  /** The words that say which of the brand's products it is (variants.ts): a colour, a size, "Stage 1"… */
  variants: ReadonlySet<string>;
}

/**
 * Where one listed product ends and the next begins: FSIS's bullet. A line break is not one: the FDA breaks one
 * product's description into lines ("… Grated (Wegmans #270010)\nPackaged and sold by the pound\n…").
 */
const ITEM_BREAK = /•+/;
/** A list joined by commas, each product opening with its size: "… USE BY AUG 10 2025., 32-oz. (2 LB) carton …". */
const COMMA_ITEM = /([.”"])\s*,\s+(?=\d)/g;
/** "12 oz., 16 oz. packages" is one product in two sizes: a size just before the comma is no product's end. */
const SIZE_END = /\d\s?-?\s?(?:[a-z]{1,6}|#)\.?$/i;
/**
 * Two labels one product line quotes: "… containing “Q’Delicia DE EMPANADA BEEF” and “… MEAT GLUTEN FREE.”"; FSIS's
 * Spanish alerts put each label's translation after it: "“… EMPANADA BEEF” (EMPANADA DE CARNE DE RES) y “… FREE”".
 * The translation stays with its label.
 */
const LABEL_BREAK = /(?<=”(?:\s*\([^()“”]{0,200}\))?)\s*,?\s*(?:and|or|y|o)?\s*(?=“)/giu;

/**
 * A list joined by semicolons, each product opening with the same word (the FDA's "Great Value Whole Milk 1 gal;
 * Great Value Chocolate Milk 1 gal"). Without that word repeated a semicolon parts one product's facts ("Cinnamon
 * Powder; 8oz clear plastic container"), or ends an entity (`&quot;`), and the text stays whole.
 */
function semicolonItems(part: string): string[] {
  const parts = part.split(';').filter((p) => /[\p{L}\p{N}]/u.test(p));
  if (parts.length < 2) return [part];
  const head = (p: string) => /^[\s\p{P}]*([\p{L}\p{N}]{3,})/u.exec(p)?.[1]?.toLowerCase();
  const first = head(parts[0] as string);
  return first !== undefined && parts.every((p) => head(p) === first) ? parts : [part];
}

/** The products a notice's name lists, and every size it states. */
export interface NoticeItems {
  items: NoticeItem[];
  sizes: PackSize[];
}

/** A product line's text split where a comma-joined list starts its next product. */
function commaItems(part: string): string[] {
  const out: string[] = [];
  let from = 0;
  for (const m of part.matchAll(COMMA_ITEM)) {
    const end = (m.index ?? 0) + 1;
    if (SIZE_END.test(part.slice(from, end))) continue;
    out.push(part.slice(from, end));
    from = end + m[0].length - 1;
  }
  out.push(part.slice(from));
  return out;
}

/**
 * The products a notice's name lists. A catalogue row is the same product as one of them, never as words gathered
 * from several ("Turkey Sausage" from one bullet and "Polish Kielbasa 14 oz" from another). Each label a product line
 * quotes is a product of that line's sizes. `words`: the whole name's words, as the caller has them already
 * (nameTokens(name)), and `covering` the same glossed (glossed(words)), which a name of one product does not read again.
 */
export function noticeItems(
  name: string,
  words: ReadonlySet<string>,
  covering: ReadonlySet<string> = glossed(words),
): NoticeItems {
  const lines = name
    .split(ITEM_BREAK)
    .flatMap(semicolonItems)
    .flatMap(commaItems)
    .filter((p) => /[\p{L}\p{N}]/u.test(p));
  const labelled = lines.map((text) => ({ text, labels: text.split(LABEL_BREAK) }));
  if (labelled.length <= 1 && (labelled[0]?.labels.length ?? 0) <= 1) {
    const sizes = packSizes(name);
    return { items: [{ tokens: words, covering, sizes, variants: variantWords(name) }], sizes };
  }
  const sized = labelled.map(({ text, labels }) => ({ labels, sizes: packSizes(text) }));
  const items = sized.flatMap(({ labels, sizes }) =>
    labels.map((label) => {
      const tokens = nameTokens(label);
      return { tokens, covering: glossed(tokens), sizes, variants: variantWords(label) };
    }),
  );
  return { items, sizes: sized.flatMap(({ sizes }) => sizes) };
}
