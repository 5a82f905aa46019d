// Checks feed parameters before any request and turns them into the query string the API expects.
import { InvalidParamsError } from './api-errors.js';
import { BOUNDS, CUSTOM_FEED_NAME, SORT_FIELDS, SORT_ORDERS, SOURCE_ID_PATTERN } from './constants.js';
import type { FeedParams } from './schemas.js';

/** Throws unless `value` is a whole number in [min, max]; `label` names it in the message (a flag or a param). */
export function checkWholeNumber(value: number, min: number, max: number, label: string): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new InvalidParamsError(`${label} must be a whole number from ${min} to ${max}, not ${value}`);
  }
  return value;
}

export function checkOneOf<T extends string>(value: string, allowed: readonly T[], label: string): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new InvalidParamsError(`${label} must be one of ${allowed.join(', ')}, not '${value}'`);
  }
  return value as T;
}

export function checkSources(ids: readonly string[], label: string): string[] {
  if (ids.length === 0) throw new InvalidParamsError(`${label} needs at least one data source ID`);
  for (const id of ids) {
    if (!SOURCE_ID_PATTERN.test(id)) {
      throw new InvalidParamsError(`${label}: '${id}' is not a data source ID (lowercase letters, digits, _)`);
    }
  }
  return [...ids];
}

export function validateCustomName(name: string, label = 'custom feed name'): string {
  if (!CUSTOM_FEED_NAME.test(name)) {
    throw new InvalidParamsError(
      `${label} '${name}' is not valid: 1-64 of a-z, 0-9, _ and -, starting with a letter or digit`,
    );
  }
  return name;
}

/** The query for a feed request, without the cursor (the pager adds it). */
export function feedQuery(p: FeedParams): URLSearchParams {
  const q = new URLSearchParams();
  if (p.dataSources !== undefined) q.set('data_sources', checkSources(p.dataSources, 'dataSources').join(','));
  if (p.hoursAgo !== undefined) {
    q.set('hours_ago', String(checkWholeNumber(p.hoursAgo, BOUNDS.hoursMin, BOUNDS.hoursMax, 'hoursAgo')));
  }
  if (p.limit !== undefined) {
    q.set('limit', String(checkWholeNumber(p.limit, BOUNDS.pageSizeMin, BOUNDS.pageSizeMax, 'limit')));
  }
  if (p.sortBy !== undefined) q.set('sort_by', checkOneOf(p.sortBy, SORT_FIELDS, 'sortBy'));
  if (p.sortOrder !== undefined) q.set('sort_order', checkOneOf(p.sortOrder, SORT_ORDERS, 'sortOrder'));
  if (p.cursor !== undefined && p.cursor === '') throw new InvalidParamsError('cursor must not be empty');
  return q;
}
