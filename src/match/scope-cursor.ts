// The walk every scope reader shares: the tokens of one field, the items read, what was taken, and quoting.
import type { DateOrder } from './scope-dates.js';
import type { ScopeItem } from './scope-items.js';
import { hasDigit, isCode, isQuantity, Phrases, type Sign, type Tok, tokenize, wordsOf } from './scope-tokens.js';
import {
  AFTER_PREFIX,
  AFTER_SUFFIX,
  ALL_SCOPE,
  BEFORE_PREFIX,
  BEFORE_SUFFIX,
  COMPLETE_LIST,
  DATE_LABELS,
  LIST_JOINS,
  LOT_LABELS,
  NEGATIONS,
  OPEN_LIST,
  RANGE_WORDS,
} from './scope-words.js';

export const LOTS = new Phrases(LOT_LABELS);
export const DATES = new Phrases(DATE_LABELS);
export const ALL = wordsOf(ALL_SCOPE);
export const NEG = wordsOf(NEGATIONS);
export const COMPLETE = wordsOf(COMPLETE_LIST);
export const OPEN = wordsOf(OPEN_LIST);
export const BEFORE = wordsOf(BEFORE_PREFIX);
export const AFTER = wordsOf(AFTER_PREFIX);
export const BEFORE_AFTER = wordsOf(BEFORE_SUFFIX);
export const AFTER_AFTER = wordsOf(AFTER_SUFFIX);

/** An item before the reader adds its field. */
export type Unplaced = ScopeItem extends infer T ? (T extends ScopeItem ? Omit<T, 'field'> : never) : never;

/** Words a table's header may hold between its lot label and its first row ("UPC Lot Number Manufacturing Date"). */
export const HEADER_WORDS = new Set(
  (
    'upc|upcs|gtin|ean|sku|item|items|model|models|number|numbers|no|nos|date|dates|description|size|sizes|product|name|' +
    'code|codes|best|before|by|use|used|exp|expiry|expiration|manufacturing|manufacture|production|mfg|and|&|/|lot|' +
    'lots|batch|pack|packaging|format|weight|count|sell|if|de|du|et|und|y|mhd|ddm|dlc|charge|lote|fecha|(|)|:|-|,'
  ).split('|'),
);
/** Words before a code that make it an identifier of the product, not a lot: "model 1234", "UPC 0 11596 …". */
export const IDENTIFIER_WORDS = new Set(
  (
    'model|models|modele|modeles|modell|modelo|item|items|ref|reference|references|sku|article|art|artikel|style|upc|' +
    'upcs|ean|gtin|gtins|isbn|asin|barcode|barcodes|code-barres|registration|est|establishment|plant|usda|phone|tel|' +
    'call|www|http|https|page|section|number|part|no|nr|#'
  ).split('|'),
);
/** Labels that are other words too ("fast charge 65W", "code 4B"): a number with a unit after them is a quantity. */
export const AMBIGUOUS_LABEL = new Set(['charge', 'code', 'codes', 'coded', 'product', 'production', 'los']);
/** How far past the end of a list the rest of its sentence is checked for codes the list did not take. */
export const TAIL = 15;
/** Words that may stand between a date label and its first date before the date counts as labelled but unsure. */
export const LABEL_GAP = 6;
export const SENTENCE_END = new Set(['.', '…', '...']);
/** Evidence quotes at most about this many characters of a list (the check cuts them further). */
export const MAX_SPAN = 240;

/** A barcode written in groups ("0 11596 85161 7"): the index after it, or i when none starts there. */
export function spacedCodeEnd(toks: readonly Tok[], i: number): number {
  let j = i;
  let digits = 0;
  while (j < toks.length && /^\d+$/.test((toks[j] as Tok).t) && digits < 15) digits += (toks[j++] as Tok).t.length;
  return j - i >= 2 && digits >= 8 && digits <= 14 ? j : i;
}

/** A code written in more parts than this ("P864 4893 23241950" is three) is a list of codes, not one. */
const MAX_SPACED_PARTS = 6;

/**
 * The codes of a run that only spaces part, from the run's first (not before `from`, nor more than MAX_SPACED_PARTS
 * back: a list of thousands of lots costs no more than one of six) to token k, written as one.
 */
export function spacedRun(toks: readonly Tok[], from: number, k: number): string {
  let i = k;
  const first = Math.max(from, k - MAX_SPACED_PARTS + 1);
  while (i - 1 >= first && isCode(toks[i - 1]) && !LIST_JOINS.has((toks[i - 1] as Tok).t)) i--;
  return toks
    .slice(i, k + 1)
    .map((t) => t.t)
    .join('');
}

export const YEAR = /^(?:19|20)\d\d$/;
const NUMERIC_RANGE = /^([a-z]*)(\d+)([a-z]*)$/;

/** A lot range "1001 to 1050", "L1001-L1050": both ends share their letters, and the numbers climb. */
export function lotRange(from: string, to: string): { from: string; to: string } | undefined {
  const a = NUMERIC_RANGE.exec(from);
  const b = NUMERIC_RANGE.exec(to);
  if (!a || !b || a[1] !== b[1] || a[3] !== b[3]) return undefined;
  return Number(a[2]) < Number(b[2]) ? { from, to } : undefined;
}

/** Joins a list may end on before the word that stops it. */
const LIST_JOIN_PUNCT = new Set([',', ';', '/', '&', '+', '-', 'and', 'et', 'und', 'y', 'or', 'ou']);

/** One field's tokens and the items read from them; the readers of lots and dates extend it. */
export class ScopeCursor {
  protected readonly toks: Tok[];
  protected readonly items: ScopeItem[] = [];
  /** Tokens a list, label or phrase has taken: what is left over is checked for scope the reader missed. */
  protected readonly taken: Uint8Array;
  /** Signs no token took ("≤", ">", "~", "*"): beside a code or a date, the field is not read whole. */
  private readonly signs: Sign[] = [];

  constructor(
    /** The field's text as prepared() makes it. */
    reading: string,
    protected readonly field: string,
    order: DateOrder,
    protected readonly quote: (at: number, end: number) => string,
    /** A field that holds nothing but scope (production_dates, an identifier line): leftover codes are lots. */
    protected readonly scopeOnly: boolean,
    /** The field is as long as a store's limit and ends mid-sentence: it may have been cut there. */
    protected readonly mayBeCut = false,
  ) {
    this.toks = tokenize(reading, order, this.signs);
    this.taken = new Uint8Array(this.toks.length);
  }
  /**
   * A sign the tokens leave out beside a code or a date ("≤ 30.06.2025", "1234 > 1240", "L2401*", "1234 〰 1240") may
   * bound, join or widen it, which nothing read: the field is then not read whole (one unread item, the first such sign).
   */
  signsUnread(): ScopeItem[] {
    const { toks } = this;
    const digits = (j: number) => toks[j] !== undefined && hasDigit((toks[j] as Tok).t);
    const near = (s: Sign) => {
      for (let j = s.next - 1; j >= s.next - 2 && j >= 0 && !SENTENCE_END.has((toks[j] as Tok).t); j--)
        if (digits(j)) return true;
      for (let j = s.next; j <= s.next + 1 && j < toks.length && !SENTENCE_END.has((toks[j] as Tok).t); j++)
        if (digits(j)) return true;
      return false;
    };
    const sign = this.signs.find(near);
    if (sign === undefined) return [];
    // The sign with a token on each side, two after it when the first is no code ("<= 30.06.2025").
    const inSentence = (j: number) => toks[j] !== undefined && !SENTENCE_END.has((toks[j] as Tok).t);
    const last = inSentence(sign.next + 1) && !digits(sign.next) ? sign.next + 1 : sign.next;
    const from = inSentence(sign.next - 1) ? (toks[sign.next - 1] as Tok).at : sign.at;
    const to = inSentence(last) ? (toks[last] as Tok).end : sign.at + 1;
    const why = 'a sign the reader does not read, beside a code or a date';
    return [{ kind: 'unread', why, field: this.field, text: this.quote(from, to), sure: false }];
  }
  protected push(item: Unplaced) {
    this.items.push({ field: this.field, ...item } as ScopeItem);
  }
  /** The notice's words from token `from` to `to`; a long span keeps its label and its last words (lists run long). */
  protected text(from: number, to: number): string {
    const a = this.toks[from];
    const b = this.toks[Math.min(to, this.toks.length - 1)];
    if (!a || !b) return '';
    if (b.end - a.at <= MAX_SPAN) return this.quote(a.at, b.end);
    return `${this.quote(a.at, a.end)} … ${this.quote(Math.max(a.end, b.end - MAX_SPAN / 2), b.end)}`;
  }
  protected take(from: number, to: number) {
    this.taken.fill(1, from, to);
  }
  /**
   * A list that runs to the end of its field may have been cut there (a store that keeps 255 characters): it is, when
   * the field is as long as such a limit, when the list ends on a join ("4074, 4102,"), or when its last value is
   * `cut` beside the ones before it ("4074, 4102, 4130, 41"; "03/18/2026, 03/20/20"). What such a list leaves out
   * is not proven.
   */
  protected cutOff(
    start: number,
    k: number,
    values: readonly string[],
    cut: (last: string, before: string[]) => boolean,
  ) {
    if (k < this.toks.length) return;
    const last = this.toks[k - 1];
    const value = values.at(-1);
    const shorter = value !== undefined && values.length >= 2 && cut(value, values.slice(0, -1));
    if (this.mayBeCut || (last !== undefined && LIST_JOINS.has(last.t)) || shorter)
      this.unread(start, k - 1, 'a list that may be cut off at the end of its field');
  }
  protected unread(from: number, to: number, why: string) {
    this.push({ kind: 'unread', why, text: this.text(from, to), sure: false });
    this.take(from, to + 1);
  }
  protected skip(j: number, set: ReadonlySet<string>): number {
    while (j < this.toks.length && set.has((this.toks[j] as Tok).t)) j++;
    return j;
  }
  protected sentenceEnd(i: number): number {
    let j = i;
    while (j + 1 < this.toks.length && !SENTENCE_END.has((this.toks[j + 1] as Tok).t) && j - i < 40) j++;
    return j;
  }
  /** Every item of one list quotes the whole list, label to last value: one piece of evidence, not a growing prefix each. */
  protected quoteWhole(first: number, start: number, end: number) {
    // The list's last value, not the join after it ("Lot 115705," quotes "Lot 115705").
    let last = end;
    while (last > start && LIST_JOIN_PUNCT.has((this.toks[last] as Tok).t)) last--;
    const text = this.text(start, last);
    for (let n = first; n < this.items.length; n++) (this.items[n] as ScopeItem).text = text;
  }
  /**
   * The rest of the sentence after a list: a code there that the list did not take, and that is no date, quantity,
   * year or product identifier, may be more of the list ("Lots 1234, 1235 (carton) 1236"). It is a lot the notice may
   * name (a row with it is never excluded), unless it may start a range ("1236 - 1240") or, after dates, be a date
   * written as digits ("EXP 12/2025 (case) 1225"): then the scope is unread. Sulu's "“LOT: 08012024-7895 EXP:
   * 07/2026,” “07192023-4502 EXP: 12/2024”" names a lot without its label; other lots are still proved out.
   */
  protected tail(start: number, k: number, dated = false) {
    const { toks } = this;
    // The list took the join of "1234 and prior" as its own: the bound starts there.
    const from = k > start && LIST_JOINS.has((toks[k - 1] as Tok).t) ? k - 1 : k;
    for (let j = from; j < toks.length && j < k + TAIL; j++) {
      const tok = toks[j] as Tok;
      if (SENTENCE_END.has(tok.t) || LOTS.at(toks, j) || DATES.at(toks, j) || NEG.at(toks, j)) return;
      // "… 2025 (and prior)": a bound the list did not take may widen it; what it leaves out is not proven.
      if (BEFORE_AFTER.at(toks, j) || AFTER_AFTER.at(toks, j)) {
        this.unread(start, j + 1, 'a bound after the list it may belong to');
        return;
      }
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
      if (RANGE_WORDS.has(toks[j + 1]?.t ?? '') || (dated && /^\d{3,8}$/.test(tok.t))) {
        this.unread(start, j, 'a code after the list it may belong to');
        return;
      }
      this.push({ kind: 'lot', lot: tok.t, text: this.text(start, j), sure: false, mention: true });
      this.take(j, j + 1);
    }
  }
}
