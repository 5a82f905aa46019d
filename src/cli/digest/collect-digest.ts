// Gathers a digest: the period's recalls and sync runs from the archive, the sources the key may use, the catalogue's matches.
import { UnauthorizedDataSourcesError } from '../../api/api-errors.js';
import { computeHealth } from '../../archive/health.js';
import type { CaseView } from '../../archive/cases-model.js';
import type { ArchiveStore } from '../../archive/store.js';
import type { ColumnMap } from '../../match/catalogue-columns.js';
import type { RecordFilter } from '../../filters/record-filter.js';
import { type LocalSession, readArchive } from '../archive/local-session.js';
import type { Context } from '../context.js';
import { openSession } from '../session.js';
import type { GlobalFlags } from '../settings.js';
import type { StatusReporter } from '../terminal/status.js';
import { deadlinesOf } from './deadlines.js';
import { buildDigest, type Digest } from './digest-model.js';
import { byReadingOrder, type ProductRow, productRow } from './your-products.js';
import { archiveFilterWarnings } from '../options/filter-warnings.js';

export interface DigestSelection {
  fromMs: number;
  toMs: number;
  sources: string[] | undefined;
  filter: RecordFilter;
  catalog: { file: string; map: ColumnMap; key?: string } | undefined;
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
  const { keyColumn } = await import('../cases/open-cases.js');
  return { index, columns: { key: keyColumn(catalogue, catalog.key), name: catalogue.columns.name } };
}

/**
 * The archive's cases (none, with a note, on an archive from before cases): the open and waiting ones for the
 * deadlines, and the closed ones too when "your products" names each pair's case.
 */
async function readCases(archive: ArchiveStore, local: LocalSession, closedToo: boolean): Promise<CaseView[]> {
  const [{ CASE_STATUSES }, { casesOrNone }] = await Promise.all([
    import('../../archive/cases-model.js'),
    import('../cases/list-cases.js'),
  ]);
  const statuses = closedToo ? CASE_STATUSES : CASE_STATUSES.filter((s) => s !== 'closed');
  return casesOrNone(local, () => archive.cases({ statuses }));
}

/** The case of each (catalogue row, recall) pair, as match --open-cases keys them, with its due time. */
function casesByPair(cases: readonly CaseView[], products: readonly ProductRow[]): void {
  const byPair = new Map(cases.map((c) => [`${c.catalog_key}\n${c.recall_id}`, c]));
  for (const p of products) {
    const key = p.key !== null ? `${p.key_column}:${p.key}` : `line:${p.catalog_line}`;
    const c = byPair.get(`${key}\n${p.recall_id}`);
    if (c) p.case = { id: c.id, status: c.status, due_at: c.due_at };
  }
}

/**
 * The sources monitoring had to cover: --sources when given (asked of the feed once, as `feed` asks, so an id
 * the key may not use is refused with feed's message and exit code), else what /v1/recalls/sources lists for
 * the key. Undefined when that cannot be asked (no key, the API unreachable): the digest (or report) then says
 * so, and cannot be complete.
 */
export async function allowedSources(
  sources: string[] | undefined,
  globals: GlobalFlags,
  local: LocalSession,
  ctx: Context,
): Promise<string[] | undefined> {
  if (!local.settings.apiKey && !local.settings.sandbox) {
    local.status.warn(
      sources === undefined
        ? 'no API key: the sources this key may use were not checked, so monitoring cannot be called complete'
        : 'no API key: --sources was not checked against the sources this key may use, so monitoring cannot be called complete',
    );
    return undefined;
  }
  try {
    const session = await openSession(globals, ctx, { needsKey: true, settings: { ...local.settings } });
    try {
      if (sources === undefined) return (await session.client.sources()).data_sources.map((s) => s.id);
      const pages = session.client.feedPages({ dataSources: sources, hoursAgo: 1, limit: 1 });
      try {
        await pages.next();
      } finally {
        await pages.return(undefined);
      }
      return sources;
    } finally {
      await session.close();
    }
  } catch (err) {
    if (ctx.signal.aborted || err instanceof UnauthorizedDataSourcesError) throw err;
    local.status.warn(`the sources this key may use were not checked: ${(err as Error).message}`);
    return undefined;
  }
}

/** Longest the digest waits for a page being stored to commit, or for the archive's clock to reach the period's end. */
const SETTLE_MAX_MS = 300_000;
const SETTLE_STEP_MS = 1000;

/**
 * Whether every write stamped before `toMs` has committed (docs/digest.md, "The period"): the archive's commit
 * horizon, read under its write lock, has reached the end of the period. A page being stored holds the lock: the
 * digest waits for it; an archive clock behind the period's end, likewise, within SETTLE_MAX_MS.
 */
async function settle(archive: ArchiveStore, toMs: number, ctx: Context): Promise<boolean> {
  for (let waited = 0; ; waited += SETTLE_STEP_MS) {
    const horizon = await archive.commitHorizon();
    if (horizon !== undefined && horizon >= toMs) return true;
    if (waited >= SETTLE_MAX_MS || (horizon !== undefined && toMs - horizon > SETTLE_MAX_MS - waited)) return false;
    await ctx.sleep(SETTLE_STEP_MS, ctx.signal);
  }
}

export async function collectDigest(
  sel: DigestSelection,
  globals: GlobalFlags,
  local: LocalSession,
  ctx: Context,
): Promise<Digest> {
  const matcher = await loadMatcher(sel.catalog, local.status);
  const period = { fromMs: sel.fromMs, toMs: sel.toMs };
  // Before the archive: a source the key may not use is refused as `feed` refuses it.
  const allowed = await allowedSources(sel.sources, globals, local, ctx);
  const archive = await readArchive(local);
  let runs: Awaited<ReturnType<typeof archive.syncRuns>>;
  let stored: Awaited<ReturnType<typeof archive.storedIn>>;
  let settled: boolean;
  let matches: Record<string, unknown>[] | null = null;
  let products: ProductRow[] | null = null;
  let cases: CaseView[];
  try {
    settled = await settle(archive, sel.toMs, ctx);
    if (!settled)
      local.status.warn(
        "a sync was still storing recalls of this period (or the archive's clock had not reached its end): the digest may miss some, so monitoring is not called complete",
      );
    runs = await archive.syncRuns(period);
    stored = await archive.storedIn(period, { sources: sel.sources, filter: sel.filter });
    // Deadlines are the archive's, whatever the period, --sources or filters: a narrowed digest never hides a late case.
    cases = await readCases(archive, local, matcher !== undefined);
    if (matcher) {
      const { matchRow } = await import('../match/match-rows.js');
      const pairs: { match: Record<string, unknown>; product: ProductRow }[] = [];
      for (const recall of [...stored.new, ...stored.updated])
        for (const m of matcher.index.match(recall)) {
          const match = matchRow(m, recall);
          pairs.push({ match, product: productRow(match, recall, matcher.columns, m.row.values) });
        }
      pairs.sort((a, b) => byReadingOrder(a.product, b.product));
      matches = pairs.map((p) => p.match);
      products = pairs.map((p) => p.product);
      casesByPair(cases, products);
    }
    // A mistyped filter value would make every digest say "no new recalls": said against the whole archive.
    for (const warning of await archiveFilterWarnings(archive, { sources: sel.sources, filter: sel.filter }))
      local.status.warn(warning);
  } finally {
    await archive.close();
  }
  return buildDigest({
    fromMs: sel.fromMs,
    toMs: sel.toMs,
    deadlines: deadlinesOf(cases, ctx.now()),
    stored,
    matches,
    products,
    health: computeHealth(runs, period, allowed),
    sourcesChecked: allowed !== undefined,
    settled,
  });
}
