// Whether a catalogue row's lot and date fall within a notice's scope: in-scope, out-of-scope only on proof, else unknown.
import { shorten } from '../output/shorten.js';
import { isYearless, type Span } from './scope-dates.js';
import { lotKey, type ScopeItem } from './scope-items.js';
import { lotCore, type RowLots, rowLots } from './scope-row-lots.js';

export type Scope = 'in-scope' | 'out-of-scope' | 'unknown';

/** What a catalogue row says about its batch: its lot cell, and every reading of its date cell. */
export interface RowBatch {
  lot?: string;
  /** Its lot cells read (rowLots), once per row; else `lot` is read as its one cell, at each check. */
  lots?: RowLots;
  /** 01/02/2025 in a column of unknown order is two readings; the row is out only if both are. */
  dates?: readonly Span[];
}

export interface ScopeAnswer {
  scope: Scope;
  /** The notice's text that decided it (field: "words"), or what to verify and why. */
  evidence: string;
  /** For an out-of-scope row: which of its values the notice's lists proved outside. */
  on?: 'lot' | 'date' | 'lot and date';
  /** Unknown, but the row's date is none of the dates the notice names: never `match`, at most `possible`. */
  unnamed?: boolean;
}

type DateItem = Extract<ScopeItem, { kind: 'date' }>;
type LotItem = Extract<ScopeItem, { kind: 'lot' | 'lot-range' }>;

/** The dates a catalogue's date column holds: a notice naming only these can prove a row's date out. */
const PACK = new Set(['best-before', 'use-by', 'expiry']);
/** Dates that are, or may be, the date on the pack: a row's date inside one is in scope. */
const COMPARABLE = new Set([...PACK, 'sell-by', 'code-date']);
/** Evidence is a line in a table: at most this many of the notice's items are quoted. */
const MAX_QUOTED = 4;
/** A notice's words are quoted up to this many characters (its fields can be huge). */
const MAX_QUOTE = 200;
const cut = (text: string) => shorten(text, MAX_QUOTE + 1);

const quoted = (items: readonly ScopeItem[]) => {
  const unique = [...new Set(items.map((i) => `${i.field}: "${cut(i.text)}"`))];
  const more = unique.length > MAX_QUOTED ? ` (+${unique.length - MAX_QUOTED} more)` : '';
  return unique.slice(0, MAX_QUOTED).join(' · ') + more;
};

const NUMBERED = /^([a-z]*)(\d+)([a-z]*)$/;
function inRange(key: string, from: string, to: string): boolean {
  const [k, a, b] = [NUMBERED.exec(key), NUMBERED.exec(from), NUMBERED.exec(to)];
  if (!k || !a || !b || k[1] !== a[1] || k[3] !== a[3]) return false;
  const n = Number(k[2]);
  return Number(a[2]) <= n && n <= Number(b[2]);
}

/** A lot or range the notice names holds one of the row's keys, as written or in their common form (lotCore). */
function lotHits(lot: LotItem, keys: ReadonlySet<string>): boolean {
  if (lot.kind === 'lot') return keys.has(lotKey(lot.lot)) || keys.has(lotCore(lotKey(lot.lot)));
  const [from, to] = [lotKey(lot.from), lotKey(lot.to)];
  return [...keys].some((k) => inRange(k, from, to) || inRange(lotCore(k), lotCore(from), lotCore(to)));
}
const overlaps = (d: DateItem, spans: readonly Span[]) => spans.some((s) => spansMeet(d, s));

/**
 * The parts of a notice's lot a shop's export may keep alone: each part between its "-", ".", "_" or spaces that holds
 * a digit ("2024-1150": 2024 and 1150), and its digits without a letter at the end ("2104B": 2104). The row side reads
 * "2104-B" as 2104 too (rowLots), so that neither side's suffix or prefix proves a row out.
 */
function lotParts(lot: string): string[] {
  const pieces = lot.split(/[\s\p{Pd}\u2212\u2043._/]+/u);
  const parts = pieces.length > 1 ? pieces.filter((p) => /\p{N}/u.test(p)) : [];
  const bare = lot.replace(/(?<=\d)\p{L}$/u, '');
  return [...parts, ...(bare !== lot ? [bare] : [])].map(lotKey).filter((k) => k !== '');
}
/** A row's code as written (never a head read off it) is a part of the notice's lot. */
const nearHits = (lot: LotItem, whole: ReadonlySet<string>) =>
  lot.kind === 'lot' && lotParts(lot.lot).some((k) => whole.has(lotCore(k)));

/**
 * Whether a notice's date and a row's reading share a day. A notice's date without a year (--mm-dd) is that month and
 * day in any year: a row's date meets it when its month and day do, and a row is out only when no year would help.
 */
function spansMeet(d: Span, s: Span): boolean {
  if (!isYearless(d)) return d.from <= s.to && s.from <= d.to;
  // A reading that runs into another year holds every month and day there is.
  if (s.from.slice(0, 4) !== s.to.slice(0, 4)) return true;
  const [a, b, x, y] = [d.from, d.to, s.from, s.to].map((v) => v.slice(-5)) as [string, string, string, string];
  // "Dec 28 - Jan 3" runs over the new year.
  return a <= b ? a <= y && x <= b : x <= b || a <= y;
}

/**
 * In scope when the notice names the row's lot (any of its forms), all lots, or a pack date or range holding the
 * row's date. Out of scope only on proof: the notice's scope read whole (nothing unread), a sure list of the same
 * kind as the row gives, no reading of the row's lot or date inside anything the notice names, of any kind. Else
 * unknown, saying what to verify. Any named item that fits wins: over-pulling is the safe error.
 */
export function checkScope(all: readonly ScopeItem[], row: RowBatch, rowGtins: readonly string[] = []): ScopeAnswer {
  // A notice listing several products ("A lot L1 | B lot L2"): a row with A's barcode is judged on A's lines
  // (and on what the notice says for all its products); a row matched otherwise on every line.
  const own = all.some((i) => i.gtin14 !== undefined && rowGtins.includes(i.gtin14));
  const items = own
    ? all.filter((i) => i.gtin14 === undefined || rowGtins.includes(i.gtin14) || i.kind === 'unread')
    : all;
  const lots = items.filter((i): i is LotItem => i.kind === 'lot' || i.kind === 'lot-range');
  const allLots = items.filter((i) => i.kind === 'all-lots');
  const dates = items.filter((i): i is DateItem => i.kind === 'date');
  const unread = items.filter((i) => i.kind === 'unread');
  // A row whose cell names a range of lots, a bound or anything else not read whole is never out by its lot.
  const { keys, whole, proves: lotProvable } = row.lots ?? rowLots(row.lot === undefined ? [] : [row.lot]);
  const spans = row.dates ?? [];

  if (allLots.length > 0) return { scope: 'in-scope', evidence: quoted(allLots) };
  const lotHit = keys.size > 0 ? lots.filter((l) => lotHits(l, keys)) : [];
  const dateHit = dates.filter((d) => overlaps(d, spans));
  const inScope = [...lotHit.filter((l) => !l.mention), ...dateHit.filter((d) => COMPARABLE.has(d.dateKind))];
  if (inScope.length > 0) return { scope: 'in-scope', evidence: quoted(inScope) };

  const named = [...lots.filter((l) => !l.mention), ...dates.filter((d) => d.dateKind !== 'sale')];
  // Anything the row's values touch, of whatever kind or certainty, keeps it from being excluded.
  const touched = [...lotHit, ...dateHit];
  if (touched.length > 0) return { scope: 'unknown', evidence: `verify ${what(touched)}: ${quoted(touched)}` };
  // The row's lot is a part of one the notice names ("2104" of "2104-B", "1150" of "2024-1150"): the export may have
  // kept only that part.
  const near = whole.size > 0 ? lots.filter((l) => nearHits(l, whole)) : [];
  if (near.length > 0) return { scope: 'unknown', evidence: `verify lot, the row's is part of: ${quoted(near)}` };
  if (unread.length > 0)
    return { scope: 'unknown', evidence: `verify lot/date, the notice's scope was not read whole: ${quoted(unread)}` };

  const sureLots = lots.filter((l) => l.sure && !l.mention);
  const sureDates = dates.filter((d) => d.sure && PACK.has(d.dateKind));
  const byLot = keys.size > 0 && lotProvable ? sureLots : [];
  const byDate = spans.length > 0 ? sureDates : [];
  const on = byLot.length > 0 && byDate.length > 0 ? 'lot and date' : byLot.length > 0 ? 'lot' : 'date';
  if (byLot.length + byDate.length > 0) return { scope: 'out-of-scope', evidence: quoted([...byLot, ...byDate]), on };
  if (named.length === 0) return { scope: 'unknown', evidence: '' };
  // Read whole, it names sell-by or code dates, none of them the row's: its column may hold another date of the pack,
  // so this proves nothing, but the row is no match either (scoped-matches.ts makes it `possible`).
  if (spans.length > 0 && dates.some((d) => d.sure && COMPARABLE.has(d.dateKind)))
    return {
      scope: 'unknown',
      evidence: `verify date, the row's is none the notice names, and a sell-by or code date proves no pack date out: ${quoted(named)}`,
      unnamed: true,
    };
  const gives = keys.size > 0 ? 'lot' : spans.length > 0 ? 'date' : undefined;
  const why =
    gives === undefined
      ? 'the catalogue row has no lot or date'
      : `the notice does not limit the ${gives} in words the reader can prove`;
  return { scope: 'unknown', evidence: `verify ${what(named)}, ${why}: ${quoted(named)}` };
}

/** "lot", "date" or "lot/date": what the reviewer should check on the shelf. */
function what(items: readonly ScopeItem[]): string {
  const lot = items.some((i) => i.kind !== 'date');
  const date = items.some((i) => i.kind === 'date');
  return lot && date ? 'lot/date' : date ? 'date' : 'lot';
}
