// The barcode and model tiers of one pair, for both matchers: which reason, the brand the notice writes, and the words of --explain.
import { brandCore, brandInitials, brandWrittenIn, noticeBrandText } from './brands.js';
import { explainBrand } from './explain.js';
import { isCellSize } from './match-keys.js';
import type { BrandHit, IndexedRow } from './indexed-row.js';
import type { Found } from './scoped-matches.js';
import * as T from './match-thresholds.js';

/** The same GTIN on both sides: `barcode` when both check digits are valid, `barcode-unchecked` otherwise. */
export function barcodeFound(
  notice: { raw: string; gtin14: string; valid: boolean },
  row: { raw: string; valid: boolean },
): Found {
  const valid = notice.valid && row.valid;
  return {
    reason: valid ? 'barcode' : 'barcode-unchecked',
    explain: () =>
      valid
        ? `barcode: notice "${notice.raw}" = catalogue "${row.raw}" (GTIN-14 ${notice.gtin14}, check digit valid)`
        : `barcode-unchecked: notice "${notice.raw}" and catalogue "${row.raw}" are the same digits ${notice.gtin14}, but its check digit is wrong`,
  };
}

/** A notice's texts a written brand is looked for in, read once per recall and only when a model agrees. */
export class NoticeBrandWords {
  private text: { field: string; text: string }[] | undefined;
  private fieldWords: Set<string> | undefined;

  constructor(
    private readonly recall: Record<string, unknown>,
    private readonly recallBrand: string,
  ) {}

  /** The row's brand as the notice's own text writes it, when its brand field does not name it. */
  writtenBrand(r: IndexedRow): { core: string; field: string } | undefined {
    this.text ??= noticeBrandText(this.recall);
    for (const core of r.brands.slice(0, r.strong))
      for (const { field, text } of this.text) if (brandWrittenIn(core, text)) return { core, field };
    // "Restoration Hardware" is "RH" in the brand field "RH US, LLC": the initials of a brand of two words or more.
    this.fieldWords ??= new Set(brandCore(this.recallBrand).split(' '));
    for (const core of r.brands.slice(0, r.strong)) {
      const initials = brandInitials(core);
      if (initials !== undefined && this.fieldWords.has(initials)) return { core: initials, field: 'product_brand' };
    }
    return undefined;
  }
}

/**
 * An equal model: `model+brand` with a related brand (a shared word is a hint, not the same brand) or with the row's
 * brand written in the notice's own words (the firm recalls that brand); `model` otherwise, except for a battery's
 * size (isCellSize), which ties no other brand's pack: undefined.
 */
export function modelFound(
  model: { notice: string; key: string; row: string },
  r: IndexedRow,
  brand: { core: string; hit: BrandHit } | undefined,
  recallBrand: string,
  words: NoticeBrandWords,
): Found | undefined {
  const said = () => `model: notice "${model.notice}" = catalogue "${model.row}" (key ${model.key})`;
  const brandWords = () => (brand ? explainBrand(recallBrand, r.brandText, brand.core, brand.hit) : '');
  if (brand && !T.HINT_BRANDS.has(brand.hit.how))
    return { reason: 'model+brand', explain: () => `${said()}; ${brandWords()}` };
  const written = words.writtenBrand(r);
  if (written)
    return {
      reason: 'model+brand',
      explain: () =>
        `${said()}; brand: catalogue "${r.brandText}" written in the notice's ${written.field} (as "${written.core}")`,
    };
  if (isCellSize(model.key)) return undefined;
  return {
    reason: 'model',
    explain: () =>
      brand ? `${said()}; ${brandWords()}, not enough for model+brand` : `${said()}; brands differ or are missing`,
    // Only a row without a brand is left to the tier's measure: a hint, two brands that differ, or a row's brand the
    // notice writes nowhere (it may name none in its brand field, and its firm is another) is never promoted.
    ...((brand || r.brands.length > 0) && { keepLevel: true }),
  };
}

/**
 * "NTRW19147.0" to ".3": revisions of the model a retailer lists as "NTRW19147". Which revision the row holds is
 * unknown, so it is a possible match whatever the brands say, and match --learn never promotes it.
 */
export function revisionFound(notice: string, row: string, base: string): Found {
  return {
    reason: 'model',
    explain: () =>
      `model: notice "${notice}" is a revision of catalogue "${row}" (key ${base}); which revision is unknown`,
    keepLevel: true,
  };
}
