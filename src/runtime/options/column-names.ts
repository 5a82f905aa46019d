// Checks --columns names: refuses typos of recall fields before any request; warns where the shape is unknown or the format ignores them.
import { editDistance } from '../../filters/edit-distance.js';
import { FORMATS, formatSpec, isFormat } from '../../output/formats.js';
import { UsageError } from '../cli-errors.js';

const MAX_SUGGESTIONS = 3;

/** Distance to the whole name or, for 4 characters or more, to one of its `_` parts (`titel` → alert_title). */
function distanceTo(wanted: string, known: string): number {
  const whole = editDistance(wanted, known);
  if (wanted.length < 4) return whole;
  return Math.min(whole, ...known.split('_').map((part) => editDistance(wanted, part)));
}

/**
 * Up to three known names close to `name`: at most a third of its length (at least 1) edits away from
 * the name or one of its `_` parts; closest first, then nearest as a whole, then in `known`'s order.
 */
export function nearestNames(name: string, known: readonly string[]): string[] {
  const wanted = name.toLowerCase();
  const limit = Math.max(1, Math.floor(wanted.length / 3));
  return known
    .map((k, order) => ({
      k,
      order,
      d: distanceTo(wanted, k.toLowerCase()),
      whole: editDistance(wanted, k.toLowerCase()),
    }))
    .filter(({ d }) => d <= limit)
    .sort((x, y) => x.d - y.d || x.whole - y.whole || x.order - y.order)
    .slice(0, MAX_SUGGESTIONS)
    .map(({ k }) => k);
}

function quoted(names: readonly string[]): string {
  return names.map((n) => `'${n}'`).join(', ');
}

/** Names missing from `known`, each with its nearest known names (for a hint or a warning). */
function describeUnknown(unknown: readonly string[], known: readonly string[]): string {
  const near = unknown.map((n) => [n, nearestNames(n, known)] as const).filter(([, names]) => names.length > 0);
  if (near.length === 0) return `known: ${known.join(', ')}`;
  return `did you mean ${near.map(([n, names]) => `${names.join(' or ')} (for '${n}')`).join('; ')}?`;
}

/** The shape of the API's field names (snake case): a field the API added since this version has it too. */
const FIELD_NAME = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

/**
 * Refuses (exit 2, before any request) `--columns` names outside `known` that are typos of a known name
 * (`prodcut_name`), or that no field could be called (`Product Name`), naming the nearest known ones. Any
 * other name of the field-name grammar is taken as a field the API added, which the csv output carries
 * too; when the first records lack it, the column stays empty and columnWarnings says so.
 */
export function checkKnownColumns(columns: readonly string[], known: readonly string[]): void {
  const unknown = columns.filter(
    (c) => !known.includes(c) && (!FIELD_NAME.test(c) || nearestNames(c, known).length > 0),
  );
  if (unknown.length === 0) return;
  const what = unknown.length === 1 ? 'an unknown column' : 'unknown columns';
  throw new UsageError(`--columns has ${what}: ${quoted(unknown)}`, describeUnknown(unknown, known));
}

export interface ColumnWarningInput {
  columns: readonly string[] | undefined;
  format: string;
  /** The first records, for a feed whose fields are not known up front (custom feeds, sources). */
  records?: readonly Record<string, unknown>[];
}

/**
 * Warnings (without the `warning: ` prefix) for --columns that would otherwise do nothing silently:
 * with jsonl or json, which print whole records; and names no record of the first batch has.
 */
export function columnWarnings({ columns, format, records }: ColumnWarningInput): string[] {
  if (!columns) return [];
  // Formats that print whole records, where --columns has no effect.
  if (isFormat(format) && formatSpec(format).wholeRecords) {
    const chosen = FORMATS.filter((f) => !formatSpec(f).wholeRecords);
    const listed = chosen.length > 1 ? `${chosen.slice(0, -1).join(', ')} and ${chosen.at(-1)}` : chosen.join('');
    return [`--columns applies to ${listed} only; ${format} prints whole records`];
  }
  if (!records || records.length === 0) return [];
  const fields = [...new Set(records.flatMap((r) => Object.keys(r)))];
  const missing = columns.filter((c) => !fields.includes(c));
  if (missing.length === 0) return [];
  return [
    `no record has ${missing.length === 1 ? 'the column' : 'the columns'} ${quoted(missing)} (left empty); ${describeUnknown(missing, fields)}`,
  ];
}
