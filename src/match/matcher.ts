// Matches recalls against an indexed catalogue: barcode, model+brand (match), model or brand+name (possible).
import { stringValues } from '../filters/record-filter.js';
import type { Catalogue, CatalogueRow } from './catalogue.js';
import { normalizeGtin } from './gtin.js';
import { brandKey, modelKey, nameTokens, tokenSimilarity } from './match-keys.js';

export type MatchLevel = 'match' | 'possible';
export type MatchReason = 'barcode' | 'model+brand' | 'model' | 'brand+name';

export interface Match {
  level: MatchLevel;
  reason: MatchReason;
  row: CatalogueRow;
}

export interface RejectedCode {
  line: number;
  value: string;
  reason: string;
}

/** Model keys shorter than this ("A", "12") would tie unrelated products together. */
const MIN_MODEL_KEY = 3;
/** Dice similarity of distinctive name words from which a same-brand product is a possible match. */
const NAME_SIMILARITY = 0.5;

const RANK: Record<MatchReason, number> = { barcode: 0, 'model+brand': 1, model: 2, 'brand+name': 3 };
const LEVEL: Record<MatchReason, MatchLevel> = {
  barcode: 'match',
  'model+brand': 'match',
  model: 'possible',
  'brand+name': 'possible',
};

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** The barcodes a recall names: identifier objects ({type, value}) or bare strings, valid GTINs only. */
export function recallGtins(recall: Record<string, unknown>): string[] {
  const out = new Set<string>();
  const ids = recall.standard_identifiers_and_barcodes;
  for (const id of Array.isArray(ids) ? ids : []) {
    const value =
      typeof id === 'string'
        ? id
        : typeof (id as { value?: unknown })?.value === 'string'
          ? (id as { value: string }).value
          : undefined;
    if (value === undefined) continue;
    const gtin = normalizeGtin(value);
    if (gtin.ok) out.add(gtin.gtin14);
  }
  return [...out];
}

interface IndexedRow {
  row: CatalogueRow;
  brand: string;
  tokens: Set<string>;
}

/** The catalogue indexed three ways, so each recall costs a few map look-ups, never a scan. */
export class CatalogueIndex {
  private readonly byGtin = new Map<string, CatalogueRow[]>();
  private readonly byModel = new Map<string, IndexedRow[]>();
  /** brand key -> name token -> rows of that brand whose name has the token. */
  private readonly byBrandToken = new Map<string, Map<string, IndexedRow[]>>();
  readonly rejected: RejectedCode[] = [];
  /** The lines of the rows a recall can match at all: indexed by barcode, model or brand and name. */
  readonly matchable = new Set<number>();

  constructor(catalogue: Catalogue) {
    const { gtin, brand, model, name } = catalogue.columns;
    for (const row of catalogue.rows) {
      const brandText = brand === undefined ? '' : (row.values[brand] ?? '');
      const indexed: IndexedRow = { row, brand: brandKey(brandText), tokens: new Set() };
      const code = gtin === undefined ? '' : (row.values[gtin] ?? '').trim();
      if (code !== '') {
        const result = normalizeGtin(code);
        if (result.ok) {
          push(this.byGtin, result.gtin14, row);
          this.matchable.add(row.line);
        } else this.rejected.push({ line: row.line, value: code, reason: result.reason });
      }
      const modelText = model === undefined ? '' : modelKey(row.values[model] ?? '');
      if (modelText.length >= MIN_MODEL_KEY) {
        push(this.byModel, modelText, indexed);
        this.matchable.add(row.line);
      }
      if (indexed.brand !== '' && name !== undefined) {
        indexed.tokens = nameTokens(row.values[name] ?? '', indexed.brand);
        let tokens = this.byBrandToken.get(indexed.brand);
        if (!tokens) {
          tokens = new Map();
          this.byBrandToken.set(indexed.brand, tokens);
        }
        for (const t of indexed.tokens) push(tokens, t, indexed);
        if (indexed.tokens.size > 0) this.matchable.add(row.line);
      }
    }
  }

  /** Each catalogue row that touches the recall, once, at its best tier; best tiers first, then by row. */
  match(recall: Record<string, unknown>): Match[] {
    const best = new Map<CatalogueRow, MatchReason>();
    const offer = (row: CatalogueRow, reason: MatchReason) => {
      const had = best.get(row);
      if (had === undefined || RANK[reason] < RANK[had]) best.set(row, reason);
    };
    for (const g of recallGtins(recall)) for (const row of this.byGtin.get(g) ?? []) offer(row, 'barcode');
    const recallBrand = brandKey(typeof recall.product_brand === 'string' ? recall.product_brand : '');
    for (const m of stringValues(recall.product_model_numbers)) {
      const key = modelKey(m);
      if (key.length < MIN_MODEL_KEY) continue;
      for (const r of this.byModel.get(key) ?? [])
        offer(r.row, recallBrand !== '' && r.brand === recallBrand ? 'model+brand' : 'model');
    }
    const sameBrand = recallBrand === '' ? undefined : this.byBrandToken.get(recallBrand);
    if (sameBrand) {
      const tokens = nameTokens(typeof recall.product_name === 'string' ? recall.product_name : '', recallBrand);
      const seen = new Set<IndexedRow>();
      for (const t of tokens) {
        for (const r of sameBrand.get(t) ?? []) {
          if (seen.has(r)) continue;
          seen.add(r);
          if (tokenSimilarity(tokens, r.tokens) >= NAME_SIMILARITY) offer(r.row, 'brand+name');
        }
      }
    }
    return [...best]
      .map(([row, reason]) => ({ level: LEVEL[reason], reason, row }))
      .sort((a, b) => RANK[a.reason] - RANK[b.reason] || a.row.line - b.row.line);
  }
}
