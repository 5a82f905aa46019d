// Dates as notices and catalogues write them (French, English, German): single days, months, and ranges, to ISO days.
import { fold } from '../filters/normalize.js';

/** A day or a span of days, ISO yyyy-mm-dd, both ends included; `at`/`end` locate it in the folded text. */
export interface DateSpan {
  from: string;
  to: string;
  at: number;
  end: number;
}

const MONTHS: Record<string, number> = {};
const NAMES = [
  'january janvier januar jan janv jaenner',
  'february fevrier februar feb fev fevr',
  'march mars marz maerz mar',
  'april avril apr avr',
  'may mai',
  'june juin juni jun',
  'july juillet juli jul juil',
  'august aout aug',
  'september septembre sept sep',
  'october octobre oktober oct okt',
  'november novembre nov',
  'december decembre dezember dec dez',
];
NAMES.forEach((names, i) => {
  for (const n of names.split(' ')) MONTHS[n] = i + 1;
});
const MONTH_NAME = Object.keys(MONTHS)
  .sort((a, b) => b.length - a.length)
  .join('|');

const NUMERIC = String.raw`(\d{4})-(\d{1,2})-(\d{1,2})|(\d{1,2})[/.-](\d{1,2})[/.-](\d{4}|\d{2})(?!\d)|(\d{1,2})[/.](\d{4})(?!\d)`;
const WORDY = String.raw`(\d{1,2})(?:er|st|nd|rd|th)?\.? (${MONTH_NAME})\.? (\d{4})|(${MONTH_NAME})\.? (\d{1,2})(?:st|nd|rd|th)?,? (\d{4})|(${MONTH_NAME})\.? (\d{4})`;
const DATE = new RegExp(`(?<![\\d\\p{L}])(?:${NUMERIC}|${WORDY})(?![\\p{L}])`, 'gu');
/** What joins the two ends of a range: "du … au …", "from … to …", "between … and …", "vom … bis …", "… - …". */
const RANGE_JOIN = /^ ?(?:au|a|to|through|thru|until|till|and|bis|-|–|jusqu ?au|jusqu'au|et le) ?$/;

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

/** One regex match as a span; `monthFirst` reads 04/05/2021 as April 5 (US notices) unless the numbers forbid it. */
function spanOf(g: (string | undefined)[], monthFirst: boolean): [string, string] | undefined {
  const n = (i: number) => Number(g[i]);
  if (g[1]) {
    const d = iso(n(1), n(2), n(3));
    return d ? [d, d] : undefined;
  }
  if (g[4]) {
    const [a, b] = [n(4), n(5)];
    // Day first, unless the numbers say otherwise (13/04 or 04/13 can be read one way only).
    const monthIsFirst = monthFirst ? !(a > 12 && b <= 12) : b > 12 && a <= 12;
    const d = monthIsFirst ? iso(year(g[6] as string), a, b) : iso(year(g[6] as string), b, a);
    return d ? [d, d] : undefined;
  }
  if (g[7]) return monthSpan(n(8), n(7));
  if (g[9]) {
    const d = iso(n(11), MONTHS[g[10] as string] as number, n(9));
    return d ? [d, d] : undefined;
  }
  if (g[12]) {
    const d = iso(n(14), MONTHS[g[12] as string] as number, n(13));
    return d ? [d, d] : undefined;
  }
  if (g[15]) return monthSpan(n(16), MONTHS[g[15] as string] as number);
  return undefined;
}

/**
 * The dates of a text already folded (fold()), in order, with two dates joined by a range word merged
 * into one span ("du 01/03/2021 au 15/03/2021").
 */
export function findDates(folded: string, monthFirst = false): DateSpan[] {
  const found: DateSpan[] = [];
  for (const m of folded.matchAll(DATE)) {
    const span = spanOf([...m], monthFirst);
    if (!span) continue;
    const at = m.index ?? 0;
    const here = { from: span[0], to: span[1], at, end: at + m[0].length };
    const prev = found.at(-1);
    if (prev && RANGE_JOIN.test(folded.slice(prev.end, at)) && prev.from <= here.to) {
      prev.to = here.to;
      prev.end = here.end;
    } else found.push(here);
  }
  return found;
}

/** A catalogue cell's date (2021-04-04, 04/04/2021, 04.04.21, 04/2021), day first; undefined when none. */
export function cellDate(raw: string): { from: string; to: string } | undefined {
  const [first] = findDates(fold(raw));
  return first && { from: first.from, to: first.to };
}
