// Record filters the API cannot apply (severity, risk, status, brand, ...): one predicate shared by every command.
import { countryTest } from './countries.js';
import { fold } from './normalize.js';

/**
 * What the user asked for. List fields match whole values, text fields match a substring; all of them
 * without case or accents. Values within one field are OR, fields are AND. An absent field matches all.
 */
export interface RecordFilter {
  /** risk_severity, whole values. */
  severity?: string[];
  /** Any element of risk_types, whole values. */
  risk?: string[];
  /** alert_status, whole values. */
  status?: string[];
  /** Any element of geo_jurisdictions, whole values. */
  jurisdiction?: string[];
  /** product_category, substring. */
  category?: string;
  /** product_brand, substring. */
  brand?: string;
  /** country_of_origin, whole countries: an ISO code or a name in English, French, German or Spanish. */
  country?: string;
  /** Any text anywhere in the record (nested arrays and objects included), substring. */
  grep?: string;
}

/** The filter fields, in the order flags are listed; each names its record field and its kind. */
export const FILTER_FIELDS = {
  severity: { field: 'risk_severity', kind: 'list' },
  risk: { field: 'risk_types', kind: 'list' },
  status: { field: 'alert_status', kind: 'list' },
  jurisdiction: { field: 'geo_jurisdictions', kind: 'list' },
  category: { field: 'product_category', kind: 'text' },
  brand: { field: 'product_brand', kind: 'text' },
  // Whole countries, never a substring ("DE" is in "Bangladesh"): countries.ts, in JavaScript on both engines.
  country: { field: 'country_of_origin', kind: 'text', compare: 'country' },
  grep: { field: undefined, kind: 'text' },
} as const;

export type FilterName = keyof typeof FILTER_FIELDS;

/** Whether no field of the filter is set. */
export function isEmptyFilter(filter: RecordFilter): boolean {
  return (Object.keys(FILTER_FIELDS) as FilterName[]).every((k) => filter[k] === undefined);
}

/** Every string in a value: itself, or those in its arrays and objects (not the object keys). */
function* strings(value: unknown): Generator<string> {
  if (typeof value === 'string') yield value;
  else if (Array.isArray(value)) for (const v of value) yield* strings(v);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) yield* strings(v);
}

/** A value's strings: itself, or the strings of an array; nothing for any other value. */
export function stringValues(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return [];
}

/** What a list filter compares: the whole values, folded. The archive stores the same for its SQL. */
export function foldedValues(value: unknown): string[] {
  return stringValues(value).map(fold);
}

/** One text field's test: the wanted text (folded once) anywhere in the field, or in the whole record for `grep`. */
export function compileText(name: FilterName, wanted: string): (record: Record<string, unknown>) => boolean {
  const spec = FILTER_FIELDS[name];
  const { field } = spec;
  if ('compare' in spec) {
    const test = countryTest(wanted);
    return (r) => test(r[spec.field]);
  }
  const needle = fold(wanted);
  if (field === undefined)
    return (r) => {
      for (const s of strings(r)) if (fold(s).includes(needle)) return true;
      return false;
    };
  return (r) => typeof r[field] === 'string' && fold(r[field] as string).includes(needle);
}

/** Compiles a filter into a predicate; the folding of the wanted values is done once. */
export function compileFilter(filter: RecordFilter): (record: Record<string, unknown>) => boolean {
  const tests: ((r: Record<string, unknown>) => boolean)[] = [];
  for (const name of Object.keys(FILTER_FIELDS) as FilterName[]) {
    const wanted = filter[name];
    if (wanted === undefined) continue;
    const { field, kind } = FILTER_FIELDS[name];
    if (kind === 'list') {
      const set = new Set((wanted as string[]).map(fold));
      tests.push((r) => foldedValues(r[field]).some((v) => set.has(v)));
    } else tests.push(compileText(name, wanted as string));
  }
  if (tests.length === 0) return () => true;
  return (r) => tests.every((t) => t(r));
}
