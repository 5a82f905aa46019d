// The spec's fixed values: sort fields, source IDs, parameter bounds and rate limits. No dependencies, so cheap to import.
export const SORT_FIELDS = ['published_at', 'created_in_db_at', 'updated_at'] as const;
export const SORT_ORDERS = ['desc', 'asc'] as const;
export const SOURCE_IDS = ['us_cpsc', 'safety_gate', 'uk_opss', 'rappel_conso', 'rappel_conso_food'] as const;
/**
 * Other spellings of a source ID: the operator's own samples (its /sources example, a feed's `available`) say
 * `eu_safety_gate` where its ID list and the records say `safety_gate`.
 */
export const SOURCE_ALIASES: Readonly<Record<string, string>> = { eu_safety_gate: 'safety_gate' };

/** The one spelling of a source ID, for comparing IDs from different answers (an alias's canonical ID). */
export function canonicalSource(id: string): string {
  return Object.hasOwn(SOURCE_ALIASES, id) ? (SOURCE_ALIASES[id] as string) : id;
}

/** Every spelling of `id`'s source (`safety_gate` and `eu_safety_gate`): what a stored data_source may say of it. */
export function sourceSpellings(id: string): string[] {
  const canonical = canonicalSource(id);
  return [canonical, ...Object.keys(SOURCE_ALIASES).filter((a) => SOURCE_ALIASES[a] === canonical)];
}
/** What a data source ID may look like (the API may add sources, so any such ID is passed on). */
export const SOURCE_ID_PATTERN = /^[a-z0-9_]+$/;
export type SortField = (typeof SORT_FIELDS)[number];
export type SortOrder = (typeof SORT_ORDERS)[number];

/** Parameter bounds from the spec's Limits table. */
export const BOUNDS = {
  hoursMin: 1,
  hoursMax: 24,
  defaultHours: 24,
  pageSizeMin: 1,
  pageSizeMax: 500,
  defaultPageSize: 50,
} as const;

/** The spec's rate limits, used until a response reports others. */
export const SPEC_RATE_LIMITS = { perMinute: 60, perHour: 1000, perDay: 10_000, perMonth: 50_000 } as const;

/** Custom feed names are checked against this before any request, so a name can never change the path. */
export const CUSTOM_FEED_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** Recall fields in the spec's order (CSV columns follow it). */
export const RECALL_FIELDS = [
  'id',
  'data_source',
  'source_case_id',
  'source_url',
  'alert_title',
  'alert_summary',
  'risk_severity',
  'risk_types',
  'hazard_description',
  'measure_types',
  'measure_details',
  'product_category',
  'product_name',
  'product_brand',
  'product_model_numbers',
  'product_description',
  'packaging_description',
  'production_dates',
  'images',
  'standard_identifiers_and_barcodes',
  'involved_parties',
  'standards_cited',
  'geo_jurisdictions',
  'notifying_authority',
  'country_of_origin',
  'counterfeit',
  'alert_status',
  'published_at',
  'updated_at',
  'created_in_db_at',
] as const;

export const DEFAULT_BASE_URL = 'https://api.deeprecall.io';

/** The client's defaults; the CLI's settings and its help text show these same values. */
export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_RETRIES = 5;
export const DEFAULT_MAX_WAIT_MS = 120_000;
/** The most retries a caller may ask for: beyond it a dead API keeps a run busy for many minutes. */
export const MAX_RETRIES = 20;

/** The client's bound on one answer's decoded body (a page of 500 records is about 1 MiB). */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;
