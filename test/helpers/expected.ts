// What the feed should return, computed from the sandbox's own records, independently of the client.
import type { SpecRecall } from '../../src/api/schemas.js';
import type { Sandbox } from '../../src/sandbox/index.js';

/** Naive timestamps are UTC; milliseconds since the epoch. */
export const ms = (iso: string) => Date.parse(/([zZ]|[+-]\d\d:\d\d)$/.test(iso) ? iso : `${iso}Z`);

export function expectedFeed(
  sandbox: Sandbox,
  opts: {
    hours?: number;
    sortBy?: 'published_at' | 'updated_at' | 'created_in_db_at';
    order?: 'asc' | 'desc';
    sources?: string[];
    now?: number;
  } = {},
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

/**
 * Checks an export made while the window moved (real clock): every id once, in the server's order,
 * all that were in the window at the end, nothing that was not in it at the start.
 */
export function expectExactExport(
  ids: unknown[],
  sandbox: Sandbox,
  startedAt: number,
  endedAt: number,
  opts: Parameters<typeof expectedFeed>[1] = {},
): string | undefined {
  const upper = expectedFeed(sandbox, { ...opts, now: startedAt }).map((r) => r.id);
  const lower = new Set(expectedFeed(sandbox, { ...opts, now: endedAt }).map((r) => r.id));
  if (new Set(ids).size !== ids.length) return 'duplicate ids';
  const position = new Map(upper.map((id, i) => [id, i]));
  let last = -1;
  for (const id of ids) {
    const at = position.get(id as number);
    if (at === undefined) return `id ${String(id)} was never in the window`;
    if (at <= last) return `id ${String(id)} out of order`;
    last = at;
  }
  const got = new Set(ids);
  for (const id of lower) if (!got.has(id)) return `id ${id} missing`;
  return undefined;
}
