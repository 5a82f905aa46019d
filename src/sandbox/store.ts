// The sandbox's record store: the generated records plus additions, with window filtering and keyset paging.
import { SORT_FIELDS, type SortField, type SortOrder, type SpecRecall } from '../api/schemas.js';
import { timestampMicros } from '../api/timestamps.js';

interface Entry {
  rec: SpecRecall;
  /** Sort keys in microseconds since the epoch, one per sort field. */
  keys: Record<SortField, number>;
}

export interface FeedQuery {
  /** Canonical source IDs to include. */
  sources: readonly string[];
  /** Only records with published_at at or after this instant (µs since the epoch). */
  sinceMicros: number;
  sortBy: SortField;
  sortOrder: SortOrder;
  /** Keyset position: records strictly after (key, id) in the requested order. */
  after?: { key: number; id: number };
  limit: number;
  /** An extra condition, e.g. a custom feed's selection. */
  include?: (r: SpecRecall) => boolean;
}

export interface FeedResult {
  page: SpecRecall[];
  /** Every record matching sources and window, whatever the cursor. */
  total: number;
  hasMore: boolean;
}

/** Thrown when a record cannot be stored (bad timestamp, duplicate id). */
export class RecordRejectedError extends Error {
  override name = 'RecordRejectedError';
}

function entryOf(rec: SpecRecall): Entry {
  const keys = {} as Record<SortField, number>;
  for (const f of SORT_FIELDS) {
    const k = timestampMicros(rec[f]);
    if (Number.isNaN(k))
      throw new RecordRejectedError(`record ${rec.id}: ${f} is not an ISO 8601 timestamp: ${JSON.stringify(rec[f])}`);
    keys[f] = k;
  }
  return { rec, keys };
}

export class RecordStore {
  private readonly byId = new Map<number, Entry>();
  private sorted: Partial<Record<SortField, Entry[]>> = {};
  private maxId = 0;

  constructor(records: SpecRecall[] = []) {
    this.add(records);
  }

  /** Adds records atomically: either all are stored or, on the first bad one, none. */
  add(records: SpecRecall[]): void {
    const seen = new Set<number>();
    for (const rec of records) {
      if (this.byId.has(rec.id) || seen.has(rec.id))
        throw new RecordRejectedError(`record id ${rec.id} already exists`);
      seen.add(rec.id);
    }
    this.put(records.map(entryOf));
  }

  /** Replaces stored records by new versions of them (same ids), all or none. */
  replace(records: SpecRecall[]): void {
    for (const rec of records)
      if (!this.byId.has(rec.id)) throw new RecordRejectedError(`record id ${rec.id} does not exist`);
    this.put(records.map(entryOf));
  }

  private put(entries: Entry[]): void {
    for (const e of entries) {
      this.byId.set(e.rec.id, e);
      this.maxId = Math.max(this.maxId, e.rec.id);
    }
    if (entries.length > 0) this.sorted = {};
  }

  has(id: number): boolean {
    return this.byId.has(id);
  }

  nextId(): number {
    return this.maxId + 1;
  }

  get size(): number {
    return this.byId.size;
  }

  all(): SpecRecall[] {
    return [...this.byId.values()].map((e) => e.rec).sort((a, b) => a.id - b.id);
  }

  /** Records published at or after the instant (µs since the epoch), sorted by id. */
  publishedSince(sinceMicros: number): SpecRecall[] {
    return [...this.byId.values()]
      .filter((e) => e.keys.published_at >= sinceMicros)
      .map((e) => e.rec)
      .sort((a, b) => a.id - b.id);
  }

  /** The sort key of a stored record, for cursors that carry only an id. */
  keyOf(id: number, field: SortField): number | undefined {
    return this.byId.get(id)?.keys[field];
  }

  private ascending(field: SortField): Entry[] {
    let list = this.sorted[field];
    if (!list) {
      list = [...this.byId.values()].sort((a, b) => a.keys[field] - b.keys[field] || a.rec.id - b.rec.id);
      this.sorted[field] = list;
    }
    return list;
  }

  query(q: FeedQuery): FeedResult {
    const list = this.ascending(q.sortBy);
    const wanted = new Set(q.sources);
    const include = q.include;
    const matches = (e: Entry) =>
      wanted.has(e.rec.data_source) && e.keys.published_at >= q.sinceMicros && (!include || include(e.rec));
    let total = 0;
    for (const e of list) if (matches(e)) total++;
    const field = q.sortBy;
    const page: SpecRecall[] = [];
    let hasMore = false;
    const asc = q.sortOrder === 'asc';
    // Compare (key, id) pairs; the tie-break on id runs in the same direction as the sort.
    const cmp = (e: Entry, k: number, id: number) => e.keys[field] - k || e.rec.id - id;
    let i: number;
    if (q.after) {
      const { key, id } = q.after;
      // First index whose (key, id) is greater than the cursor's.
      let lo = 0;
      let hi = list.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (cmp(list[mid] as Entry, key, id) > 0) hi = mid;
        else lo = mid + 1;
      }
      i = asc ? lo : lo - 1;
      // In descending order skip the cursor record itself (equal pair) too.
      if (!asc) while (i >= 0 && cmp(list[i] as Entry, key, id) >= 0) i--;
    } else {
      i = asc ? 0 : list.length - 1;
    }
    const step = asc ? 1 : -1;
    for (; i >= 0 && i < list.length; i += step) {
      const e = list[i] as Entry;
      if (!matches(e)) continue;
      if (page.length === q.limit) {
        hasMore = true;
        break;
      }
      page.push(e.rec);
    }
    return { page, total, hasMore };
  }
}
