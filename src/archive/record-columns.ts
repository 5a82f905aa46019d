// What the archive stores beside a record's raw JSON: sort keys and the folded values record filters compare.
import { timestampMicros } from '../api/timestamps.js';
import { fold } from '../filters/normalize.js';
import { FILTER_FIELDS, type FilterName, foldedValues } from '../filters/record-filter.js';
import { heldText } from './sql/stored-text.js';

/** The record filters the archive answers in SQL, each from its column `filter_<name>`; the rest run in JavaScript. */
export const SQL_FILTERS = [
  'severity',
  'status',
  'risk',
  'jurisdiction',
  'category',
  'brand',
  'country',
] as const satisfies readonly FilterName[];
export type SqlFilter = (typeof SQL_FILTERS)[number];

/**
 * The record fields `stats` counts by (beside data_source and published_us), each kept in its column `stat_<name>`
 * as the JSON text of its value, null when the record has no such field: stats reads these small columns, never raw.
 */
export const STAT_COLUMNS = {
  severity: 'risk_severity',
  status: 'alert_status',
  risk: 'risk_types',
  jurisdiction: 'geo_jurisdictions',
  category: 'product_category',
  brand: 'product_brand',
  country: 'country_of_origin',
} as const;
export type StatColumn = keyof typeof STAT_COLUMNS;

/** One row of `recalls` except id, version and run columns. */
export type RecordColumns = {
  data_source: string | null;
  published_at: string | null;
  updated_at: string | null;
  published_us: number | null;
  updated_us: number | null;
  created_us: number | null;
  raw: string;
} & { [K in SqlFilter as `filter_${K}`]: string | null } & { [K in StatColumn as `stat_${K}`]: string | null };

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** An ISO 8601 instant as µs since the epoch; null when it is not one. */
export function micros(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const us = timestampMicros(value);
  return Number.isNaN(us) ? null : us;
}

/**
 * The whole values a list filter compares, as a JSON array: the filters' own foldedValues, so SQL and JavaScript agree
 * (each as both engines hold it: heldText).
 */
function foldedList(value: unknown): string {
  return JSON.stringify(foldedValues(value).map(heldText));
}

/** The folded text a substring filter searches, or null (which no filter matches) for a non-string. */
function foldedText(value: unknown): string | null {
  return typeof value === 'string' ? heldText(fold(value)) : null;
}

/** Each stat column's name and field; each SQL filter's column, field, folding and the stat column of its field. */
const STAT_KEYS = Object.entries(STAT_COLUMNS).map(([name, field]) => ({ column: `stat_${name}`, field }));
const FILTER_COLUMNS = SQL_FILTERS.map((name) => {
  const { field, kind } = FILTER_FIELDS[name];
  const stat = STAT_KEYS.findIndex((k) => k.field === field);
  return { column: `filter_${name}`, field, fold: kind === 'list' ? foldedList : foldedText, stat };
});

/**
 * Folded filter values by field and the value's JSON text. A feed repeats the same few severities, statuses,
 * brands and countries in record after record, and folding (NFD, marks removed) is the dearest part of a row.
 * Bounded: emptied when full, so a long watch never grows it.
 */
const folded = new Map<string, string | null>();
const FOLDED_MAX = 4096;

function foldedOf(spec: (typeof FILTER_COLUMNS)[number], value: unknown, json: string | undefined): string | null {
  // The JSON text is the value's identity here: the same text, the same folded result.
  if (json === undefined) return spec.fold(value);
  const key = `${spec.field}\u0000${json}`;
  let result = folded.get(key);
  if (result === undefined) {
    if (folded.size >= FOLDED_MAX) folded.clear();
    result = spec.fold(value);
    folded.set(key, result);
  }
  return result;
}

export function recordColumns(record: Record<string, unknown>, raw: string): RecordColumns {
  const published_us = micros(record.published_at);
  const columns: Record<string, string | number | null> = {
    data_source: text(record.data_source),
    published_at: text(record.published_at),
    updated_at: text(record.updated_at),
    published_us,
    // Most records were never updated: the same text, parsed once.
    updated_us: record.updated_at === record.published_at ? published_us : micros(record.updated_at),
    created_us: micros(record.created_in_db_at),
    raw,
  };
  // As raw (JSON.stringify of the record) has it: an undefined field is absent there too.
  const json: (string | undefined)[] = [];
  for (const { column, field } of STAT_KEYS) {
    const value = record[field];
    const text = value === undefined ? undefined : JSON.stringify(value);
    json.push(text);
    columns[column] = text ?? null;
  }
  for (const spec of FILTER_COLUMNS) {
    const value = record[spec.field];
    columns[spec.column] = foldedOf(spec, value, spec.stat >= 0 ? json[spec.stat] : JSON.stringify(value));
  }
  return columns as RecordColumns;
}

/** Text for the index: strings as they are, other values as JSON, nothing for null. */
function ftsText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * The full-text columns of a record, in FTS_COLUMNS order. Computed here rather than by triggers in SQL:
 * extracting them from the raw JSON in SQLite cost more than the rest of a sync together.
 */
export function ftsValues(record: Record<string, unknown>): (string | null)[] {
  const models = record.product_model_numbers;
  const descriptions = [record.product_description, record.packaging_description]
    .map(ftsText)
    .filter((t) => t !== null);
  return [
    ftsText(record.alert_title),
    ftsText(record.alert_summary),
    ftsText(record.product_name),
    ftsText(record.product_brand),
    Array.isArray(models)
      ? models
          .map(ftsText)
          .filter((t) => t !== null)
          .join(' ')
      : ftsText(models),
    ftsText(record.hazard_description),
    descriptions.length ? descriptions.join(' ') : null,
  ];
}
