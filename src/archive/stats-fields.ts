// The fields stats can count by; no dependencies, so flag parsing can use them without loading SQLite.

export const STATS_FIELDS = [
  'source',
  'severity',
  'risk',
  'category',
  'brand',
  'country',
  'jurisdiction',
  'status',
  'day',
  'hour',
] as const;
export type StatsField = (typeof STATS_FIELDS)[number];

/** Fields that are time buckets rather than values: shown as a histogram in time order. */
export const TIME_FIELDS: readonly StatsField[] = ['day', 'hour'];
