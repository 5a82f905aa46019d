// Reads one scope field: lot and date labels with their lists, ranges, bounds and tables, "all", and what it could not read.
import type { DateOrder, DateSpan, Span } from './scope-dates.js';
import { OPEN_END, OPEN_START, type ScopeItem } from './scope-items.js';
import {
  hasDigit,
  isCode,
  isQuantity,
  isWord,
  Phrases,
  prepared,
  type Tok,
  tokenize,
  wordsOf,
} from './scope-tokens.js';
import {
  AFTER_PREFIX,
  AFTER_SUFFIX,
  ALL_SCOPE,
  BEFORE_PREFIX,
  BEFORE_SUFFIX,
  BETWEEN,
  BETWEEN_AND,
  COMPLETE_LIST,
  DATE_FILLER,
  DATE_LABELS,
  type DateKind,
  LIST_JOINS,
  LOT_LABEL_TAIL,
  LOT_LABELS,
  NEGATIONS,
  OPEN_LIST,
  RANGE_WORDS,
} from './scope-words.js';

const LOTS = new Phrases(LOT_LABELS);
const DATES = new Phrases(DATE_LABELS);
const ALL = wordsOf(ALL_SCOPE);
const NEG = wordsOf(NEGATIONS);
const COMPLETE = wordsOf(COMPLETE_LIST);
const OPEN = wordsOf(OPEN_LIST);
const BEFORE = wordsOf(BEFORE_PREFIX);
const AFTER = wordsOf(AFTER_PREFIX);
const BEFORE_AFTER = wordsOf(BEFORE_SUFFIX);
const AFTER_AFTER = wordsOf(AFTER_SUFFIX);

/** An item before the reader adds its field. */
type Unplaced = ScopeItem extends infer T ? (T extends ScopeItem ? Omit<T, 'field'> : never) : never;

/** Words a table's header may hold between its lot label and its first row ("UPC Lot Number Manufacturing Date"). */
const HEADER_WORDS = new Set(
  (
    'upc|upcs|gtin|ean|sku|item|items|model|models|number|numbers|no|nos|date|dates|description|size|sizes|product|name|' +
    'code|codes|best|before|by|use|used|exp|expiry|expiration|manufacturing|manufacture|production|mfg|and|&|/|lot|' +
    'lots|batch|pack|packaging|format|weight|count|sell|if|de|du|et|und|y|mhd|ddm|dlc|charge|lote|fecha|(|)|:|-|,'
  ).split('|'),
);
/** Words before a code that make it an identifier of the product, not a lot: "model 1234", "UPC 0 11596 …". */
const IDENTIFIER_WORDS = new Set(
  (
    'model|models|modele|modeles|modell|modelo|item|items|ref|reference|references|sku|article|art|artikel|style|upc|' +
    'upcs|ean|gtin|gtins|isbn|asin|barcode|barcodes|code-barres|registration|est|establishment|plant|usda|phone|tel|' +
    'call|www|http|https|page|section|number|part|no|nr|#'
  ).split('|'),
);
/** Labels that are other words too ("fast charge 65W", "code 4B"): a number with a unit after them is a quantity. */
const AMBIGUOUS_LABEL = new Set(['charge', 'code', 'codes', 'coded', 'product', 'production', 'los']);
/** How far past the end of a list the rest of its sentence is checked for codes the list did not take. */
const TAIL = 15;
/** Words that may stand between a date label and its first date before the date counts as labelled but unsure. */
const LABEL_GAP = 6;
const SENTENCE_END = new Set(['.', '…', '...']);
/** Evidence quotes at most about this many characters of a list (the check cuts them further). */
const MAX_SPAN = 240;

/** A barcode written in groups ("0 11596 85161 7"): the index after it, or i when none starts there. */
function spacedCodeEnd(toks: readonly Tok[], i: number): number {
  let j = i;
  let digits = 0;
  while (j < toks.length && /^\d+$/.test((toks[j] as Tok).t) && digits < 15) digits += (toks[j++] as Tok).t.length;
  return j - i >= 2 && digits >= 8 && digits <= 14 ? j : i;
}

const YEAR = /^(?:19|20)\d\d$/;
const NUMERIC_RANGE = /^([a-z]*)(\d+)([a-z]*)$/;

/** A lot range "1001 to 1050", "L1001-L1050": both ends share their letters, and the numbers climb. */
export function lotRange(from: string, to: string): { from: string; to: string } | undefined {
  const a = NUMERIC_RANGE.exec(from);
  const b = NUMERIC_RANGE.exec(to);
  if (!a || !b || a[1] !== b[1] || a[3] !== b[3]) return undefined;
  return Number(a[2]) < Number(b[2]) ? { from, to } : undefined;
}

/** Reads one field's text into items; `quote(at, end)` gives the notice's own words for a folded span. */
export class ScopeReader {
  private readonly toks: Tok[];
  private readonly items: ScopeItem[] = [];
  /** Tokens a list, label or phrase has taken: what is left over is checked for scope the reader missed. */
  private readonly taken: Uint8Array;

  constructor(
    folded: string,
    private readonly field: string,
    order: DateOrder,
    private readonly quote: (at: number, end: number) => string,
    /** A field that holds nothing but scope (production_dates, an identifier line): leftover codes are lots. */
    private readonly scopeOnly: boolean,
  ) {
    this.toks = tokenize(prepared(folded), order);
    this.taken = new Uint8Array(this.toks.length);
  }

  read(): ScopeItem[] {
    const { toks } = this;
    let i = 0;
    while (i < toks.length) i = this.step(i);
    this.leftoverLots();
    return this.items;
  }

  private push(item: Unplaced) {
    this.items.push({ field: this.field, ...item } as ScopeItem);
  }

  /** The notice's words from token `from` to `to`; a long span keeps its label and its last words (lists run long). */
  private text(from: number, to: number): string {
    const a = this.toks[from];
    const b = this.toks[Math.min(to, this.toks.length - 1)];
    if (!a || !b) return '';
    if (b.end - a.at <= MAX_SPAN) return this.quote(a.at, b.end);
    return `${this.quote(a.at, a.end)} … ${this.quote(Math.max(a.end, b.end - MAX_SPAN / 2), b.end)}`;
  }

  private take(from: number, to: number) {
    this.taken.fill(1, from, to);
  }

  private unread(from: number, to: number, why: string) {
    this.push({ kind: 'unread', why, text: this.text(from, to), sure: false });
    this.take(from, to + 1);
  }

  /** One step of the walk from token i; returns where to go on. */
  private step(i: number): number {
    const { toks } = this;
    const tok = toks[i] as Tok;
    if (tok.date) return this.dates(i, i, unlabelledKind(toks, i), false);
    const complete = COMPLETE.at(toks, i);
    if (complete) {
      this.take(i, i + complete.length);
      return i + complete.length;
    }
    const neg = NEG.at(toks, i);
    if (neg) {
      this.unread(i, this.sentenceEnd(i), 'a limit the reader does not model');
      return i + neg.length;
    }
    const open = OPEN.at(toks, i);
    if (open && (this.scopeOnly || this.nearScope(i))) {
      this.unread(Math.max(0, i - 3), i + open.length - 1, 'the list goes on elsewhere');
      return i + open.length;
    }
    const all = ALL.at(toks, i);
    if (all) return this.all(i, all.length);
    const date = DATES.at(toks, i);
    const lot = LOTS.at(toks, i);
    // "lot code" is a lot label; "code date" a date label: the longer phrase decides.
    if (date && (!lot || date.length >= lot.length)) return this.dates(i + date.length, i, date.phrase.kind, true);
    if (lot) return this.lots(i, i + lot.length, lot.phrase.sure, !AMBIGUOUS_LABEL.has(lot.phrase.words[0] as string));
    return i + 1;
  }

  /** "All lots", or "all best before dates up to and including 30 June 2025" (a bound, not everything). */
  private all(i: number, length: number): number {
    const words = this.toks.slice(i, i + length).map((t) => t.t);
    const j = this.skip(i + length, DATE_FILLER);
    const dated = words.includes('dates') || words.includes('date') || words.includes('fechas');
    if (dated && (BEFORE.at(this.toks, j) || AFTER.at(this.toks, j) || this.toks[j]?.date)) {
      const kind: DateKind = words.includes('best')
        ? 'best-before'
        : words.includes('use')
          ? 'use-by'
          : words.some((w) => w.startsWith('expir'))
            ? 'expiry'
            : words.includes('production')
              ? 'production'
              : 'code-date';
      return this.dates(i + length, i, kind, true);
    }
    this.push({ kind: 'all-lots', text: this.text(i, i + length - 1), sure: true });
    this.take(i, i + length);
    return i + length;
  }

  private skip(j: number, set: ReadonlySet<string>): number {
    while (j < this.toks.length && set.has((this.toks[j] as Tok).t)) j++;
    return j;
  }

  private sentenceEnd(i: number): number {
    let j = i;
    while (j + 1 < this.toks.length && !SENTENCE_END.has((this.toks[j + 1] as Tok).t) && j - i < 40) j++;
    return j;
  }

  /** Whether a lot or date label stands in the few tokens before i. */
  private nearScope(i: number): boolean {
    for (let j = i - 1; j >= 0 && j >= i - 12; j--) {
      if (SENTENCE_END.has((this.toks[j] as Tok).t)) return false;
      if (LOTS.at(this.toks, j) || DATES.at(this.toks, j) || this.toks[j]?.date) return true;
    }
    return false;
  }

  /** A lot label at `start`, its values from `j`: a list, ranges, a table, or a pack size ("lot de 6"). */
  private lots(start: number, j: number, sure: boolean, plain: boolean): number {
    const { toks } = this;
    j = this.skip(j, LOT_LABEL_TAIL);
    // "lot de 6 bouteilles", "lot of 3", "vendu en lot 12 pots": a pack, not a batch. After "charge" (a batch in
    // German, a load or a fee in English and French) "65W" is a quantity; after "lot" or "batch", "2104A" a code.
    const counted = (k: number) => isQuantity(toks, k, !plain);
    if ((toks[j]?.t === 'de' || toks[j]?.t === 'of') && /^\d+$/.test(toks[j + 1]?.t ?? '')) return j + 2;
    if (counted(j)) return j + 1;
    const first = this.items.length;
    let k = j;
    while (k < toks.length) {
      const tok = toks[k] as Tok;
      if (LIST_JOINS.has(tok.t)) {
        k++;
        continue;
      }
      if (!isCode(tok) || counted(k) || LOTS.at(toks, k) || DATES.at(toks, k)) break;
      const text = this.text(start, k);
      // "1001 au 1050", "1001 through 1050", "L1 - L9".
      const to = toks[k + 2];
      if (RANGE_WORDS.has(toks[k + 1]?.t ?? '') && isCode(to) && !counted(k + 2)) {
        const range = lotRange(tok.t, to.t);
        if (!range) {
          this.unread(start, k + 2, 'a range of lots whose ends differ in form');
          return k + 3;
        }
        this.push({ kind: 'lot-range', ...range, text: this.text(start, k + 2), sure });
        k += 3;
        continue;
      }
      this.lotForms(tok.t, text, sure);
      // "Lot 2104 B": the letter may belong to the code.
      const next = toks[k + 1];
      if (isWord(next) && next.t.length <= 2 && !LIST_JOINS.has(next.t) && !RANGE_WORDS.has(next.t)) {
        this.push({ kind: 'lot', lot: tok.t + next.t, text: this.text(start, k + 1), sure });
        k++;
      }
      k++;
    }
    if (this.items.length === first) return this.table(start, j, sure);
    this.quoteWhole(first, start, k - 1);
    this.take(start, k);
    this.tail(start, k);
    return k;
  }

  /** Every item of one list quotes the whole list, label to last value: one piece of evidence, not a growing prefix each. */
  private quoteWhole(first: number, start: number, last: number) {
    const text = this.text(start, last);
    for (let n = first; n < this.items.length; n++) (this.items[n] as ScopeItem).text = text;
  }

  /** One listed code as every lot it may be: itself, the parts of "1234/1235", the range of "1001-1050". */
  private lotForms(code: string, text: string, sure: boolean) {
    this.push({ kind: 'lot', lot: code, text, sure });
    if (code.includes('/'))
      for (const part of code.split('/')) if (hasDigit(part)) this.push({ kind: 'lot', lot: part, text, sure });
    const dash = /^([a-z0-9]+)-([a-z0-9]+)$/.exec(code);
    const range = dash && lotRange(dash[1] as string, dash[2] as string);
    if (range) this.push({ kind: 'lot-range', ...range, text, sure });
  }

  /** "UPC Lot Number Manufacturing Date 850027975177 0515I1 09/2021 0130B2 01/2022 …": header words, then cells. */
  private table(start: number, j: number, sure: boolean): number {
    const { toks } = this;
    let k = j;
    let kind: DateKind = 'period';
    while (k < toks.length && k - j < 8 && !toks[k]?.date && HEADER_WORDS.has((toks[k] as Tok).t)) {
      const label = DATES.at(toks, k);
      if (label) kind = label.phrase.kind;
      k++;
    }
    const first = this.items.length;
    const cellsFrom = k;
    for (; k < toks.length; k++) {
      const tok = toks[k] as Tok;
      if (tok.date) {
        this.dateItems(tok.date, undefined, kind, this.text(start, k), sure && kind !== 'period');
        continue;
      }
      if (/^\d{8,14}$/.test(tok.t) || tok.t === ',' || tok.t === ';') continue;
      if (!isCode(tok) || isQuantity(toks, k) || tok.t.length < 3) break;
      this.push({ kind: 'lot', lot: tok.t, text: this.text(start, k), sure });
    }
    if (this.items.length === first || k === cellsFrom) {
      // A label with nothing read after it: prose ("the lot number is on the lid"), unless codes follow.
      this.tail(start, j - 1);
      return j;
    }
    this.take(start, k);
    this.tail(start, k);
    return k;
  }

  /**
   * The rest of the sentence after a list: a code there that the list did not take, and that is no date, quantity,
   * year or product identifier, may be more of the list ("Lots 1234, 1235 (carton) 1236"): the scope is unread.
   */
  private tail(start: number, k: number) {
    const { toks } = this;
    for (let j = k; j < toks.length && j < k + TAIL; j++) {
      const tok = toks[j] as Tok;
      if (SENTENCE_END.has(tok.t) || LOTS.at(toks, j) || DATES.at(toks, j)) return;
      const spaced = spacedCodeEnd(toks, j);
      if (spaced > j) {
        j = spaced - 1;
        continue;
      }
      if (tok.date || !isCode(tok) || isQuantity(toks, j) || YEAR.test(tok.t)) continue;
      if (
        /^\d{8,14}$/.test(tok.t) ||
        IDENTIFIER_WORDS.has(toks[j - 1]?.t ?? '') ||
        IDENTIFIER_WORDS.has(toks[j - 2]?.t ?? '')
      )
        continue;
      this.unread(start, j, 'a code after the list it may belong to');
      return;
    }
  }

  /** Dates from token j under a label at `start` (or unlabelled: start = j): lists, ranges, open bounds. */
  private dates(j: number, start: number, kind: DateKind, labelled: boolean): number {
    const { toks } = this;
    let sure = labelled;
    let between = false;
    let gap = 0;
    let k = j;
    // The words between the label and its first date.
    while (k < toks.length && !toks[k]?.date && labelled) {
      const t = (toks[k] as Tok).t;
      if (BETWEEN.has(t)) between = true;
      if (BEFORE.at(toks, k) || AFTER.at(toks, k)) break;
      if (SENTENCE_END.has(t) || LOTS.at(toks, k) || DATES.at(toks, k) || isCode(toks[k])) break;
      if (!DATE_FILLER.has(t)) {
        gap++;
        sure = false;
      }
      if (gap > LABEL_GAP) break;
      k++;
    }
    const first = this.items.length;
    while (k < toks.length) {
      const tok = toks[k] as Tok;
      if (LIST_JOINS.has(tok.t) && !(between && BETWEEN_AND.has(tok.t))) {
        k++;
        continue;
      }
      const before = BEFORE.at(toks, k);
      const after = before ? undefined : AFTER.at(toks, k);
      const bound = before ?? after;
      if (bound && toks[k + bound.length]?.date) {
        k += bound.length;
        const d = (toks[k] as Tok).date as DateSpan;
        this.dateItems(d, undefined, kind, this.text(start, k), sure, before ? 'before' : 'after');
        k++;
        continue;
      }
      if (!tok.date) break;
      const d = tok.date;
      const join = toks[k + 1]?.t ?? '';
      const end = toks[k + 2]?.date;
      if (end && (RANGE_WORDS.has(join) || (between && BETWEEN_AND.has(join)))) {
        this.dateItems(d, end, kind, this.text(start, k + 2), sure);
        between = false;
        k += 3;
        continue;
      }
      const older = BEFORE_AFTER.at(toks, k + 1);
      const newer = older ? undefined : AFTER_AFTER.at(toks, k + 1);
      const suffix = older ?? newer;
      this.dateItems(
        d,
        undefined,
        kind,
        this.text(start, k + (suffix?.length ?? 0)),
        sure,
        older ? 'before' : newer ? 'after' : undefined,
      );
      k += 1 + (suffix?.length ?? 0);
    }
    if (this.items.length === first) {
      // A label and no date: a mention ("the best before date is on the lid"), unless something date-like follows.
      if (labelled) this.labelWithout(start, k);
      return Math.max(k, start + 1);
    }
    this.quoteWhole(first, start, k - 1);
    this.take(start, k);
    if (labelled) this.tail(start, k);
    return k;
  }

  /** A date label whose value the reader could not take: digits right after it ("DDM 2025", "Best by 2/25") are unread. */
  private labelWithout(start: number, k: number) {
    for (let j = k; j < this.toks.length && j < k + 3; j++) {
      const tok = this.toks[j] as Tok;
      if (SENTENCE_END.has(tok.t)) return;
      if (hasDigit(tok.t) && !isQuantity(this.toks, j)) {
        this.unread(start, j, 'a date the reader does not know');
        return;
      }
    }
  }

  /** The items of one date or range, under each reading of its day and month. */
  private dateItems(
    d: DateSpan,
    end: DateSpan | undefined,
    kind: DateKind,
    text: string,
    sure: boolean,
    open?: 'before' | 'after',
  ) {
    const spans: Span[] = [];
    const readings: [Span, Span][] = end
      ? [[d, end], ...(d.alt || end.alt ? [[d.alt ?? d, end.alt ?? end] as [Span, Span]] : [])]
      : [[d, d], ...(d.alt ? [[d.alt, d.alt] as [Span, Span]] : [])];
    for (const [a, b] of readings) if (a.from <= b.to) spans.push({ from: a.from, to: b.to });
    // No reading runs forwards ("15/03 to 01/03"): each end on its own.
    if (spans.length === 0)
      for (const [a, b] of readings) spans.push({ from: a.from, to: a.to }, { from: b.from, to: b.to });
    for (const s of spans) {
      const from = open === 'before' ? OPEN_START : s.from;
      const to = open === 'after' ? OPEN_END : s.to;
      this.push({ kind: 'date', dateKind: kind, from, to, text, sure });
    }
  }

  /**
   * Codes no label took: in a field of scope only, an unlabelled lot list (a row's lot among them is in scope); in
   * prose, a mention (a row's lot among them is never excluded). Neither proves a row out.
   */
  private leftoverLots() {
    const { toks } = this;
    for (let j = 0; j < toks.length; j++) {
      const tok = toks[j] as Tok;
      const spaced = spacedCodeEnd(toks, j);
      if (spaced > j) {
        j = spaced - 1;
        continue;
      }
      if (this.taken[j] || !isCode(tok) || isQuantity(toks, j) || YEAR.test(tok.t) || tok.t.length < 2) continue;
      if (/^\d{8,14}$/.test(tok.t)) continue;
      if (IDENTIFIER_WORDS.has(toks[j - 1]?.t ?? '')) continue;
      const mention = !this.scopeOnly;
      for (const lot of tok.t.includes('/') ? [tok.t, ...tok.t.split('/').filter(hasDigit)] : [tok.t])
        this.push({ kind: 'lot', lot, text: this.text(j, j), sure: false, ...(mention && { mention }) });
    }
  }
}

/** A date with no label: after a barcode ("0 11596 85161 7= 11/1/2013 - 11/29/2013") a code date, else a period. */
function unlabelledKind(toks: readonly Tok[], i: number): DateKind {
  const prev = toks[i - 1]?.t ?? '';
  const before = toks[i - 2]?.t ?? '';
  if (prev === '=' || (prev === ':' && /^\d+$/.test(before)) || /^\d{6,}$/.test(prev)) return 'code-date';
  return 'period';
}
