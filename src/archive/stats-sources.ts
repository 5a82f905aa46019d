// Which stats field is read how (a record field's stored value, the source column, a time bucket), for an engine's SQL.
import type { StatColumn } from './record-columns.js';
import type { StatsField } from './stats-fields.js';

/**
 * An engine's readers: the source column, a record field's whole stored value (its JSON, grouped as it is and folded
 * afterwards by stats-groups.ts, lists included: never their elements, which would count a recall once per element),
 * and the buckets.
 */
export interface FieldReaders<S> {
  source: S;
  stored(column: StatColumn): S;
  day: S;
  hour: S;
}

/** Each field's source from the engine's readers: the one table both engines fill, from columns or from raw. */
export function statsSources<S>(read: FieldReaders<S>): Record<StatsField, S> {
  return {
    source: read.source,
    severity: read.stored('severity'),
    risk: read.stored('risk'),
    category: read.stored('category'),
    brand: read.stored('brand'),
    country: read.stored('country'),
    jurisdiction: read.stored('jurisdiction'),
    status: read.stored('status'),
    day: read.day,
    hour: read.hour,
  };
}
