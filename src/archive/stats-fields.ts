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
