// Whether a catalogue row's lot and date fall within a notice's scope: in-scope, out-of-scope, or unknown, with the notice's words.
import { lotKey, type ScopeItem } from './scope.js';
import { shorten } from '../output/shorten.js';

export type Scope = 'in-scope' | 'out-of-scope' | 'unknown';

/** What a catalogue row says about its batch: a lot, and a best-before / use-by / expiry day or month. */
export interface RowBatch {
  lot?: string;
  date?: { from: string; to: string };
}

export interface ScopeAnswer {
  scope: Scope;
  /** The notice's text that decided it (field: "words"), or why nothing could be decided. */
  evidence: string;
}

/** Dates a catalogue's best-before column can be compared with; a sale or production period cannot. */
const COMPARABLE = new Set(['best-before', 'use-by']);
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

/**
 * In scope when the notice names the row's lot (or all lots) or a best-before / use-by date or range holding
 * the row's date; out of scope when the notice names lots or such dates, the row has one of the same kind, and
 * none is the row's; unknown otherwise (the row or the notice gives none). Any named item that fits wins: when
 * lots and dates disagree the row stays in scope, as over-pulling is the safe error.
 */
export function checkScope(all: readonly ScopeItem[], row: RowBatch, rowGtins: readonly string[] = []): ScopeAnswer {
  // A notice listing several products ("A lot L1 | B lot L2"): a row with A's barcode is judged on A's lines
  // (and on what the notice says for all its products); a row matched otherwise on every line.
  const own = all.some((i) => i.gtin14 !== undefined && rowGtins.includes(i.gtin14));
  const items = own ? all.filter((i) => i.gtin14 === undefined || rowGtins.includes(i.gtin14)) : all;
  const lots = items.filter((i) => i.kind === 'lot');
  const allLots = items.filter((i) => i.kind === 'all-lots');
  const dates = items.filter(
    (i): i is Extract<ScopeItem, { kind: 'date' }> => i.kind === 'date' && COMPARABLE.has(i.dateKind),
  );
  const compared: ScopeItem[] = [];
  if (row.lot !== undefined && lotKey(row.lot) !== '') {
    if (allLots.length > 0) return { scope: 'in-scope', evidence: quoted(allLots) };
    const key = lotKey(row.lot);
    const hit = lots.filter((l) => l.kind === 'lot' && lotKey(l.lot) === key);
    if (hit.length > 0) return { scope: 'in-scope', evidence: quoted(hit) };
    compared.push(...lots);
  }
  const date = row.date;
  if (date !== undefined) {
    // The row's day (or month) overlaps a named day or range.
    const hit = dates.filter((d) => d.from <= date.to && date.from <= d.to);
    if (hit.length > 0) return { scope: 'in-scope', evidence: quoted(hit) };
    compared.push(...dates);
  }
  if (compared.length > 0) return { scope: 'out-of-scope', evidence: quoted(compared) };
  if (allLots.length > 0) return { scope: 'unknown', evidence: `the catalogue row has no lot; ${quoted(allLots)}` };
  const named = [...lots, ...dates];
  if (named.length === 0) return { scope: 'unknown', evidence: '' };
  return {
    scope: 'unknown',
    evidence: `the catalogue row has no ${lots.length > 0 ? 'lot' : 'date'}; ${quoted(named)}`,
  };
}
