// The first pass over a streamed catalogue: what matching needs of the whole file, counted for the recalls at hand.
import type { CoreFacts } from './brand-hits.js';
import { brandParts } from './brands.js';
import { rowCodes } from './catalogue-batch.js';
import { type ColumnMap, roleHeaders } from './catalogue-columns.js';
import { CsvRow } from './catalogue-csv-stream.js';
import { RowSpans } from './catalogue-spans.js';
import { type CatalogueRow, cellOf } from './catalogue.js';
import type { RejectedCode } from './match-levels.js';
import { forEachNameWord, modelKey, nameTokens } from './match-keys.js';
import type { RecallIndex } from './recall-index.js';
import { type DateOrder, orderSeenIn, seenOrder } from './scope-dates.js';
import * as T from './match-thresholds.js';

/** A brand cell read once for every row that has it. */
export interface RowBrands {
  strong: string[];
  weak: string[];
  /** Strong cores, then weak ones (as IndexedRow.brands). */
  brands: string[];
  /** `brands` joined: the words a row's name words leave out. */
  words: string;
  /** Whether any recall can relate to one of them (a superset of those that do). */
  relevant: boolean;
}

const someIn = (tokens: ReadonlySet<string>, shared: ReadonlySet<string>) => {
  for (const t of tokens) if (shared.has(t)) return true;
  return false;
};

/** Rejected codes kept to list; the rest are counted. */
export const REJECTED_KEPT = 21;

/** A bounded memo: a catalogue repeats its brands, and a cache that outgrew this starts again. */
export function boundedMemo<V>(compute: (key: string) => V, limit = 50_000): (key: string) => V {
  const cache = new Map<string, V>();
  return (key) => {
    let v = cache.get(key);
    if (v === undefined) {
      v = compute(key);
      if (cache.size >= limit) cache.clear();
      cache.set(key, v);
    }
    return v;
  };
}

/**
 * Counts over the whole catalogue. Name-word weights need each word's document frequency, but only for words a
 * row that can be weighed holds: every notice word, and the words of each row that shares a brand and a word with
 * a notice (`late`: from its line on; the match pass counts the rows before it).
 */
export class CatalogueCensus {
  rows = 0;
  readonly rejected: RejectedCode[] = [];
  rejectedTotal = 0;
  uncheckedTotal = 0;
  /** What each date column's cells show of its day/month order, by header. */
  private readonly seen = new Map<string, { dayFirst: boolean; monthFirst: boolean }>();
  /** The strong cores any recall can relate to, with what the whole catalogue says of them. */
  readonly facts = new Map<string, CoreFacts>();
  readonly df = new Map<string, number>();
  /** Rows with name words (the weights' N). */
  named = 0;
  /** Words first needed at a line, counted in this pass from there on. */
  readonly late = new Map<string, number>();
  lastLate = 0;
  /**
   * The rows the match pass reads: every row before `lastLate` (their words are counted there), and after it each row
   * a recall may touch (a brand some recall can relate to, or a barcode or model key one lists). Not usable when the
   * rows came without their bytes: then it reads them all.
   */
  readonly spans = new RowSpans();
  private firstRowAt = 0;
  readonly relevant: (core: string) => boolean;
  /** A brand cell's cores, as the index keeps them, and those any recall can relate to. */
  readonly brandsOf: (text: string) => RowBrands;

  constructor(
    private readonly columns: ColumnMap,
    private readonly index: RecallIndex,
  ) {
    this.relevant = boundedMemo((core) => index.brandCandidates(core).length > 0);
    this.brandsOf = boundedMemo((text) => {
      const { strong, weak } = brandParts(text);
      const brands = [...strong, ...weak];
      return { strong, weak, brands, words: brands.join(' '), relevant: brands.some(this.relevant) };
    });
  }

  /** The order of each date column, from its own cells (one that shows none is read both ways). */
  get orders(): Record<string, DateOrder> {
    return Object.fromEntries([...this.seen].map(([header, seen]) => [header, seenOrder(seen)]));
  }

  add(row: CatalogueRow): void {
    this.rows++;
    const { brand, model } = this.columns;
    const at = row instanceof CsvRow && row.start >= 0 ? row : undefined;
    if (!at) this.spans.usable = false;
    else if (this.rows === 1) {
      this.firstRowAt = at.start;
      this.spans.header(at.start);
    }
    const { codes } = rowCodes({ columns: this.columns }, row);
    for (const c of codes) {
      if (c.gtin14 !== undefined && c.valid) continue;
      const unchecked = c.gtin14 !== undefined;
      if (unchecked) this.uncheckedTotal++;
      else this.rejectedTotal++;
      if (this.rejected.length < REJECTED_KEPT)
        this.rejected.push({
          line: row.line,
          value: c.raw,
          reason: c.reason ?? (unchecked ? 'wrong check digit' : 'not a GTIN'),
          ...(unchecked && { unchecked: true }),
        });
    }
    for (const header of roleHeaders(this.columns, 'best_before')) {
      const seen = this.seen.get(header) ?? { dayFirst: false, monthFirst: false };
      this.seen.set(header, seen);
      orderSeenIn(cellOf(row, header), seen);
    }
    const parts = this.brandsOf(brand === undefined ? '' : cellOf(row, brand));
    if (parts.relevant)
      for (const core of parts.strong) {
        if (!this.relevant(core)) continue;
        const facts = this.facts.get(core) ?? { amp: false, first: this.facts.size };
        this.facts.set(core, facts);
        if (parts.weak.length > 0) facts.amp = true;
      }
    this.countWords(row, parts, at);
    if (at && (parts.relevant || this.touches(codes, model === undefined ? '' : cellOf(row, model))))
      this.spans.add(row.line, at.start, at.end);
  }

  /** Whether a recall lists one of the row's barcodes or its model key (as the match pass looks them up). */
  private touches(codes: readonly { gtin14?: string }[], modelRaw: string): boolean {
    const { byGtin, byModel, byBase } = this.index;
    if (codes.some((c) => c.gtin14 !== undefined && byGtin.has(c.gtin14))) return true;
    const key = modelRaw === '' ? '' : modelKey(modelRaw);
    return key.length >= T.MIN_MODEL_KEY && (byModel.has(key) || byBase.has(key));
  }

  private countWords(row: CatalogueRow, parts: RowBrands, at: CsvRow | undefined): void {
    const { name } = this.columns;
    if (parts.brands.length === 0 || name === undefined) return;
    if (!parts.relevant && this.late.size === 0) {
      this.countShared(cellOf(row, name), parts.words);
      return;
    }
    const tokens = nameTokens(cellOf(row, name), parts.words);
    if (tokens.size === 0) return;
    this.named++;
    const shared = this.index.tokens;
    if (parts.relevant && someIn(tokens, shared))
      for (const t of tokens)
        if (!shared.has(t) && !this.late.has(t)) {
          this.late.set(t, row.line);
          if (this.lastLate !== row.line && at) {
            // Every row before this one is read again: one run replaces the rows kept so far.
            this.spans.keepHeader();
            this.spans.addRun(this.firstRowAt, at.start, row.line - 1);
          }
          this.lastLate = row.line;
        }
    const late = this.late.size > 0;
    for (const t of tokens) if (shared.has(t) || (late && this.late.has(t))) this.df.set(t, (this.df.get(t) ?? 0) + 1);
  }

  /** countWords for a row no recall relates to while no word is counted late: the notice words it has, once each. */
  private countShared(name: string, brandWords: string): void {
    const shared = this.index.tokens;
    let named = false;
    const counted: string[] = [];
    forEachNameWord(name, brandWords, (t) => {
      named = true;
      if (!shared.has(t) || counted.includes(t)) return;
      counted.push(t);
      this.df.set(t, (this.df.get(t) ?? 0) + 1);
    });
    if (named) this.named++;
  }

  /** The match pass's share of the count: a row before the line a word was first needed at. */
  addEarly(line: number, tokens: ReadonlySet<string>): void {
    for (const t of tokens) {
      const from = this.late.get(t);
      if (from !== undefined && line < from) this.df.set(t, (this.df.get(t) ?? 0) + 1);
    }
  }
}
