// Gathers a digest: the period's recalls and sync runs from the archive, the sources the key may use, the catalogue's matches.
import { computeHealth } from '../../archive/health.js';
import type { ColumnMap } from '../../match/catalogue-columns.js';
import type { RecordFilter } from '../../filters/record-filter.js';
import { type LocalSession, readArchive } from '../archive/local-session.js';
import type { Context } from '../context.js';
import { openSession } from '../session.js';
import type { GlobalFlags } from '../settings.js';
import type { StatusReporter } from '../terminal/status.js';
import { buildDigest, type Digest } from './digest-model.js';
import { archiveFilterWarnings } from '../options/filter-warnings.js';

export interface DigestSelection {
  fromMs: number;
  toMs: number;
  sources: string[] | undefined;
  filter: RecordFilter;
  catalog: { file: string; map: ColumnMap } | undefined;
}

/** The catalogue, read before the archive or the API: a bad file is a usage error; its warnings as match says them. */
async function loadMatcher(catalog: DigestSelection['catalog'], status: StatusReporter) {
  if (catalog === undefined) return undefined;
  const [{ loadCatalogue }, { CatalogueIndex }, { reportCatalogue }] = await Promise.all([
    import('../match/load-catalogue.js'),
    import('../../match/matcher.js'),
    import('../match/match-rows.js'),
  ]);
  const catalogue = await loadCatalogue(catalog.file, catalog.map);
  const index = new CatalogueIndex(catalogue);
  reportCatalogue(catalogue, index.rejected, status);
  return index;
}

/**
 * The sources monitoring had to cover: --sources when given, else what /v1/recalls/sources lists for the
 * key. Undefined when that cannot be asked (no key, the API unreachable): the digest (or report) then says
 * so, and cannot be complete.
 */
export async function allowedSources(
  sources: string[] | undefined,
  globals: GlobalFlags,
  local: LocalSession,
  ctx: Context,
): Promise<string[] | undefined> {
  if (sources !== undefined) return sources;
  if (!local.settings.apiKey && !local.settings.sandbox) {
    local.status.warn(
      'no API key: the sources this key may use were not checked, so monitoring cannot be called complete',
    );
    return undefined;
  }
  try {
    const session = await openSession(globals, ctx, { needsKey: true, settings: { ...local.settings } });
    try {
      return (await session.client.sources()).data_sources.map((s) => s.id);
    } finally {
      await session.close();
    }
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    local.status.warn(`the sources this key may use were not checked: ${(err as Error).message}`);
    return undefined;
  }
}

export async function collectDigest(
  sel: DigestSelection,
  globals: GlobalFlags,
  local: LocalSession,
  ctx: Context,
): Promise<Digest> {
  const index = await loadMatcher(sel.catalog, local.status);
  const period = { fromMs: sel.fromMs, toMs: sel.toMs };
  const archive = await readArchive(local);
  let runs: Awaited<ReturnType<typeof archive.syncRuns>>;
  let stored: Awaited<ReturnType<typeof archive.storedIn>>;
  try {
    runs = await archive.syncRuns(period);
    stored = await archive.storedIn(period, { sources: sel.sources, filter: sel.filter });
    // A mistyped filter value would make every digest say "no new recalls": said against the whole archive.
    for (const warning of await archiveFilterWarnings(archive, { sources: sel.sources, filter: sel.filter }))
      local.status.warn(warning);
  } finally {
    await archive.close();
  }
  const allowed = await allowedSources(sel.sources, globals, local, ctx);
  let matches: Record<string, unknown>[] | null = null;
  if (index) {
    const { matchRow } = await import('../match/match-rows.js');
    matches = [];
    for (const recall of [...stored.new, ...stored.updated])
      for (const m of index.match(recall)) matches.push(matchRow(m, recall));
    matches.sort((a, b) => (a.level === b.level ? 0 : a.level === 'match' ? -1 : 1));
  }
  return buildDigest({
    fromMs: sel.fromMs,
    toMs: sel.toMs,
    stored,
    matches,
    health: computeHealth(runs, period, allowed),
    sourcesChecked: allowed !== undefined,
  });
}
