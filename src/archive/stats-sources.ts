// Which stats field is read how (a column's value, a list's elements, a time bucket), for an engine's SQL to fill in.
import type { StatColumn } from './record-columns.js';
import type { StatsField } from './stats-fields.js';

/** An engine's readers: the source column, a stat column read as one value or as a list's elements, the buckets. */
export interface FieldReaders<S> {
  source: S;
  scalar(column: StatColumn): S;
  each(column: StatColumn): S;
  day: S;
  hour: S;
}

/** Each field's source from the engine's readers: the one table both engines fill, from columns or from raw. */
export function statsSources<S>(read: FieldReaders<S>): Record<StatsField, S> {
  return {
    source: read.source,
    severity: read.scalar('severity'),
    risk: read.each('risk'),
    category: read.scalar('category'),
    brand: read.scalar('brand'),
    country: read.scalar('country'),
    jurisdiction: read.each('jurisdiction'),
    status: read.scalar('status'),
    day: read.day,
    hour: read.hour,
  };
}
