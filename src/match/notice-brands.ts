// The catalogue brands a notice names: its brand field (whole, parts, halves), its prose, its title after the firm, its label's words.
import {
  brandInTitle,
  brandLookupWords,
  brandsInText,
  distinctiveBrandTokens,
  relateBrands,
  titleBrandText,
} from './brands.js';
import { type BrandHit, type IndexedRow, STRENGTH } from './indexed-row.js';
import { brandKey, noticeName } from './match-keys.js';
import * as T from './match-thresholds.js';
import { firmBrands } from './notice-firms.js';

/**
 * The brands a notice states as its own, for both matchers: its brand field's parts, the brands its prose names ("sold
 * under the H-E-B brand", "Distributed by …"), and with no brand field, its recalling firm.
 */
export function noticeBrandCores(recall: Record<string, unknown>, parts: { strong: string[] }): string[] {
  return [...parts.strong, ...brandsInText(recall), ...firmBrands(recall)];
}

/** The matcher's brand maps (CatalogueIndex's): brand core -> rows, "A & B" halves -> rows, distinctive word -> cores. */
export interface BrandIndex {
  readonly byBrand: ReadonlyMap<string, IndexedRow[]>;
  readonly byWeakBrand: ReadonlyMap<string, IndexedRow[]>;
  readonly ampersandCores: ReadonlySet<string>;
  readonly brandsByWord: ReadonlyMap<string, Set<string>>;
}

/**
 * The catalogue brand cores the recall's brand (or its title, when the brand field names the firm) relates to; with
 * `aliases`, also the brands its firms recall under.
 */
export function relatedBrands(
  index: BrandIndex,
  recall: Record<string, unknown>,
  field: string,
  parts: { strong: string[]; weak: string[] },
  aliases: readonly { firm: string; core: string }[] = [],
): Map<string, BrandHit> {
  const hits = new Map<string, BrandHit>();
  const offer = (core: string, hit: BrandHit) => {
    const had = hits.get(core);
    if (!had || STRENGTH[hit.how] < STRENGTH[had.how]) hits.set(core, hit);
  };
  // A half of the notice's "A & B" equal to a whole catalogue brand.
  for (const part of parts.weak) if (index.byBrand.has(part)) offer(part, { how: 'same', recall: part });
  for (const part of parts.strong) {
    if (index.byBrand.has(part) || index.byWeakBrand.has(part)) offer(part, { how: 'same', recall: part });
    for (const w of distinctiveBrandTokens(part))
      for (const core of index.brandsByWord.get(w) ?? []) {
        const how = relateBrands(part, core);
        const halves = parts.weak.length > 0 || index.ampersandCores.has(core);
        if (how && !(how === 'shared-word' && halves)) offer(core, { how, recall: part });
      }
  }
  const title = typeof recall.alert_title === 'string' ? titleBrandText(recall.alert_title, field) : undefined;
  if (title !== undefined)
    for (const w of brandLookupWords(title))
      for (const core of index.brandsByWord.get(w) ?? [])
        if (brandInTitle(core, title)) offer(core, { how: 'in-title', recall: title });
  // The label's own words in the product name: "46-oz. packages containing “Wegmans FAMILY PACK …”" (FSIS).
  const name = brandKey(noticeName(recall.product_name).slice(0, T.NAME_TEXT_LIMIT));
  for (const w of brandLookupWords(name))
    for (const core of index.brandsByWord.get(w) ?? [])
      if (brandInTitle(core, name)) offer(core, { how: 'in-name', recall: name.slice(0, 80) });
  // Last and weakest: a brand the notice's firm recalls under, as `match --learn` learned it (brand-aliases.ts).
  for (const { firm, core } of aliases) if (index.byBrand.has(core)) offer(core, { how: 'alias', recall: firm });
  return hits;
}
