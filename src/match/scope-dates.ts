// Dates as notices and catalogues write them (English, French, German, Spanish): days and months to ISO days, with both readings of 04/05.
import { fold } from '../filters/normalize.js';
import { DATE_LABELS } from './scope-words.js';

/**
 * A day or a month as ISO yyyy-mm-dd days, both ends included. A notice's date written without its year ("Best By
 * dates of 21 FEB, 23 FEB") is ISO's --mm-dd: the same month and day in any year (YEARLESS).
 */
export interface Span {
  from: string;
  to: string;
}
/** A date of a text: its span, the other reading when day and month could be either way round, where it stands. */
export interface DateSpan extends Span {
  /** 04/05/2021 read the other way round, when the order is not known and both numbers could be a month. */
  alt?: Span;
  /** 26.03.12 read year first as well (2026-03-12, as Japan, China and Korea write it): two digits, a month, a day. */
  yearFirst?: Span;
  at: number;
  end: number;
}
/** Which number comes first in 04/05/2021: known for a source's country or a catalogue column, else either. */
export type DateOrder = 'day-first' | 'month-first' | 'either';

/**
 * Letters of the scripts written without spaces between words, where a number stands right beside a word
 * ("1234から1240", "保质期至2026年3月12日", "1234부터"): Han, kana (with the prolonged sound mark) and Hangul.
 */
export const CJK = '\\p{sc=Han}\\p{sc=Hiragana}\\p{sc=Katakana}\\p{sc=Hangul}\\u30fc\\u3005';

const MONTHS: Record<string, number> = {};
// English, French, German, Spanish; Dutch, Italian and Portuguese in full, with Dutch's "mrt".
const NAMES = [
  'january janvier januar jan janv jaenner janner enero ene januari gennaio janeiro',
  'february fevrier februar feb fev fevr feber febrero februari febbraio fevereiro',
  'march mars marz maerz mrz mar marzo maart mrt marco',
  'april avril apr avr abril abr aprile',
  'may mai mayo mei maggio maio',
  'june juin juni jun junio giugno junho',
  'july juillet juli jul juil julio luglio julho',
  'august aout aug agosto ago augustus',
  'september septembre sept sep septiembre setiembre set settembre setembro',
  'october octobre oktober oct okt octubre ottobre outubro',
  'november novembre nov noviembre novembro',
  'december decembre dezember dec dez diciembre dic dicembre dezembro',
];
NAMES.forEach((names, i) => {
  for (const n of names.split(' ')) MONTHS[n] = i + 1;
});
const MONTH_NAME = Object.keys(MONTHS)
  .sort((a, b) => b.length - a.length)
  .join('|');
/**
 * Month names that are also words ("lots 1 and 2 may contain", "10 ago") name a month without its year only where a
 * list's punctuation or the text's end follows ("21 MAY, 23 MAY").
 */
const WORDS_TOO = new Set(['may', 'mar', 'ago', 'set']);
const YEARLESS_MONTH = `${Object.keys(MONTHS)
  .filter((m) => !WORDS_TOO.has(m))
  .sort((a, b) => b.length - a.length)
  .join('|')}|(?:${[...WORDS_TOO].join('|')})(?=\\s*(?:[,;.)]|$))`;

const NUMERIC = String.raw`(\d{4})-(\d{1,2})-(\d{1,2})(?:t[\d:.]+(?:z|[+-]\d{2}:?\d{2})?)?(?!\d)|(\d{1,2})[/.-](\d{1,2})[/.-](\d{4}|\d{2})(?!\d)|(\d{1,2})[/.](\d{4})(?!\d)`;
// "4 avril 2021", "4. April 2021", "4 de abril de 2021", "04-APR-2021"; "April 4, 2021"; "April 2021"; and with no
// year, "21 FEB" or "FEB 21" when no number follows ("Jan 20 24" stays unread: its "24" may be the year).
const WORDY = String.raw`(\d{1,2})(?:er|st|nd|rd|th)?\.?[ -](?:de )?(${MONTH_NAME})\.?[ -](?:de )?(\d{4}|\d{2}(?!\d))|(${MONTH_NAME})\.? (\d{1,2})(?:st|nd|rd|th)?,? (\d{4})|(${MONTH_NAME})\.? (?:de )?(\d{4})|(\d{1,2})(?:er|st|nd|rd|th)?\.?[ -](?:de )?(${YEARLESS_MONTH})\.?(?![ -]?\d)|(${YEARLESS_MONTH})\.? (\d{1,2})(?:st|nd|rd|th)?(?![\d:])(?!,? ?\d)`;
// "2026.03.12", "2026/3/12", "2026年3月12日": a four-digit year first, then month and day (East Asia's order).
const YEAR_FIRST = String.raw`((?:19|20)\d\d)(?:[/.]|\s?年\s?)(\d{1,2})(?:[/.]|\s?月\s?)(\d{1,2})(?:\s?日)?(?!\d)`;
/** Not inside a word or a number; a Chinese or Japanese word may stand right beside it ("至2026年3月12日"). */
const DATE = new RegExp(
  `(?<!(?![${CJK}])[\\d\\p{L}])(?:${NUMERIC}|${WORDY}|${YEAR_FIRST})(?!(?![${CJK}])\\p{L})`,
  'gu',
);

function iso(y: number, m: number, d: number): string | undefined {
  if (m < 1 || m > 12 || d < 1) return undefined;
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  if (d > last) return undefined;
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

function monthSpan(y: number, m: number): [string, string] | undefined {
  const from = iso(y, m, 1);
  const to = iso(y, m, new Date(Date.UTC(y, m, 0)).getUTCDate());
  return from && to ? [from, to] : undefined;
}

const year = (raw: string) => (raw.length === 2 ? 2000 + Number(raw) : Number(raw));

/** One regex match as its span, and the other reading of a numeric day/month when `order` leaves both open. */
function spanOf(g: (string | undefined)[], order: DateOrder): { span: Span; alt?: Span; yearFirst?: Span } | undefined {
  const n = (i: number) => Number(g[i]);
  const day = (d: string | undefined) => (d ? { span: { from: d, to: d } } : undefined);
  if (g[1]) return day(iso(n(1), n(2), n(3)));
  if (g[4]) {
    const read = dayOrMonthFirst(n(4), n(5), year(g[6] as string), order, (g[0] as string).includes('/'));
    // Two digits, a month, two digits: year first too ("26.03.12" is 2026-03-12 in Japan) when that is a day and the
    // later year: a recall's pack dates are recent or to come, so "04.04.21" stays 2021, never 2004.
    const twoDigits = (g[4] as string).length === 2 && (g[6] as string).length === 2 && n(4) > n(6);
    const later = twoDigits ? iso(2000 + n(4), n(5), n(6)) : undefined;
    if (!read || !later || later === read.span.from || later === read.alt?.from) return read;
    return { ...read, yearFirst: { from: later, to: later } };
  }
  if (g[7]) {
    const m = monthSpan(n(8), n(7));
    return m && { span: { from: m[0], to: m[1] } };
  }
  if (g[9]) return day(iso(year(g[11] as string), MONTHS[g[10] as string] as number, n(9)));
  if (g[12]) return day(iso(n(14), MONTHS[g[12] as string] as number, n(13)));
  if (g[15]) {
    const m = monthSpan(n(16), MONTHS[g[15] as string] as number);
    return m && { span: { from: m[0], to: m[1] } };
  }
  if (g[17]) return day(yearless(MONTHS[g[18] as string] as number, n(17)));
  if (g[19]) return day(yearless(MONTHS[g[19] as string] as number, n(20)));
  if (g[21]) return day(iso(n(21), n(22), n(23)));
  return undefined;
}

/** A day/month/year's readings: one only when the numbers allow one (13/04, 04/13), they are equal, or `order` is known. */
function dayOrMonthFirst(
  a: number,
  b: number,
  y: number,
  order: DateOrder,
  slashed: boolean,
): { span: Span; alt?: Span } | undefined {
  const dayFirst = iso(y, b, a);
  const monthFirst = iso(y, a, b);
  const day = (d: string | undefined) => (d ? { span: { from: d, to: d } } : undefined);
  if (!dayFirst || !monthFirst || a === b) return day(dayFirst ?? monthFirst);
  if (order === 'day-first') return day(dayFirst);
  // Dots and dashes are Europe's way (05.06.2025): never month first alone, whatever the notice's country.
  if (order === 'month-first' && slashed) return day(monthFirst);
  return { span: { from: dayFirst, to: dayFirst }, alt: { from: monthFirst, to: monthFirst } };
}

/** A month and day with no year, as ISO's --mm-dd; 29 February is a day of some years. */
function yearless(m: number, d: number): string | undefined {
  return iso(2024, m, d)?.replace(/^2024/, '-');
}

/** Whether a span is a month and day of any year (--mm-dd). */
export const isYearless = (span: Span) => span.from.startsWith('--');

/** Every date of a folded text (fold()), in order, each on its own: ranges and bounds are the reader's to join. */
export function datesOf(folded: string, order: DateOrder = 'day-first'): DateSpan[] {
  const found: DateSpan[] = [];
  for (const m of folded.matchAll(DATE)) {
    const read = spanOf([...m], order);
    if (!read) continue;
    const at = m.index ?? 0;
    const readings = { ...(read.alt && { alt: read.alt }), ...(read.yearFirst && { yearFirst: read.yearFirst }) };
    found.push({ ...read.span, ...readings, at, end: at + m[0].length });
  }
  return found;
}

/**
 * A catalogue cell's date (2021-04-04, 04/04/2021, 04.04.21, 04/2021, "DLC 15/06/2025") as every reading it allows:
 * 01/02/2025 is 1 February or January 2 unless its column's order is known. Empty when the cell is anything but dates
 * the reader knows: a span or a bound ("15/06/2025 - 20/06/2025", "before 20/06/2025", "15/06/2025 or later", "≥"),
 * a time in another zone ("2025-06-14T22:00:00Z", the 15th at home), any word or sign it does not read. Which day the
 * stock is, such a cell cannot prove.
 */
export function cellDates(raw: string, order: DateOrder = 'either'): Span[] {
  const cell = fold(
    raw
      .normalize('NFKC')
      .replace(/\p{Cf}/gu, '')
      .replace(/[‘’]/g, "'"),
  );
  const folded = cell.replace(EXCEL_TEXT, (_, a, b) => a ?? b);
  if (ZONED.test(folded) || folded.includes('§')) return [];
  const found = datesOf(folded, order);
  // A cell without a year says too little to compare: no date. A cell of two dates ("01/06/2025, 01/07/2025") is
  // each of them: the row is out only if all are.
  if (found.length === 0 || found.some(isYearless) || !onlyDates(folded, found)) return [];
  return [...found.flatMap((d) => [{ from: d.from, to: d.to }, ...(d.alt ? [d.alt] : [])]), ...yearFirst(folded)];
}

/** Excel's text forms of a cell: '15/06/2025 and ="15/06/2025". */
const EXCEL_TEXT = /^'(.*)$|^=\s*"(.*)"$/s;
/** A date-time with its zone: "2025-06-14t22:00:00z", "… +02:00", "… utc". */
const ZONED = /\d[t\s]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?\s*(?:z|[+-]\d{2}:?\d{2}|utc|gmt)\b/;
/** The labels of a pack's date, longest first ("best before date" before "best before"); never a sale or production one. */
const PACK_LABEL = DATE_LABELS.filter((l) => ['best-before', 'use-by', 'expiry'].includes(l.kind))
  .map((l) => l.words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join(' '))
  .sort((a, b) => b.length - a.length)
  .join('|');
/**
 * What a date cell may hold besides its dates (§): a pack date's label first ("DLC : §", "exp. §"), a time of day after
 * a date ("§ 00:00:00"), and dates listed with a comma, a semicolon or "and"/"or" ("§, §", "§ et §"): each is a reading.
 */
const ONLY_DATES = new RegExp(
  `^(?:(?:${PACK_LABEL})\\s*[.:]?\\s*)?§(?:\\s+\\d{1,2}:\\d{2}(?::\\d{2}(?:\\.\\d+)?)?)?` +
    `(?:\\s*(?:[,;&]|\\s(?:and|et|und|y|or|ou|oder|o)\\s)\\s*§(?:\\s+\\d{1,2}:\\d{2}(?::\\d{2}(?:\\.\\d+)?)?)?)*$`,
);

/** Whether a folded cell is its dates alone: each date (found) a §, and nothing around them ONLY_DATES does not allow. */
function onlyDates(folded: string, found: readonly DateSpan[]): boolean {
  let rest = '';
  let at = 0;
  for (const d of found) {
    rest += `${folded.slice(at, d.at)}§`;
    at = d.end;
  }
  return ONLY_DATES.test((rest + folded.slice(at)).trim());
}

/** "25/06/15" may be year first (2025-06-15) as well: that reading too, so that the row is out only if both are. */
function yearFirst(folded: string): Span[] {
  // Two digits first, then a month and a day of one or two ("25/06/15", "25/6/15").
  const m = /^\s*(\d{2})[/.-](\d{1,2})[/.-](\d{1,2})\s*$/.exec(folded);
  if (!m) return [];
  const [y, mo, d] = [2000 + Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  if (date.getUTCMonth() !== mo - 1 || date.getUTCDate() !== d) return [];
  const iso = date.toISOString().slice(0, 10);
  return [{ from: iso, to: iso }];
}

/** The order a column's cells show: day first when one reads 13/04, month first when one reads 04/13, else either. */
export function columnOrder(cells: Iterable<string>): DateOrder {
  const seen = { dayFirst: false, monthFirst: false };
  for (const raw of cells) orderSeenIn(raw, seen);
  return seenOrder(seen);
}

/**
 * What one text shows of the order its dates are written in, every date of it (a streamed catalogue sees its cells one
 * at a time; a notice's field shows its own).
 */
export function orderSeenIn(raw: string, seen: { dayFirst: boolean; monthFirst: boolean }): void {
  for (const m of raw.matchAll(/(?<!\d)(\d{1,2})[/.-](\d{1,2})[/.-]\d{2,4}(?!\d)/g)) {
    const [a, b] = [Number(m[1]), Number(m[2])];
    if (a > 12 && b <= 12) seen.dayFirst = true;
    if (b > 12 && a <= 12) seen.monthFirst = true;
  }
}

/** The order the cells seen show: one way only, or either. */
export function seenOrder(seen: { dayFirst: boolean; monthFirst: boolean }): DateOrder {
  return seen.dayFirst === seen.monthFirst ? 'either' : seen.dayFirst ? 'day-first' : 'month-first';
}
