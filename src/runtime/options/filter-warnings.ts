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
  const { warnings, held } = await sourceWarnings(archive, query);
  // No source asked for is in the archive: there is nothing to judge the other filters by.
  if (held?.length === 0) return warnings;
  return [...warnings, ...(await valueWarnings(archive, { ...query, ...(held && { sources: held }) }))];
}

/**
 * A --sources id no recall of the window comes from (a typo such as us_cspc, which matched nothing and, as the base
 * the other filters are judged by, silenced their warnings too), and the asked sources the archive does hold.
 */
async function sourceWarnings(
  archive: ArchiveStore,
  query: ArchiveQuery,
): Promise<{ warnings: string[]; held: string[] | undefined }> {
  const asked = query.sources;
  if (asked === undefined || asked.length === 0) return { warnings: [], held: undefined };
  // One recall of each is enough, found at once along the sort index; only a source with none costs a count.
  const missing: string[] = [];
  for (const source of asked) {
    let found = false;
    for await (const _ of archive.records({ ...query, sources: [source], filter: undefined, limit: 1 })) found = true;
    if (!found) missing.push(source);
  }
  if (missing.length === 0) return { warnings: [], held: [...asked] };
  const stats = await archive.stats({ ...query, sources: undefined, filter: undefined }, ['source']);
  const seen = (stats.counts.source ?? []).map((c) => c.value).filter((v): v is string => typeof v === 'string');
  const held = asked.filter((s) => seen.includes(s));
  if (stats.total === 0) return { warnings: [], held };
  const warnings = asked
    .filter((s) => !seen.includes(s))
    .map(
      (s) =>
        `--sources ${s} matched no recall of the ${stats.total.toLocaleString('en-US')} in the archive; sources seen: ${seen.join(', ')}`,
    );
  return { warnings, held };
}

async function valueWarnings(archive: ArchiveStore, query: ArchiveQuery): Promise<string[]> {
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
