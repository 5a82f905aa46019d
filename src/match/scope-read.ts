// Reads one scope field: lot labels with their lists, ranges and tables, "all", limits and open lists, then dates.
import type { ScopeItem } from './scope-items.js';
import { hasDigit, isCode, isQuantity, isWord, type Tok } from './scope-tokens.js';
import {
  CODE_DATE_LABELS,
  DATE_FILLER,
  type DateKind,
  LIST_JOINS,
  LOT_LABEL_TAIL,
  RANGE_WORDS,
} from './scope-words.js';
import {
  AFTER,
  ALL,
  AMBIGUOUS_LABEL,
  BEFORE,
  DATES,
  HEADER_WORDS,
  IDENTIFIER_WORDS,
  LOTS,
  lotRange,
  NEG,
  OPEN,
  SENTENCE_END,
  spacedCodeEnd,
  spacedRun,
  YEAR,
} from './scope-cursor.js';
import { DateReader, unlabelledKind } from './scope-read-dates.js';
import {
  afterLabel,
  completeEnd,
  everyLotsEnd,
  everyValueEnd,
  endingsRange,
  isInclusive,
  listGoesOn,
  openEndAt,
  pluralMark,
  unconsumed,
} from './scope-open.js';

export { lotRange } from './scope-cursor.js';

/** Reads one field's text into items; `quote(at, end)` gives the notice's own words for a folded span. */
export class ScopeReader extends DateReader {
  read(): ScopeItem[] {
    const { toks } = this;
    let i = 0;
    while (i < toks.length) i = this.step(i);
    // The net: words that say the scope is whole or open, left unread beside what was read.
    const open = this.items.some((it) => it.kind !== 'unread') && unconsumed(toks, this.taken);
    if (open) this.unread(open.from, open.to, 'words that say the scope is whole or open, not read');
    this.leftoverLots();
    return this.items;
  }

  /** Every lot ("Lot: All"), as sure as its words; `open` ("Lot: all sizes", "1234 to present"): unread. */
  private everyLot(start: number, end: number, sure: boolean, open = false): number {
    if (open) this.unread(start, end, 'lot words that may name every lot, or a range');
    else this.push({ kind: 'all-lots', text: this.text(start, end - 1), sure });
    this.take(start, end);
    return open ? end + 1 : end;
  }

  /** One step of the walk from token i; returns where to go on. */
  private step(i: number): number {
    const { toks } = this;
    const tok = toks[i] as Tok;
    if (tok.date) return this.dates(i, i, unlabelledKind(toks, i), false);
    const complete = completeEnd(toks, i);
    if (complete !== undefined) {
      this.take(i, complete);
      return complete;
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
    const every = everyLotsEnd(toks, i);
    if (every !== undefined) return this.everyLot(i, every, true);
    const date = DATES.at(toks, i);
    const lot = LOTS.at(toks, i);
    // "lot code" is a lot label; "code date" a date label: the longer phrase decides.
    if (date && (!lot || date.length >= lot.length)) {
      if (this.codeAfter(date.phrase.words, i + date.length)) return this.lots(i, i + date.length, true, true);
      return this.dates(i + date.length, i, date.phrase.kind, true);
    }
    if (lot) return this.lots(i, i + lot.length, lot.phrase.sure, !AMBIGUOUS_LABEL.has(lot.phrase.words[0] as string));
    // "Ch.-B.: alle": every value of a label the reader does not know, which may be every lot.
    const value = everyValueEnd(toks, i);
    if (value !== undefined) return this.everyLot(Math.max(0, i - 3), value - 1, false, true);
    return i + 1;
  }

  /** A label that names a code ("date code") followed by a code that is no date ("D23270"): read as a lot label. */
  private codeAfter(words: readonly string[], j: number): boolean {
    if (!CODE_DATE_LABELS.has(words.join(' '))) return false;
    const k = this.skip(j, LOT_LABEL_TAIL);
    // As under a plain lot label, "41441A" is a code, not 41441 amperes.
    return isCode(this.toks[k]) && !isQuantity(this.toks, k, false) && !YEAR.test((this.toks[k] as Tok).t);
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

  /** Whether a lot or date label stands in the few tokens before i. */
  private nearScope(i: number): boolean {
    for (let j = i - 1; j >= 0 && j >= i - 12; j--) {
      if (SENTENCE_END.has((this.toks[j] as Tok).t)) return false;
      if (LOTS.at(this.toks, j) || DATES.at(this.toks, j) || this.toks[j]?.date) return true;
    }
    return false;
  }

  /** A lot label at `start`, its values from `j`: a list, ranges, a table, every lot ("Lot: All"), or a pack ("lot de 6"). */
  private lots(start: number, j: number, sure: boolean, plain: boolean): number {
    const { toks } = this;
    j = this.skip(pluralMark(toks, this.skip(j, LOT_LABEL_TAIL)), LOT_LABEL_TAIL);
    const every = afterLabel(toks, j);
    if (every !== undefined) return this.everyLot(start, every === 'open' ? j : every, sure, every === 'open');
    // "lot de 6 bouteilles", "lot of 3", "vendu en lot 12 pots": a pack, not a batch. After "charge" (a batch in
    // German, a load or a fee in English and French) "65W" is a quantity; after "lot" or "batch", "2104A" a code.
    const counted = (k: number) => isQuantity(toks, k, !plain);
    if ((toks[j]?.t === 'de' || toks[j]?.t === 'of') && /^\d+$/.test(toks[j + 1]?.t ?? '')) return j + 2;
    if (counted(j)) return j + 1;
    const first = this.items.length;
    const values: string[] = [];
    let k = j;
    while (k < toks.length) {
      const tok = toks[k] as Tok;
      if (LIST_JOINS.has(tok.t)) {
        k++;
        continue;
      }
      if (!isCode(tok) || counted(k) || LOTS.at(toks, k) || DATES.at(toks, k)) break;
      values.push(tok.t);
      const text = this.text(start, k);
      // "Lot 1234 to present": every lot from one on, which no list holds.
      const openEnd = openEndAt(toks, k + 1) ?? 0;
      if (openEnd > 0) return this.everyLot(start, openEnd - 1, sure, true);
      // "1001 au 1050", "1001 through 1050", "L1 - L9", "Lot 1001 through Lot 1050", "1001 up to 1050".
      const end = this.rangeEnd(k);
      const to = end === undefined ? undefined : toks[end];
      if (end !== undefined && isCode(to) && !counted(end)) {
        const range = lotRange(tok.t, to.t);
        if (!range) {
          this.unread(start, end, 'a range of lots whose ends differ in form');
          return end + 1;
        }
        this.push({ kind: 'lot-range', ...range, text: this.text(start, end), sure });
        k = isInclusive(toks[end + 1]) ? end + 2 : end + 1;
        continue;
      }
      this.lotForms(tok.t, text, sure);
      // "lot code P864 4893 23241950": codes with only spaces between may be one code, read whole too.
      if (k - 1 >= j && isCode(toks[k - 1]) && !LIST_JOINS.has((toks[k - 1] as Tok).t))
        this.push({ kind: 'lot', lot: spacedRun(toks, j, k), text, sure });
      // "Lot 2104 B": the letter may belong to the code; before another code ("1234 do 1240") it may be a range's word.
      const next = toks[k + 1];
      const short = isWord(next) && next.t.length <= 2 && !LIST_JOINS.has(next.t) && !RANGE_WORDS.has(next.t);
      if (short && !isCode(toks[k + 2])) {
        this.push({ kind: 'lot', lot: tok.t + next.t, text: this.text(start, k + 1), sure });
        k++;
      }
      k++;
    }
    if (this.items.length === first) return this.table(start, j, sure);
    const on = listGoesOn(toks, k) ?? endingsRange(toks, j, k);
    if (on !== undefined) this.unread(start, on, 'a list that goes on in words or numerals the reader does not know');
    // "Lots 1234 & 1240 inclusive": the ends of a range, perhaps.
    if (isInclusive(toks[k])) return this.everyLot(start, k, sure, true);
    this.quoteWhole(first, start, k - 1);
    this.take(start, k);
    this.tail(start, k);
    // A lot shorter than two or more before it, all of one length ("4074, 4102, 4130, 41"), or at most half as long as
    // the one before it ("025093, 0").
    this.cutOff(start, k, values, (v, before) => {
      const length = before[0]?.length ?? 0;
      const same = before.every((b) => b.length === length);
      return same && v.length < length && (before.length >= 2 || v.length * 2 <= length);
    });
    return k;
  }

  /**
   * Where the other end of a range starting at the code at k stands: after a range word ("to", "au", "bis"; "up to",
   * "through to") and the lot label it may repeat ("Lot 1001 through Lot 1050", "lot 1001 au lot 1050").
   */
  private rangeEnd(k: number): number | undefined {
    const { toks } = this;
    // "1234 inclusive to 1240".
    let j = isInclusive(toks[k + 1]) && RANGE_WORDS.has(toks[k + 2]?.t ?? '') ? k + 2 : k + 1;
    const word = toks[j]?.t ?? '';
    if ((word === 'up' || word === 'through') && toks[j + 1]?.t === 'to') j++;
    else if (!RANGE_WORDS.has(word)) return undefined;
    j++;
    const label = LOTS.at(toks, j);
    return label ? this.skip(j + label.length, LOT_LABEL_TAIL) : j;
  }

  /** One listed code as every lot it may be: itself, the parts of "1234/1235", the range of "1001-1050". */
  private lotForms(code: string, text: string, sure: boolean) {
    this.push({ kind: 'lot', lot: code, text, sure });
    if (code.includes('/')) {
      const [head = '', ...parts] = code.split('/');
      for (const part of [head, ...parts]) if (hasDigit(part)) this.push({ kind: 'lot', lot: part, text, sure });
      // "1234/35/36": the later parts may write only the end of a lot that starts as the first does (1235, 1236).
      for (const part of parts)
        if (/^\d+$/.test(part) && part.length < head.length)
          this.push({ kind: 'lot', lot: head.slice(0, head.length - part.length) + part, text, sure });
    }
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
   * Codes no label took: in a field of scope only, an unlabelled lot list (a row's lot among them is in scope); in
   * prose, a mention (a row's lot among them is never excluded). Neither proves a row out. What it leaves (a quantity,
   * a year, a barcode) recallScope keeps quietly (writtenCodes in scope.ts).
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
