// stats' one count model, shared by both engines: the whole stored values their SQL grouped, folded as the record filters
// fold them, each recall counted once under every distinct value a filter would select it by, and each group labelled.
import { countriesIn, countryCode, countryFieldParts } from '../filters/countries.js';
import { fold } from '../filters/normalize.js';
import { stringValues } from '../filters/record-filter.js';
import type { StatColumn } from './record-columns.js';
import { heldTexts } from './sql/stored-text.js';
import type { StatsField } from './stats-fields.js';
import type { ValueCount } from './store.js';

/** A field's whole value as stored (parsed JSON; null or undefined when the record has none) and how many recalls hold it. */
export interface StoredCount {
  value: unknown;
  count: number;
}

/** One value a recall counts under: the key the filter compares, and the spelling it was written in (a label's vote). */
type Part = { key: string; spelling?: string };

/** A text as the part its filter compares, folded; none for a blank text, which no filter value selects. */
function textPart(text: string): Part[] {
  const key = fold(text);
  return key === '' ? [] : [{ key, spelling: text }];
}

/** List filters (--severity, --status, --risk, --jurisdiction): each string, or each string of a list, folded. */
const listParts = (value: unknown): Part[] => stringValues(value).flatMap(textPart);

/** Substring filters (--category, --brand): the whole text, folded; a value that is no text, or blank, has none. */
const textParts = (value: unknown): Part[] => (typeof value === 'string' ? textPart(value) : []);

/**
 * --country (whole countries): each country the value names, as its ISO code (a vote for the spelling of a part that
 * is one country's name or code); and each part naming none, folded, as --country compares a country it does not know.
 */
function countryParts(value: unknown): Part[] {
  if (typeof value !== 'string') return [];
  const parts: Part[] = countriesIn(value).map((code) => ({ key: `=${code}` }));
  for (const part of countryFieldParts(value)) {
    const code = countryCode(part);
    if (code !== undefined) parts.push({ key: `=${code}`, spelling: part });
    else if (countriesIn(part).length === 0 && fold(part) !== '') parts.push({ key: `~${fold(part)}`, spelling: part });
  }
  return parts;
}

/** How each record field's stored value becomes the keys its filter compares, and whether its label is the key itself. */
const MODEL: Record<StatColumn, { parts: (value: unknown) => Part[]; labelIsKey: boolean }> = {
  severity: { parts: listParts, labelIsKey: true },
  status: { parts: listParts, labelIsKey: true },
  risk: { parts: listParts, labelIsKey: false },
  jurisdiction: { parts: listParts, labelIsKey: false },
  category: { parts: textParts, labelIsKey: false },
  brand: { parts: textParts, labelIsKey: false },
  country: { parts: countryParts, labelIsKey: false },
};

/** Ties in count: null first, then text by its UTF-8 bytes (SQLite's order, and the same on both engines). */
function compareValues(a: unknown, b: unknown): number {
  if (a === null || b === null) return a === null ? (b === null ? 0 : -1) : 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'number' || typeof b === 'number') return typeof a === 'number' ? -1 : 1;
  return Buffer.compare(Buffer.from(String(a)), Buffer.from(String(b)));
}

const byCount = (a: ValueCount, b: ValueCount) => b.count - a.count || compareValues(a.value, b.value);

/** A spelling as a label: whitespace runs as one space, trimmed (folding does the same, so labels stay distinct). */
const tidy = (spelling: string) => spelling.replace(/\s+/g, ' ').trim();

/** English names of regions, for a country only ever written among others ("Germany and Poland"). */
let regionNames: Intl.DisplayNames | undefined;
function countryName(code: string): string {
  regionNames ??= new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
  return regionNames.of(code) ?? code;
}

/** The most common spelling (ties: the first by UTF-8 bytes); a country without one is named in English. */
function labelOf(key: string, votes: Map<string, number>): string {
  let best: [string, number] | undefined;
  for (const entry of votes)
    if (!best || entry[1] > best[1] || (entry[1] === best[1] && compareValues(entry[0], best[0]) < 0)) best = entry;
  return best?.[0] ?? (key.startsWith('=') ? countryName(key.slice(1)) : key);
}

/**
 * Buckets of a field without a filter (source, day, hour): as the SQL grouped them (values as both engines hold them,
 * so SQLite's `a\u0000b` and `a\ufffdb` are one bucket, as on PostgreSQL), sorted.
 */
export function sortedCounts(rows: readonly StoredCount[]): ValueCount[] {
  const counts = new Map<unknown, number>();
  for (const { value, count } of rows) {
    // As both engines hold it (a NUL or lone surrogate as U+FFFD): SQLite groups and labels it as PostgreSQL does.
    const key = heldTexts(value ?? null);
    counts.set(key, (counts.get(key) ?? 0) + count);
  }
  return [...counts].map(([value, count]) => ({ value, count })).sort(byCount);
}

/**
 * A record field's counts from its grouped stored values: a group per distinct key its filter compares, counting each
 * recall once however often the key occurs in it; null counts the recalls no value of the field would select (none,
 * null, no text, blank text). Labelled by the key (severity, status) or by its most common spelling.
 */
export function foldedCounts(field: StatColumn, rows: readonly StoredCount[]): ValueCount[] {
  const { parts, labelIsKey } = MODEL[field];
  const groups = new Map<string, { count: number; votes: Map<string, number> }>();
  let none = 0;
  for (const { value, count } of rows) {
    const found = parts(heldTexts(value));
    if (found.length === 0) none += count;
    // A key, and a spelling of it, once per recall: ['fire', 'fire', 'Fire'] is one recall under fire.
    const seen = new Set<string>();
    const voted = new Map<string, Set<string>>();
    for (const { key, spelling } of found) {
      const group = groups.get(key) ?? { count: 0, votes: new Map<string, number>() };
      groups.set(key, group);
      if (!seen.has(key)) group.count += count;
      seen.add(key);
      if (spelling === undefined || labelIsKey) continue;
      const label = tidy(spelling);
      const labels = voted.get(key) ?? new Set<string>();
      voted.set(key, labels);
      if (labels.has(label)) continue;
      labels.add(label);
      group.votes.set(label, (group.votes.get(label) ?? 0) + count);
    }
  }
  const counts: ValueCount[] = [...groups].map(([key, { count, votes }]) => ({
    value: labelIsKey ? key : labelOf(key, votes),
    count,
  }));
  if (none > 0) counts.push({ value: null, count: none });
  return counts.sort(byCount);
}

/** Whether a stats field is a record field, counted by foldedCounts. */
export function isRecordField(field: StatsField): field is StatColumn {
  return Object.hasOwn(MODEL, field);
}
