// Reads the dates of a scope field: under a label or not, lists, ranges, open bounds, each reading of day and month.
import { type DateSpan, isYearless, type Span } from './scope-dates.js';
import { OPEN_END, OPEN_START } from './scope-items.js';
import { afterLabel, isEvery, isInclusive, openEndAt } from './scope-open.js';
import { hasDigit, isCode, isQuantity, type Tok } from './scope-tokens.js';
import { BETWEEN, BETWEEN_AND, DATE_FILLER, type DateKind, LIST_JOINS, RANGE_WORDS } from './scope-words.js';
import {
  AFTER,
  AFTER_AFTER,
  ALL,
  BEFORE,
  BEFORE_AFTER,
  DATES,
  LABEL_GAP,
  LOTS,
  SENTENCE_END,
  ScopeCursor,
} from './scope-cursor.js';

/**
 * Labels of the dates a pack carries: what follows them unread may hide a row's date. A sale or production label
 * ("sold via AliExpress (2611-0085)") is never compared with a row's date, so what it leaves unread proves nothing.
 */
const PACK_LIKE = new Set<DateKind>(['best-before', 'use-by', 'expiry', 'sell-by', 'code-date']);

/** A year written with its four digits. */
const FULL_YEAR = /(?<!\d)\d{4}(?!\d)/;

const words = (list: string) => new Set(list.split('|'));
/** What joins a bound to its date ("and earlier", "& prior", "or any later date"). */
const BOUND_JOINS = words('and|or|&|et|ou|und|oder|y|o');
/** Words between the join and the bound's side: "and all", "or any", "and anything", "and all expiry dates". */
const BOUND_FILLER = words(
  'all|any|anything|every|the|alle|tous|toutes|todos|todas|les|las|los|date|dates|fechas|daten',
);
const BEFORE_SIDE = words(
  'prior|earlier|before|older|previous|preceding|sooner|anterieures|anterieurs|anterieure|precedentes|fruher|frueher|' +
    'fruheren|frueheren|davor|alter|aelter|alteren|aelteren|vorherigen|anteriores|anterior|previas|previos',
);
const AFTER_SIDE = words(
  'later|after|newer|subsequent|posterieures|posterieurs|ulterieures|spater|spaeter|spateren|spaeteren|danach|posteriores',
);
/** Words after the side a bound may end on: "prior to this", "before it", "earlier dates". */
const BOUND_TRAILING = words('this|it|that|these|those|date|dates|one|ones|ceci|cela|fechas|daten');

/** A bound written after a date ("or prior", "and later") starting at token i: its length and open side. */
function boundAfter(toks: readonly Tok[], i: number): { length: number; open: 'before' | 'after' } | undefined {
  const older = BEFORE_AFTER.at(toks, i);
  if (older) return { length: older.length, open: 'before' };
  const newer = AFTER_AFTER.at(toks, i);
  if (newer) return { length: newer.length, open: 'after' };
  // In other words: "and all earlier dates", "or any earlier date", "and all expiry dates before", "and anything earlier".
  if (!BOUND_JOINS.has(toks[i]?.t ?? '')) return undefined;
  let k = i + 1;
  for (let n = 0; n < 4 && k < toks.length; n++) {
    const label = DATES.at(toks, k);
    if (label) k += label.length;
    else if (BOUND_FILLER.has((toks[k] as Tok).t) && !toks[k]?.date) k++;
    else break;
  }
  const side = toks[k]?.t ?? '';
  const open = BEFORE_SIDE.has(side) ? 'before' : AFTER_SIDE.has(side) ? 'after' : undefined;
  if (open === undefined || toks[k]?.date) return undefined;
  k++;
  if (toks[k]?.t === 'to' && BOUND_TRAILING.has(toks[k + 1]?.t ?? '')) k++;
  const trailing = DATES.at(toks, k);
  if (trailing) k += trailing.length;
  else if (BOUND_TRAILING.has(toks[k]?.t ?? '') && !toks[k]?.date) k++;
  // "and before 15/07/2025" bounds that date, not this one.
  if (toks[k]?.date || toks[k - 1]?.t === 'to') return undefined;
  return { length: k - i, open };
}

export class DateReader extends ScopeCursor {
  /** Dates from token j under a label at `start` (or unlabelled: start = j): lists, ranges, open bounds. */
  protected dates(j: number, start: number, kind: DateKind, labelled: boolean): number {
    const { toks } = this;
    let sure = labelled;
    let between = false;
    let gap = 0;
    let k = j;
    // The words between the label and its first date.
    while (k < toks.length && !toks[k]?.date && labelled) {
      const t = (toks[k] as Tok).t;
      // "Best before: any date", "DLC : toutes", "MHD: alle": every date ("all dates" is the step's, as anywhere). Only
      // a pack's dates prove a row out: "sold all over the UK" is no scope.
      if (gap === 0 && isEvery(toks[k]) && PACK_LIKE.has(kind)) {
        // "Best before: all dates up to 30/06/2025": the label's bound.
        const all = ALL.at(toks, k);
        const next = all ? this.skip(k + all.length, DATE_FILLER) : k;
        if (all && (BEFORE.at(toks, next) || AFTER.at(toks, next) || toks[next]?.date)) {
          k = next;
          continue;
        }
        const every = afterLabel(toks, k, true);
        if (every === undefined) break;
        if (every === 'open') {
          this.unread(start, k, 'date words that may name every date');
          return k + 1;
        }
        this.push({ kind: 'all-lots', text: this.text(start, every - 1), sure: true });
        this.take(start, every);
        return every;
      }
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
        // "from 03/21/24 through 05/09/24" is one range, not two open bounds: the date itself is read below.
        if (after && RANGE_WORDS.has(toks[k + 1]?.t ?? '') && toks[k + 2]?.date) continue;
        const d = (toks[k] as Tok).date as DateSpan;
        this.dateItems(d, undefined, kind, this.text(start, k), sure, before ? 'before' : 'after');
        k++;
        // "from 01.06.2025 to date" is the same bound; "up to 30/06/2025 inclusive" too.
        if (after) k = openEndAt(toks, k) ?? k;
        if (isInclusive(toks[k])) k++;
        continue;
      }
      if (!tok.date) break;
      const d = tok.date;
      const join = toks[k + 1]?.t ?? '';
      const end = toks[k + 2]?.date;
      if (end && (RANGE_WORDS.has(join) || (between && BETWEEN_AND.has(join)))) {
        this.dateItems(d, end, kind, this.text(start, k + 2), sure);
        between = false;
        k += isInclusive(toks[k + 3]) ? 4 : 3;
        continue;
      }
      // "01.06.2025 to date", "Lot … 01/06/2025 - present": from that date on.
      const openEnd = openEndAt(toks, k + 1);
      if (openEnd !== undefined) {
        this.dateItems(d, undefined, kind, this.text(start, openEnd - 1), sure, 'after');
        k = openEnd;
        continue;
      }
      // The bound may follow a comma: FSIS writes "best by dates of December 11, 2025, and prior".
      const comma = toks[k + 1]?.t === ',' && boundAfter(toks, k + 2) !== undefined;
      const at = comma ? k + 2 : k + 1;
      const suffix = boundAfter(toks, at);
      const next = suffix ? at + suffix.length : k + 1;
      // "15/06/2025 & 20/06/2025 inclusive" may name a range's two ends: not read whole.
      if (!suffix && isInclusive(toks[next]) && this.items.length > first) {
        this.unread(start, next, 'dates that may be the ends of a range');
        return next + 1;
      }
      this.dateItems(d, undefined, kind, this.text(start, next - 1), sure, suffix?.open);
      k = isInclusive(toks[next]) ? next + 1 : next;
    }
    if (this.items.length === first) {
      // A label and no date: a mention ("the best before date is on the lid"), unless something date-like follows.
      if (labelled && PACK_LIKE.has(kind)) this.labelWithout(start, k);
      return Math.max(k, start + 1);
    }
    this.quoteWhole(first, start, k - 1);
    this.take(start, k);
    if (labelled && PACK_LIKE.has(kind)) this.tail(start, k, true);
    // A date whose year is cut to two digits after dates that write all four: "03/18/2026, 03/20/20".
    const written = toks.slice(j, k).flatMap((t) => (t.date ? [t.t] : []));
    this.cutOff(start, k, written, (v, before) => !FULL_YEAR.test(v) && before.every((b) => FULL_YEAR.test(b)));
    return k;
  }
  /** A date label whose value the reader could not take: digits right after it ("DDM 2025", "Best by 2/25") are unread. */
  protected labelWithout(start: number, k: number) {
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
  protected dateItems(
    d: DateSpan,
    end: DateSpan | undefined,
    kind: DateKind,
    text: string,
    sure: boolean,
    open?: 'before' | 'after',
  ) {
    // "21 FEB" with no year: no bound can be drawn from it (which year's?); beside a dated end it takes that year.
    if ((isYearless(d) || (end && isYearless(end))) && open) {
      this.push({ kind: 'unread', why: 'a bound on a date with no year', text, sure: false });
      return;
    }
    if (end && isYearless(d) !== isYearless(end)) {
      [d, end] = isYearless(d) ? [withYearOf(d, end, -1), end] : [d, withYearOf(end, d, 1)];
    }
    const spans: Span[] = [];
    const readings: [Span, Span][] = [[d, end ?? d]];
    // The other order of day and month, at either end ("13/04 - 04/05" has one); a year read first only at both.
    if (d.alt || end?.alt) readings.push([d.alt ?? d, end ? (end.alt ?? end) : (d.alt ?? d)]);
    if (d.yearFirst && (!end || end.yearFirst)) readings.push([d.yearFirst, end?.yearFirst ?? d.yearFirst]);
    // Without years, "Dec 28 - Jan 3" runs over the new year: a range either way round.
    for (const [a, b] of readings) if (a.from <= b.to || isYearless(a)) spans.push({ from: a.from, to: b.to });
    // No reading runs forwards ("15/03 to 01/03"): each end on its own.
    if (spans.length === 0)
      for (const [a, b] of readings) spans.push({ from: a.from, to: a.to }, { from: b.from, to: b.to });
    for (const s of spans) {
      const from = open === 'before' ? OPEN_START : s.from;
      const to = open === 'after' ? OPEN_END : s.to;
      this.push({ kind: 'date', dateKind: kind, from, to, text, sure });
    }
  }
}

/**
 * A date with no year given the year of the other end of its range ("FEB 21 - FEB 25, 2025"): the same year, or the one
 * before (`step` -1, for a start) or after (+1, for an end) when that keeps the range running forwards.
 */
function withYearOf(yearless: DateSpan, dated: Span, step: -1 | 1): DateSpan {
  const year = Number((step < 0 ? dated.to : dated.from).slice(0, 4));
  const at = (y: number) => `${y}${yearless.from.slice(1)}`;
  const same = at(year);
  const forwards = step < 0 ? same <= dated.to : same >= dated.from;
  const day = forwards ? same : at(year + step);
  return { ...yearless, from: day, to: day, alt: undefined, yearFirst: undefined };
}

/** A date with no label: after a barcode ("0 11596 85161 7= 11/1/2013 - 11/29/2013") a code date, else a period. */
export function unlabelledKind(toks: readonly Tok[], i: number): DateKind {
  const prev = toks[i - 1]?.t ?? '';
  const before = toks[i - 2]?.t ?? '';
  if (prev === '=' || (prev === ':' && /^\d+$/.test(before)) || /^\d{6,}$/.test(prev)) return 'code-date';
  return 'period';
}
