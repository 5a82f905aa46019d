// A firm and the brands it recalls under, learned by `match --learn` from the archive's notices and the user's closed cases: a later notice from the firm relates to them, as a hint only.
import { brandParts, relateBrands } from './brands.js';
import { type BrandIndex, noticeBrandCores, relatedBrands } from './notice-brands.js';
import { noticeFirms } from './notice-firms.js';

/** A firm learned under more brands than this is a retailer or an importer, not a brand's owner: nothing is kept of it. */
export const MAX_BRANDS_PER_FIRM = 8;

/** What a learned alias rests on: notices that name the brand beside the firm, closed cases judged right, and wrong. */
export interface AliasEvidence {
  notices: number;
  cases: number;
  /** Cases of the firm's notices and the brand's rows closed as wrong: an alias with as many as its support is dropped. */
  wrong: number;
}

/** Firm core -> catalogue brand core -> evidence: the learned file's `aliases`. */
export type BrandAliases = Record<string, Record<string, AliasEvidence>>;

/** Firm core -> the catalogue brand cores it recalls under, in the file's order: what the matchers look up. */
export type AliasLookup = ReadonlyMap<string, readonly string[]>;

/** The catalogue brand cores a notice names in its own words (brand field, prose, title, label), not by a shared word alone. */
export function namedBrands(index: BrandIndex, recall: Record<string, unknown>): string[] {
  const field = typeof recall.product_brand === 'string' ? recall.product_brand : '';
  const parts = brandParts(field);
  const hits = relatedBrands(index, recall, field, { strong: noticeBrandCores(recall, parts), weak: parts.weak });
  return [...hits].filter(([, hit]) => hit.how !== 'shared-word').map(([core]) => core);
}

/** Gathers aliases: each brand a notice (or a confirmed case) ties to firms that are not that brand, less what wrong cases deny. */
export class AliasLearner {
  private readonly seen = new Map<string, Map<string, AliasEvidence>>();

  /** A notice from `firms` that names catalogue `brands` (namedBrands): a brand related to one of the firms is the firm's own. */
  notice(firms: readonly string[], brands: readonly string[]): void {
    this.add(firms, brands, 'notices');
  }

  /** A case closed as right: the notice's firms recalled the row's brand, whatever words tied them. */
  confirmed(firms: readonly string[], rowBrands: readonly string[]): void {
    this.add(firms, rowBrands, 'cases');
  }

  /** A case closed as wrong (false positive, not our product): evidence against the firm's tie to the row's brand. */
  refuted(firms: readonly string[], rowBrands: readonly string[]): void {
    this.add(firms, rowBrands, 'wrong');
  }

  private add(firms: readonly string[], brands: readonly string[], kind: keyof AliasEvidence): void {
    for (const brand of brands) {
      if (firms.some((f) => relateBrands(f, brand) !== undefined)) continue;
      for (const firm of firms) {
        let of = this.seen.get(firm);
        if (!of) {
          of = new Map();
          this.seen.set(firm, of);
        }
        const e = of.get(brand) ?? { notices: 0, cases: 0, wrong: 0 };
        e[kind]++;
        of.set(brand, e);
      }
    }
  }

  /** What was learned, firms and brands sorted; a firm with too many brands is left out. */
  result(): { aliases: BrandAliases; tooBroad: number } {
    // No prototype: a firm's key comes from hostile text, and "constructor" must be a firm like any other.
    const aliases: BrandAliases = Object.create(null);
    let tooBroad = 0;
    for (const firm of [...this.seen.keys()].sort()) {
      const kept = keptBrands(this.seen.get(firm) as Map<string, AliasEvidence>);
      if (kept === 'too broad') tooBroad++;
      else if (kept) aliases[firm] = kept;
    }
    return { aliases, tooBroad };
  }
}

/** An alias more notices and right cases show than wrong cases deny. */
const supported = (e: AliasEvidence): boolean => e.notices + e.cases > e.wrong;

/**
 * A firm's brands as kept, learned or read back from a file: the supported ones, sorted; undefined when none is, and
 * 'too broad' when more than MAX_BRANDS_PER_FIRM are (a retailer or an importer, not a brand's owner).
 */
export function keptBrands(
  brands: Iterable<[string, AliasEvidence]>,
): Record<string, AliasEvidence> | 'too broad' | undefined {
  const kept = [...brands].filter(([, e]) => supported(e));
  if (kept.length > MAX_BRANDS_PER_FIRM) return 'too broad';
  if (kept.length === 0) return undefined;
  const sorted = kept.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.assign(Object.create(null), Object.fromEntries(sorted));
}

/** The learned aliases as the matchers look them up; undefined when none were learned. */
export function aliasLookup(aliases: BrandAliases | undefined): AliasLookup | undefined {
  if (aliases === undefined) return undefined;
  const lookup = new Map<string, string[]>();
  for (const [firm, brands] of Object.entries(aliases)) lookup.set(firm, Object.keys(brands));
  return lookup.size === 0 ? undefined : lookup;
}

/** A notice's firms and, for each, a brand it recalls under: in the order both matchers offer them. */
export function noticeAliases(lookup: AliasLookup, recall: Record<string, unknown>): { firm: string; core: string }[] {
  return noticeFirms(recall).flatMap((firm) => (lookup.get(firm) ?? []).map((core) => ({ firm, core })));
}
