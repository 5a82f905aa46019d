// The brand+name tier of one catalogue row and one notice, for both matchers: the sibling guards, the weighed cover, and when a name makes a match.
import { explainBrand, explainName } from './explain.js';
import type { BrandHit, IndexedRow } from './indexed-row.js';
import { nameTokens, siblingWord, tokenSimilarity } from './match-keys.js';
import type { NameWeights } from './name-score.js';
import type { NoticeItem, NoticeItems } from './notice-items.js';
import { compareSizes, type PackSize, packSizes, type SizeAgreement } from './pack-sizes.js';
import type { Found } from './scoped-matches.js';
import * as T from './match-thresholds.js';
import { variantSibling, variantWords } from './variants.js';

/** What the tier weighs of a pair: the notice's side is read once per recall by the caller, and lazily. */
export interface NamePair {
  row: IndexedRow;
  /** The notice's name words, the catalogue core's own left out: what must cover the row's name. */
  noticeTokens: ReadonlySet<string>;
  /**
   * The same without the notice's own brand words: what says a sibling ("Zero Water" is not a "zero" recipe) and how
   * alike the names are.
   */
  productTokens: ReadonlySet<string>;
  core: string;
  hit: BrandHit;
  recallBrand: string;
  weights: NameWeights;
  noticeGtins: ReadonlySet<string>;
  /** Whether the notice lists models and this one is not among them. */
  otherModel: (key: string) => boolean;
  /** The products the notice's name lists, each with its words and sizes, and every size it states. */
  noticeItems: () => NoticeItems;
}

/**
 * The row's brand+name tier with the notice, or undefined. A sibling (another barcode, another model, a word such as
 * dark for milk, a pack size the notice does not name) is never offered. `brand+full-name`, a match, needs one
 * product the notice lists to hold every word of the row's name (two or more) and no other pack size, with the row's
 * brand named by the brand field (or the prose) or the title; when the brand is only written in the notice's product
 * name, that product's pack size must also be the row's.
 */
export function nameTier(p: NamePair): Found | undefined {
  const r = p.row;
  // Both sides name barcodes and none agree: the row is the brand's other product (another pack size, another
  // recipe), whatever its name shares with the notice's.
  if (r.gtins.length > 0 && p.noticeGtins.size > 0 && !r.gtins.some((g) => p.noticeGtins.has(g))) return undefined;
  // The same for model numbers: the Peloton Bike PL01 is not the recalled Bike+ PL02.
  if (r.modelKey !== '' && p.otherModel(r.modelKey)) return undefined;
  // The brand's sibling (dark for milk chocolate, non-dairy for dairy) is another product, however alike. A notice
  // listing several products denies the row only when none of them is the row's without such a word (Egg Beaters'
  // cage-free carton beside the original one).
  if (siblingWord(p.productTokens, r.tokens) !== undefined) {
    // A notice of one product is that product: its words are the whole notice's, already found to deny the row.
    const { items } = p.noticeItems();
    if (items.length < 2 || !items.some((i) => sameProduct(p, i))) return undefined;
  }
  const similarity = tokenSimilarity(p.productTokens, r.tokens);
  const whole = p.weights.coverage(p.noticeTokens, r.tokens);
  // A grocer's gloss the notice need not write ("Baby Bhindi (Okra)" for the FDA's "Baby Bhindi"): the words outside it.
  const outside = whole.score < T.NAME_COVERAGE ? wordsOutsideParentheses(r) : null;
  const alone = outside ? p.weights.coverage(p.noticeTokens, outside) : undefined;
  const withoutParentheses = alone !== undefined && alone.score > whole.score;
  const covered = withoutParentheses ? alone : whole;
  // "Crave Stevia brand chocolate products": every word the notice names its products by is in the row's name.
  const named = p.productTokens.size > 0 && containsAll(r.tokens, p.productTokens);
  if (!(named || similarity >= T.NAME_SIMILARITY || covered.score >= T.NAME_COVERAGE)) return undefined;
  // So is another pack size: the notice states its sizes and the row's is none of them (Johnsonville's 14 oz
  // Polish Kielbasa beside the recalled 12 oz one).
  const { items, sizes: noticeSizes } = p.noticeItems();
  r.sizes ??= packSizes(r.nameText);
  const rowSizes = r.sizes;
  if (compareSizes(rowSizes, noticeSizes).kind === 'differs') return undefined;
  let sizes: SizeAgreement = { kind: 'unknown' };
  let full = false;
  let variant: string | undefined;
  // A name covered only without its parentheses is at most brand+name.
  if (!withoutParentheses && covered.score === 1 && r.tokens.size >= T.FULL_NAME_WORDS)
    for (const item of items) {
      if (!containsAll(item.tokens, r.tokens) || siblingWord(productWords(p, item), r.tokens) !== undefined) continue;
      // Every word alike, and yet another of the brand's products: white for milk chocolate, Stage 2 for Stage 1,
      // 100 for 60 softgels. Possible, never match: the words that say so are too common to deny the pair.
      r.variants ??= variantWords(r.nameText);
      const differs = variantSibling(item.variants, r.variants);
      if (differs !== undefined) {
        variant ??= differs;
        continue;
      }
      sizes = compareSizes(rowSizes, item.sizes);
      full =
        sizes.kind !== 'differs' &&
        (T.FULL_NAME_BRANDS.has(p.hit.how) ||
          (T.WRITTEN_BRANDS.has(p.hit.how) && (sizes.kind === 'same' || sizeless(p, item, rowSizes))));
      if (full) break;
    }
  return {
    reason: full ? 'brand+full-name' : 'brand+name',
    explain: () => {
      const words = explainName(p.noticeTokens, r.tokens, similarity, T.NAME_SIMILARITY);
      const gloss = withoutParentheses ? ", the row's words in parentheses left out" : '';
      const weighed = `weighed cover ${covered.score.toFixed(2)} (>= ${T.NAME_COVERAGE}: ${covered.shared.map((t) => `${t} ${p.weights.weight(t).toFixed(1)}`).join(', ')})${gloss}`;
      const other =
        full || variant === undefined
          ? ''
          : `; possible, not match: the notice's product and the row differ in ${variant}`;
      return `${explainBrand(p.recallBrand, r.brandText, p.core, p.hit)}; ${words}; ${weighed}${explainSize(sizes)}${other}`;
    },
    words: covered.shared,
    // A sibling (variant) is never a match, however often the tier was right.
    ...((T.HINT_BRANDS.has(p.hit.how) || variant !== undefined) && { keepLevel: true }),
  };
}

/**
 * A row name's words outside its parentheses, read once per row (a row is weighed against every recall of its brand);
 * null when its name has none in parentheses, or none outside them.
 */
function wordsOutsideParentheses(r: IndexedRow): ReadonlySet<string> | null {
  // null is an answer: `??=` would read a name without parentheses again for every recall.
  if (r.outside === undefined) r.outside = outsideOf(r);
  return r.outside;
}

function outsideOf(r: IndexedRow): ReadonlySet<string> | null {
  const glosses = r.nameText.match(/\([^()]*\)/g);
  if (glosses === null) return null;
  const inside = nameTokens(glosses.join(' '));
  const outside = new Set([...r.tokens].filter((t) => !inside.has(t)));
  return outside.size > 0 && outside.size < r.tokens.size ? outside : null;
}

function explainSize(sizes: SizeAgreement): string {
  if (sizes.kind === 'same') return `; pack size ${sizes.size} is one the notice names`;
  if (sizes.kind === 'differs')
    return `; pack size differs from that product's: catalogue ${sizes.row}, notice ${sizes.notice} (not enough for a match)`;
  return '';
}

/**
 * Neither the row nor the listed product states a pack size, and that product is the brand's label itself
 * ("Plastic-wrapped packages of “BABUSHKA’S RECIPE CHICKEN BOLOGNA”"): there is no size to disagree on. A row with a
 * size stays possible (Locatelli's grated Pecorino "sold by the pound" in Wegmans' tubs is not the 5 lb bag).
 */
function sizeless(p: NamePair, item: NoticeItem, rowSizes: readonly PackSize[]): boolean {
  return (
    item.sizes.length === 0 && rowSizes.length === 0 && p.core !== '' && containsAll(item.tokens, nameTokens(p.core))
  );
}

/** A listed product's words without the notice's own brand words, which never say a sibling. */
function productWords(p: NamePair, item: NoticeItem): Set<string> {
  return new Set([...item.tokens].filter((t) => p.productTokens.has(t)));
}

/** Whether a listed product may be the row's: no word of it says a sibling, and it covers the row's name. */
function sameProduct(p: NamePair, item: NoticeItem): boolean {
  if (siblingWord(productWords(p, item), p.row.tokens) !== undefined) return false;
  return p.weights.coverage(item.covering, p.row.tokens).score >= T.NAME_COVERAGE;
}

function containsAll(outer: ReadonlySet<string>, inner: ReadonlySet<string>): boolean {
  for (const t of inner) if (!outer.has(t)) return false;
  return true;
}
