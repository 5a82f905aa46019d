// Checks --columns names: refuses typos of recall fields before any request; warns where the shape is unknown or the format ignores them.
import { editDistanceWithin } from '../../filters/edit-distance.js';
import { FORMATS, formatSpec, isFormat } from '../../output/formats.js';
import { UsageError } from '../cli-errors.js';

const MAX_SUGGESTIONS = 3;

/**
 * Names longer than this get no guess: no field is named so long, and the distances to every known name would cost
 * time for a 100 KB value (--columns comes from the command line, whatever its length).
 */
const MAX_GUESSED_CHARS = 128;

/**
 * Distance to the whole name or, for 4 characters or more, to one of its `_` parts (`titel` → alert_title); Infinity
 * beyond `limit`.
 */
function distanceTo(wanted: string, known: string, limit: number): number {
  const whole = editDistanceWithin(wanted, known, limit);
  if (wanted.length < 4) return whole;
  return Math.min(whole, ...known.split('_').map((part) => editDistanceWithin(wanted, part, limit)));
}

/**
 * Up to three known names close to `name`: at most a third of its length (at least 1) edits away from
 * the name or one of its `_` parts; closest first, then nearest as a whole, then in `known`'s order.
 * None for a name over MAX_GUESSED_CHARS.
 */
export function nearestNames(name: string, known: readonly string[]): string[] {
  if (name.length > MAX_GUESSED_CHARS) return [];
  const wanted = name.toLowerCase();
  const limit = Math.max(1, Math.floor(wanted.length / 3));
  return (
    known
      .map((k, order) => ({ k, order, d: distanceTo(wanted, k.toLowerCase(), limit) }))
      .filter(({ d }) => d <= limit)
      // Ties go by the distance to the whole name, which may lie beyond the limit (`titel` → alert_title): exact for any
      // name of up to MAX_GUESSED_CHARS, so only a longer one (a record's field, say) is spared the table.
      .map((near) => ({ ...near, whole: editDistanceWithin(wanted, near.k.toLowerCase(), MAX_GUESSED_CHARS) }))
      .sort((x, y) => x.d - y.d || x.whole - y.whole || x.order - y.order)
      .slice(0, MAX_SUGGESTIONS)
      .map(({ k }) => k)
  );
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
