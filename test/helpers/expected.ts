// What the feed should return, computed from the sandbox's own records, independently of the client.
import type { SpecRecall } from '../../src/api/schemas.js';
import type { Sandbox } from '../../src/sandbox/index.js';

/** Naive timestamps are UTC. */
const ms = (iso: string) => Date.parse(/([zZ]|[+-]\d\d:\d\d)$/.test(iso) ? iso : `${iso}Z`);

export function expectedFeed(
  sandbox: Sandbox,
  opts: { hours?: number; sortBy?: 'published_at' | 'updated_at' | 'created_in_db_at'; order?: 'asc' | 'desc'; sources?: string[]; now?: number } = {},
): SpecRecall[] {
  const hours = opts.hours ?? 24;
  const sortBy = opts.sortBy ?? 'published_at';
  const dir = (opts.order ?? 'desc') === 'desc' ? -1 : 1;
  const horizon = (opts.now ?? Date.now()) - hours * 3_600_000;
  return sandbox
    .records()
    .filter((r) => ms(r.published_at) >= horizon && (!opts.sources || opts.sources.includes(r.data_source)))
    .sort((a, b) => {
      const ka = ms(a[sortBy]);
      const kb = ms(b[sortBy]);
      if (ka !== kb) return (ka - kb) * dir;
      return (a.id - b.id) * dir;
    });
}
