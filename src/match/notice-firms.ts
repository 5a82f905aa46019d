// The firms a notice names (its brand field, the parties that make, import or distribute), read whole: what brand aliases are learned and looked up by, and the brand of a notice without a brand field.
import { brandCore, distinctiveBrandTokens, titleFirm } from './brands.js';
import { decodeEntities } from './match-keys.js';

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
/** How much of a party's name is read: a hostile one may be huge. */
const NAME_LIMIT = 200;

/** A firm's name as a brand core, without where it is or an aside; "A dba B" gives both. */
function firmCores(text: string, into: Set<string>): void {
  // Whole, never split at its commas as a brand list is: "Mameix Retail, Inc. of Canada" is one firm.
  for (const part of text.slice(0, NAME_LIMIT).replace(ASIDE, ' ').replace(PLACE, '').split(DBA)) {
    const core = brandCore(part);
    if (core !== '' && distinctiveBrandTokens(core).length > 0) into.add(core);
  }
}

/** The names of a notice's involved parties whose role `roles` accepts. */
function partiesOf(recall: Record<string, unknown>, roles: RegExp): string[] {
  const parties = Array.isArray(recall.involved_parties) ? recall.involved_parties : [];
  const names: string[] = [];
  for (const p of parties.slice(0, 50)) {
    const { name, role } = (p ?? {}) as { name?: unknown; role?: unknown };
    if (typeof name === 'string' && typeof role === 'string' && roles.test(role)) names.push(name);
  }
  return names;
}

/** The firms a notice names: its brand field, and the parties that make, import or distribute the product. */
export function noticeFirms(recall: Record<string, unknown>): string[] {
  const found = new Set<string>();
  firmCores(typeof recall.product_brand === 'string' ? recall.product_brand : '', found);
  for (const name of partiesOf(recall, FIRM_ROLES)) firmCores(name, found);
  return [...found];
}

/** Who recalls it or makes it: the brand a notice without a brand field names (the FDA's recalling firm). */
const MAKER_ROLES = /\b(?:recalling firm|manufacturer)\b/i;

/**
 * With an empty brand field (the FDA has none, FSIS mostly none), the recalling firm or maker is the brand the notice
 * names, as its prose's "Distributed by …" is: "Nutrition for Longevity" recalls its own "Loaded Veggie Grain Bowl".
 * The firm is the maker among the parties, or the one the title says recalls.
 */
export function firmBrands(recall: Record<string, unknown>): string[] {
  const brand = recall.product_brand;
  if (typeof brand === 'string' && brand.trim() !== '') return [];
  const found = new Set<string>();
  for (const name of partiesOf(recall, MAKER_ROLES)) firmCores(name, found);
  // "C&T Produce Wholesale Inc. Dba L&v Food Supply Recalls …" (FSIS).
  const title = typeof recall.alert_title === 'string' ? titleFirm(decodeEntities(recall.alert_title)) : undefined;
  if (title) firmCores(title.firm, found);
  return [...found];
}
