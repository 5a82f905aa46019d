// The recalls indexed for a catalogue streamed past them: each notice's codes, models, brands and words read once.
import { brandLookupWords, brandParts, distinctiveBrandTokens, titleBrandText } from './brands.js';
import { noticeBrandCores } from './notice-brands.js';
import { push } from './indexed-row.js';
import { glossed } from './glossary.js';
import { brandKey, nameTokens, noticeName, noticeProductName } from './match-keys.js';
import { type RecallCode, recallCodes } from './recall-codes.js';
import type { ScopeItem } from './scope-items.js';
import { recallScope } from './scope.js';
import { modelKeysOf, type NoticeModel, noticeModels as listedModels } from './notice-models.js';
import * as T from './match-thresholds.js';
import { type AliasLookup, noticeAliases } from './brand-aliases.js';

/** A recall as CatalogueIndex.match reads it, worked out once for every catalogue row. */
export interface PreparedRecall {
  /** Its position among the recalls: rows found for one catalogue row are written in this order. */
  order: number;
  recall: Record<string, unknown>;
  codes: RecallCode[];
  noticeGtins: Set<string>;
  recallBrand: string;
  /** The brands it states as its own (noticeBrandCores: strong), and the halves of "A & B" (weak). */
  strong: string[];
  weak: string[];
  title: string | undefined;
  titleWords: string[];
  name: string;
  nameWords: string[];
  /** The model numbers it lists, long enough to compare: as written, their key and revision base. */
  models: NoticeModel[];
  noticeModels: Set<string>;
  /** The name its products are compared by (noticeProductName), and its words. */
  productName: string;
  tokens: Set<string>;
  /** The same with the English word of each Spanish one (glossary.ts): what a row's name is covered by. */
  glossed: ReadonlySet<string>;
  /** The brand field's own words, and the name words without them (productWords, read when a row needs them). */
  ownBrand: string;
  productTokens?: Set<string>;
  scope?: ScopeItem[];
  /** Its firms and the brands each recalls under (`match --learn`), in the order relatedBrands offers them. */
  aliases: { firm: string; core: string }[];
}

export function prepareRecall(recall: Record<string, unknown>, order: number, aliases?: AliasLookup): PreparedRecall {
  const codes = recallCodes(recall);
  const recallBrand = typeof recall.product_brand === 'string' ? recall.product_brand : '';
  const parts = brandParts(recallBrand);
  const title = typeof recall.alert_title === 'string' ? titleBrandText(recall.alert_title, recallBrand) : undefined;
  const ownName = noticeName(recall.product_name);
  const name = brandKey(ownName.slice(0, T.NAME_TEXT_LIMIT));
  const productName = noticeProductName(recall, ownName);
  const models = listedModels(recall);
  const noticeModels = modelKeysOf(models);
  const tokens = nameTokens(productName);
  return {
    order,
    recall,
    codes,
    noticeGtins: new Set(codes.map((c) => c.gtin14)),
    recallBrand,
    strong: noticeBrandCores(recall, parts),
    weak: parts.weak,
    title,
    titleWords: title === undefined ? [] : brandLookupWords(title),
    name,
    nameWords: brandLookupWords(name),
    models,
    noticeModels,
    productName,
    tokens,
    glossed: glossed(tokens),
    ownBrand: [...parts.strong, ...parts.weak].join(' '),
    aliases: aliases ? noticeAliases(aliases, recall) : [],
  };
}

/** The notice's scope, read the first time a row needs it. */
export function scopeOf(p: PreparedRecall): ScopeItem[] {
  p.scope ??= recallScope(p.recall);
  return p.scope;
}

/** Recalls by what a catalogue row can share with them; each list in recall order, each recall once. */
export class RecallIndex {
  readonly recalls: PreparedRecall[] = [];
  readonly byGtin = new Map<string, PreparedRecall[]>();
  readonly byModel = new Map<string, PreparedRecall[]>();
  readonly byBase = new Map<string, PreparedRecall[]>();
  /** A brand part (strong or weak) as written, or a brand its firm recalls under: a catalogue core equal to it. */
  readonly byPart = new Map<string, PreparedRecall[]>();
  /** A distinctive word of a strong part, of the title's brand text, or of the name: a core holding it. */
  readonly byBrandWord = new Map<string, PreparedRecall[]>();
  /** Every name word of every notice: a catalogue name sharing none is never compared by name. */
  readonly tokens = new Set<string>();

  /** `aliases`: the brands each firm recalls under, as `match --learn` learned them. */
  constructor(private readonly aliases?: AliasLookup) {}

  add(recall: Record<string, unknown>): void {
    const p = prepareRecall(recall, this.recalls.length, this.aliases);
    this.recalls.push(p);
    const once = (map: Map<string, PreparedRecall[]>, keys: Iterable<string>) => {
      for (const k of new Set(keys)) push(map, k, p);
    };
    once(this.byGtin, p.noticeGtins);
    once(
      this.byModel,
      p.models.map((m) => m.key),
    );
    once(
      this.byBase,
      p.models.flatMap((m) => (m.base === undefined ? [] : [m.base])),
    );
    once(this.byPart, [...p.weak, ...p.strong, ...p.aliases.map((a) => a.core)]);
    once(this.byBrandWord, [...p.strong.flatMap(distinctiveBrandTokens), ...p.titleWords, ...p.nameWords]);
    for (const t of p.glossed) this.tokens.add(t);
  }

  /** The recalls whose brand can relate to a catalogue brand core at all (a superset: brand-hits.ts decides). */
  brandCandidates(core: string): PreparedRecall[] {
    const found = new Set<PreparedRecall>(this.byPart.get(core));
    for (const w of distinctiveBrandTokens(core)) for (const p of this.byBrandWord.get(w) ?? []) found.add(p);
    return [...found].sort((a, b) => a.order - b.order);
  }
}

/** The notice's name words without its brand field's own, which never say a sibling: read once, when a row needs them. */
export function productWords(p: PreparedRecall): Set<string> {
  p.productTokens ??= nameTokens(p.productName, p.ownBrand);
  return p.productTokens;
}
