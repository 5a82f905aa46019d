// A firm and the brands it recalls under, learned by `match --learn` from the archive's notices and the user's confirmed cases: a later notice from the firm relates to them, as a hint only.
import { brandCore, brandParts, brandsInText, distinctiveBrandTokens, relateBrands } from './brands.js';
import { type BrandIndex, relatedBrands } from './notice-brands.js';

/** Involved parties whose name is the firm behind the product; a retailer (or a marketplace) sells every firm's brands. */
const FIRM_ROLES =
  /\b(?:recalling firm|manufacturer|importer|distributor|establishment|producer|packer|brand owner)\b/i;
/** "A dba B", "A doing business as B": both are the firm. */
const DBA = /[\s,]+(?:dba|d\/b\/a|doing business as|trading as|t\/a)\s+/i;
/**
 * Where a firm is, not its name: ", of Middleton, Wisconsin" (the CPSC), "of Irving, Texas", "of China". A name with
 * "of" in it ("House of Tsang") keeps it.
 */
const PLACE =
  /(?:,\s*of\s.*|\s+of\s+[^,]{2,40},.*|\s+of\s+(?:china|canada|taiwan|hong kong|korea|japan|vietnam|india|turkey|mexico)\b.*)$/is;
/** "(TTIOPE)", "(Jialebei Department Store, Longhua District)": an aside, not the name. */
const ASIDE = /\([^()]*\)/g;
/** A firm learned under more brands than this is a retailer or an importer, not a brand's owner: nothing is kept of it. */
export const MAX_BRANDS_PER_FIRM = 8;
/** How much of a party's name is read: a hostile one may be huge. */
const NAME_LIMIT = 200;

/** What a learned alias rests on: notices that name the brand beside the firm, and closed cases judged right. */
export interface AliasEvidence {
  notices: number;
  cases: number;
}

/** Firm core -> catalogue brand core -> evidence: the learned file's `aliases`. */
export type BrandAliases = Record<string, Record<string, AliasEvidence>>;

/** Firm core -> the catalogue brand cores it recalls under, in the file's order: what the matchers look up. */
export type AliasLookup = ReadonlyMap<string, readonly string[]>;

/** The firms a notice names: its brand field, and the parties that make, import or distribute the product. */
export function noticeFirms(recall: Record<string, unknown>): string[] {
  const found = new Set<string>();
  // Whole, never split at its commas as a brand list is: "Mameix Retail, Inc. of Canada" is one firm.
  const add = (text: string) => {
    for (const part of text.slice(0, NAME_LIMIT).replace(ASIDE, ' ').replace(PLACE, '').split(DBA)) {
      const core = brandCore(part);
      if (core !== '' && distinctiveBrandTokens(core).length > 0) found.add(core);
    }
  };
  const brand = typeof recall.product_brand === 'string' ? recall.product_brand : '';
  add(brand);
  const parties = Array.isArray(recall.involved_parties) ? recall.involved_parties : [];
  for (const p of parties.slice(0, 50)) {
    const { name, role } = (p ?? {}) as { name?: unknown; role?: unknown };
    if (typeof name === 'string' && typeof role === 'string' && FIRM_ROLES.test(role)) add(name);
  }
  return [...found];
}

/** The catalogue brand cores a notice names in its own words (brand field, prose, title, label), not by a shared word alone. */
export function namedBrands(index: BrandIndex, recall: Record<string, unknown>): string[] {
  const field = typeof recall.product_brand === 'string' ? recall.product_brand : '';
  const parts = brandParts(field);
  const hits = relatedBrands(index, recall, field, {
    strong: [...parts.strong, ...brandsInText(recall)],
    weak: parts.weak,
  });
  return [...hits].filter(([, hit]) => hit.how !== 'shared-word').map(([core]) => core);
}

/** Gathers aliases: each brand a notice (or a confirmed case) ties to firms that are not that brand. */
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

  private add(firms: readonly string[], brands: readonly string[], kind: keyof AliasEvidence): void {
    for (const brand of brands) {
      if (firms.some((f) => relateBrands(f, brand) !== undefined)) continue;
      for (const firm of firms) {
        let of = this.seen.get(firm);
        if (!of) {
          of = new Map();
          this.seen.set(firm, of);
        }
        const e = of.get(brand) ?? { notices: 0, cases: 0 };
        e[kind]++;
        of.set(brand, e);
      }
    }
  }

  /** What was learned, firms and brands sorted; a firm with too many brands is left out. */
  result(): { aliases: BrandAliases; tooBroad: number } {
    // No prototype: a firm's key comes from hostile text ("__proto__" is a key like any other here).
    const aliases: BrandAliases = Object.create(null);
    let tooBroad = 0;
    for (const firm of [...this.seen.keys()].sort()) {
      const of = this.seen.get(firm) as Map<string, AliasEvidence>;
      if (of.size > MAX_BRANDS_PER_FIRM) {
        tooBroad++;
        continue;
      }
      aliases[firm] = Object.fromEntries([...of].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    }
    return { aliases, tooBroad };
  }
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
