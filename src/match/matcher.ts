// Matches recalls against an indexed catalogue: barcode, model+brand (match), model, brand+name, unchecked barcode (possible); out of scope (excluded).
import { brandParts, distinctiveBrandTokens } from './brands.js';
import type { Catalogue } from './catalogue.js';
import { dateColumnOrders, rowBatch, rowCodes } from './catalogue-batch.js';
import { glossed } from './glossary.js';
import { modelKey, nameTokens, noticeProductName } from './match-keys.js';
import { nameTier } from './name-tier.js';
import { type NoticeItems, noticeItems } from './notice-items.js';
import { NameWeights } from './name-score.js';
import { type Match, RANK, type RejectedCode } from './match-levels.js';
import { describedModels, noticeModels as listedModels, modelKeysOf } from './notice-models.js';
import { barcodeFound, modelFound, NoticeBrandWords, revisionFound } from './code-tiers.js';
import { recallCodes } from './recall-codes.js';
import type { Learned } from './learned.js';
import { type AliasLookup, aliasLookup, noticeAliases } from './brand-aliases.js';
import { type Found, scopedMatches } from './scoped-matches.js';
import { type IndexedRow, push } from './indexed-row.js';
import { noticeBrandCores, relatedBrands } from './notice-brands.js';
import * as T from './match-thresholds.js';

export type { Match, MatchLevel, MatchReason, RejectedCode } from './match-levels.js';

/** The catalogue indexed several ways, so each recall costs a few map look-ups, never a scan. */
export class CatalogueIndex {
  private readonly byGtin = new Map<string, { indexed: IndexedRow; raw: string; valid: boolean }[]>();
  private readonly byModel = new Map<string, { indexed: IndexedRow; raw: string }[]>();
  /** brand core -> name token -> rows of that brand whose name has the token. */
  private readonly byBrandToken = new Map<string, Map<string, IndexedRow[]>>();
  /** brand core -> rows; distinctive brand word -> the cores holding it. */
  readonly byBrand = new Map<string, IndexedRow[]>();
  /** The halves of catalogue brands written "A & B": found only by a notice brand equal to one. */
  readonly byWeakBrand = new Map<string, IndexedRow[]>();
  /** Catalogue brand cores written "A & B": a shared word never ties them (their halves are often brands). */
  readonly ampersandCores = new Set<string>();
  readonly brandsByWord = new Map<string, Set<string>>();
  readonly rejected: RejectedCode[] = [];
  /** The lines of the rows a recall can match at all: a valid barcode, a model, or a brand and name words. */
  readonly matchable = new Set<number>();
  /** Name-word weights from the catalogue's own frequencies, and what `match --learn` measured of each word. */
  private readonly weights: NameWeights;
  private readonly learned: Learned | undefined;
  /** The brands each firm recalls under, as `match --learn` learned them. */
  private readonly aliases: AliasLookup | undefined;

  constructor(catalogue: Catalogue, opts: { learned?: Learned } = {}) {
    this.learned = opts.learned;
    this.aliases = aliasLookup(opts.learned?.aliases);
    this.weights = new NameWeights(opts.learned?.words);
    const { brand, model, name } = catalogue.columns;
    const orders = dateColumnOrders(catalogue);
    for (const row of catalogue.rows) {
      const brandText = brand === undefined ? '' : (row.values[brand] ?? '');
      const codes = rowCodes(catalogue, row);
      const parts = brandParts(brandText);
      if (parts.weak.length > 0) for (const core of parts.strong) this.ampersandCores.add(core);
      const indexed: IndexedRow = {
        row,
        brandText,
        brands: [...parts.strong, ...parts.weak],
        strong: parts.strong.length,
        tokens: new Set(),
        nameText: name === undefined ? '' : (row.values[name] ?? ''),
        batch: rowBatch(catalogue, row, codes.gs1, orders),
        gtins: codes.codes.flatMap((c) => (c.gtin14 === undefined ? [] : [c.gtin14])),
        modelKey: '',
      };
      for (const c of codes.codes) {
        if (c.gtin14 === undefined) {
          this.rejected.push({ line: row.line, value: c.raw, reason: c.reason ?? 'not a GTIN' });
          continue;
        }
        if (!c.valid)
          this.rejected.push({
            line: row.line,
            value: c.raw,
            reason: c.reason ?? 'wrong check digit',
            unchecked: true,
          });
        else this.matchable.add(row.line);
        push(this.byGtin, c.gtin14, { indexed, raw: c.raw, valid: c.valid });
      }
      const modelRaw = model === undefined ? '' : (row.values[model] ?? '');
      const key = modelKey(modelRaw);
      if (key.length >= T.MIN_MODEL_KEY) {
        indexed.modelKey = key;
        push(this.byModel, key, { indexed, raw: modelRaw });
        this.matchable.add(row.line);
      }
      for (const [i, core] of indexed.brands.entries()) {
        push(i < indexed.strong ? this.byBrand : this.byWeakBrand, core, indexed);
        if (i >= indexed.strong) continue;
        for (const w of distinctiveBrandTokens(core)) {
          const cores = this.brandsByWord.get(w) ?? new Set();
          cores.add(core);
          this.brandsByWord.set(w, cores);
        }
      }
      if (indexed.brands.length > 0 && name !== undefined) {
        indexed.tokens = nameTokens(row.values[name] ?? '', indexed.brands.join(' '));
        this.weights.add(indexed.tokens);
        for (const core of indexed.brands) {
          let tokens = this.byBrandToken.get(core);
          if (!tokens) {
            tokens = new Map();
            this.byBrandToken.set(core, tokens);
          }
          for (const t of indexed.tokens) push(tokens, t, indexed);
        }
        if (indexed.tokens.size > 0) this.matchable.add(row.line);
      }
    }
  }

  /**
   * Each catalogue row that touches the recall, once, at its best tier; best levels and tiers first, then by
   * row. `explain` fills each match's explain text (built only when asked: it costs more than the match).
   */
  match(recall: Record<string, unknown>, opts: { explain?: boolean } = {}): Match[] {
    const best = new Map<IndexedRow, Found>();
    const offer = (r: IndexedRow, found: Found) => {
      const had = best.get(r);
      if (had === undefined || RANK[found.reason] < RANK[had.reason]) best.set(r, found);
    };
    const noticeGtins = new Set<string>();
    for (const code of recallCodes(recall)) {
      noticeGtins.add(code.gtin14);
      for (const c of this.byGtin.get(code.gtin14) ?? []) {
        const found = barcodeFound(code, c);
        offer(c.indexed, found);
      }
    }
    const recallBrand = typeof recall.product_brand === 'string' ? recall.product_brand : '';
    // The brand field is parsed once per recall: the brand lookup, the name words and every row's checks share it.
    const recallParts = brandParts(recallBrand);
    const brands = relatedBrands(
      this,
      recall,
      recallBrand,
      { strong: noticeBrandCores(recall, recallParts), weak: recallParts.weak },
      this.aliases ? noticeAliases(this.aliases, recall) : [],
    );
    const brandOf = (r: IndexedRow) => {
      for (const core of r.brands) {
        const hit = brands.get(core);
        if (hit) return { core, hit };
      }
      return undefined;
    };
    const words = new NoticeBrandWords(recall, recallBrand);
    const listed = listedModels(recall);
    const noticeModels = modelKeysOf(listed);
    for (const { raw: m, key, base } of listed) {
      for (const c of this.byModel.get(key) ?? []) {
        const found = modelFound({ notice: m, key, row: c.raw }, c.indexed, brandOf(c.indexed), recallBrand, words);
        if (found) offer(c.indexed, found);
      }
      if (base === undefined) continue;
      for (const c of this.byModel.get(base) ?? []) {
        const found = revisionFound(m, c.raw, base);
        offer(c.indexed, found);
      }
    }
    if (brands.size > 0) {
      const recallName = noticeProductName(recall);
      const tokens = nameTokens(recallName);
      // What the row's name is covered by; its listed products keep the notice's own words (glossary.ts).
      const covering = glossed(tokens);
      const ownWords = nameTokens(recallName, [...recallParts.strong, ...recallParts.weak].join(' '));
      const seen = new Set<IndexedRow>();
      let items: NoticeItems | undefined;
      let described: Set<string> | undefined;
      const otherModel = (key: string) => {
        described ??= describedModels(recall, noticeModels);
        return described.size > 0 && !described.has(key);
      };
      for (const [core, hit] of brands) {
        // The catalogue row's name words leave out its brand; so do the notice's, when the brand came from its title
        // ("Ozark Trail Tabletop 1-Burner Butane Camping Stoves", brand field "China Window Industry").
        const own = new Set(core.split(' '));
        // Name words are stemmed ("stories" is "storie"): a brand word is matched in that form too.
        const besides = (t: string) => !own.has(t) && !own.has(`${t}s`);
        const noticeTokens = new Set([...covering].filter(besides));
        const productTokens = new Set([...ownWords].filter(besides));
        for (const t of noticeTokens)
          for (const r of this.byBrandToken.get(core)?.get(t) ?? []) {
            if (seen.has(r)) continue;
            seen.add(r);
            const found = nameTier({
              row: r,
              noticeTokens,
              productTokens,
              core,
              hit,
              recallBrand,
              weights: this.weights,
              noticeGtins,
              otherModel,
              noticeItems: () => {
                items ??= noticeItems(recallName, tokens, covering);
                return items;
              },
            });
            if (found) offer(r, found);
          }
      }
    }
    return best.size === 0 ? [] : scopedMatches(recall, best, opts.explain === true, this.learned);
  }
}
