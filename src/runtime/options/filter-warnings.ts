// Filter values that matched nothing in the archive, for query, match and digest: the archive's own counts name the values it holds.
import type { ArchiveQuery, ArchiveStore } from '../../archive/store.js';
import { type UnmatchedValue, unmatchedIn, unmatchedMessage } from '../../filters/filter-coverage.js';
import { FILTER_FIELDS, type FilterName, isEmptyFilter } from '../../filters/record-filter.js';

/**
 * One warning per filter value that no recall of `query` (its filter set aside) holds: list values by
 * the archive's counts of the field (stats), text values by asking for one record with that value alone.
 * Asked only when a filter is given; an archive without such recalls gives no warning.
 */
export async function archiveFilterWarnings(archive: ArchiveStore, query: ArchiveQuery): Promise<string[]> {
  const filter = query.filter;
  if (filter === undefined || isEmptyFilter(filter)) return [];
  const base: ArchiveQuery = { ...query, filter: undefined };
  const lists = (Object.keys(FILTER_FIELDS) as FilterName[]).filter(
    (name) => filter[name] !== undefined && FILTER_FIELDS[name].kind === 'list',
  );
  const stats = await archive.stats(base, lists as ('severity' | 'risk' | 'status' | 'jurisdiction')[]);
  if (stats.total === 0) return [];
  const seen: Partial<Record<FilterName, string[]>> = {};
  for (const name of lists) {
    seen[name] = (stats.counts[name as 'severity'] ?? [])
      .map((c) => c.value)
      .filter((v): v is string => typeof v === 'string' && v !== '');
  }
  const unmatched: UnmatchedValue[] = unmatchedIn(filter, seen);
  for (const name of Object.keys(FILTER_FIELDS) as FilterName[]) {
    const value = filter[name];
    if (typeof value !== 'string') continue;
    let found = false;
    for await (const _ of archive.records({ ...base, filter: { [name]: value }, limit: 1 })) found = true;
    if (!found) unmatched.push({ name, value });
  }
  return unmatched.map((u) => unmatchedMessage(u, stats.total, 'in the archive'));
}
