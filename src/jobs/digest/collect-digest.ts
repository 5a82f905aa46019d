// Gathers a digest: the period's recalls and sync runs from the archive, the sources the key may use, the catalogue's matches.
import { computeHealth } from '../../archive/health.js';
import type { CaseView } from '../../archive/cases-model.js';
import type { ArchiveStore } from '../../archive/store.js';
import type { ColumnMap } from '../../match/catalogue-columns.js';
import type { RecordFilter } from '../../filters/record-filter.js';
import type { Context } from '../../runtime/context.js';
import type { ArchiveSession } from '../../runtime/session.js';
import type { StatusReporter } from '../../runtime/terminal/status.js';
import type { Digest } from '../../output/digest/digest-view.js';
import type { ProductRow } from '../../output/digest/product-text.js';
import { deadlinesOf } from './deadlines.js';
import { buildDigest } from './digest-model.js';
import { byReadingOrder, productRow } from './your-products.js';
import { archiveFilterWarnings } from '../../runtime/options/filter-warnings.js';
import { allowedSources } from '../../runtime/archive/allowed-sources.js';

export interface DigestSelection {
  fromMs: number;
  toMs: number;
  sources: string[] | undefined;
  filter: RecordFilter;
  catalog: { file: string; map: ColumnMap; key?: string } | undefined;
}

/**
 * What a caller that knows more hands in (the MCP server): the sources the key may use as it already asked for them,
 * within its own time limit; and where the catalogue's warnings go, instead of being said (and remembered) once.
 */
export interface DigestGiven {
  allowed?: { ids: string[] | undefined };
  catalogueWarnings?: (warnings: string[]) => void;
  /**
   * Told, before the archive is read, the instant (ms) below which every write had committed: the period's end when
   * the writes settled, else the archive's clock as last read under its write lock (undefined: never read).
   */
  readUpTo?: (ms: number | undefined) => void;
}

/** The catalogue, read before the archive or the API: a bad file is a usage error; its warnings as match says them. */
async function loadMatcher(
  catalog: DigestSelection['catalog'],
  status: StatusReporter,
  env: Context['env'],
  heard?: (warnings: string[]) => void,
) {
  if (catalog === undefined) return undefined;
  const [{ loadMatcher }, { rowKey }] = await Promise.all([
    import('../matching/load-catalogue.js'),
    import('../matching/open-cases.js'),
  ]);
  const sayOnce = heard === undefined;
  const read = await loadMatcher(catalog.file, catalog.map, catalog.key, status, env, { sayOnce });
  heard?.(read.warnings);
  return { index: read.index, rowKey, columns: { key: read.column, name: read.catalogue.columns.name } };
}

/**
 * The archive's cases (none, with a note, on an archive from before cases): the open and waiting ones for the
 * deadlines, and the closed ones too when "your products" names each pair's case.
 */
async function readCases(
  archive: ArchiveStore,
  local: { archive: ArchiveStore; status: StatusReporter },
  closedToo: boolean,
): Promise<CaseView[]> {
  const [{ CASE_STATUSES }, { casesOrNone }] = await Promise.all([
    import('../../archive/cases-model.js'),
    import('../../runtime/archive/cases-or-none.js'),
  ]);
  const statuses = closedToo ? CASE_STATUSES : CASE_STATUSES.filter((s) => s !== 'closed');
  return casesOrNone(local, () => archive.cases({ statuses }));
}

/** The case of each (catalogue row, recall) pair, keyed as match --open-cases keys them (`rowKey`), with its due time. */
function casesByPair(cases: readonly CaseView[], pairs: readonly { key: string; product: ProductRow }[]): void {
  const byPair = new Map(cases.map((c) => [`${c.catalog_key}\n${c.recall_id}`, c]));
  for (const { key, product } of pairs) {
    const c = byPair.get(`${key}\n${product.recall_id}`);
    if (c) product.case = { id: c.id, status: c.status, due_at: c.due_at };
  }
}

/** Longest the digest waits for a page being stored to commit, or for the archive's clock to reach the period's end. */
const SETTLE_MAX_MS = 300_000;
const SETTLE_STEP_MS = 1000;

/**
 * Whether every write stamped before `toMs` has committed (docs/digest.md, "The period"): the archive's commit
 * horizon, read under its write lock, has reached the end of the period. A page being stored holds the lock: the
 * digest waits for it; an archive clock behind the period's end, likewise, within SETTLE_MAX_MS, and no longer than
 * it is behind (the default end, 1 ms after now, is reached in 1 ms). `upTo`: the instant below which every write had
 * committed when it last looked (the period's end once settled).
 */
async function settle(
  archive: ArchiveStore,
  toMs: number,
  ctx: Context,
): Promise<{ settled: boolean; upTo: number | undefined }> {
  let upTo: number | undefined;
  for (let waited = 0; ; ) {
    const horizon = await archive.commitHorizon();
    if (horizon !== undefined && horizon >= toMs) return { settled: true, upTo: toMs };
    // Every write stamped below it has committed; a later one is stamped at it or after.
    if (horizon !== undefined) upTo = Math.floor(horizon);
    if (waited >= SETTLE_MAX_MS || (horizon !== undefined && toMs - horizon > SETTLE_MAX_MS - waited))
      return { settled: false, upTo };
    const step = horizon === undefined ? SETTLE_STEP_MS : Math.min(SETTLE_STEP_MS, Math.ceil(toMs - horizon));
    await ctx.sleep(step, ctx.signal);
    waited += step;
  }
}

/** The period's digest from the run's archive, the sources asked with the run's client unless `given`. */
export async function collectDigest(
  sel: DigestSelection,
  session: ArchiveSession,
  given: DigestGiven = {},
): Promise<Digest> {
  const { ctx, status, store: archive } = session;
  // The deadlines' clock (`deadlines.as_of`): now, read before settle() waits, never the period's exclusive end.
  const nowMs = ctx.now();
  const matcher = await loadMatcher(sel.catalog, status, ctx.env, given.catalogueWarnings);
  const period = { fromMs: sel.fromMs, toMs: sel.toMs };
  // Before the archive is read: a source the key may not use is refused as `feed` refuses it.
  const allowed = given.allowed ? given.allowed.ids : await allowedSources(sel.sources, session);
  let matches: Record<string, unknown>[] | null = null;
  let products: ProductRow[] | null = null;
  const { settled, upTo } = await settle(archive, sel.toMs, ctx);
  given.readUpTo?.(upTo);
  if (!settled)
    status.warn(
      "a sync was still storing recalls of this period (or the archive's clock had not reached its end): the digest may miss some, so monitoring is not called complete",
    );
  const runs = await archive.syncRuns(period);
  const stored = await archive.storedIn(period, { sources: sel.sources, filter: sel.filter });
  // Deadlines are the archive's, whatever the period, --sources or filters: a narrowed digest never hides a late case.
  const cases = await readCases(archive, { archive, status }, matcher !== undefined);
  if (matcher) {
    const { matchRow } = await import('../matching/match-rows.js');
    const pairs: { match: Record<string, unknown>; product: ProductRow; key: string }[] = [];
    for (const recall of [...stored.new, ...stored.updated])
      for (const m of matcher.index.match(recall)) {
        const match = matchRow(m, recall);
        const product = productRow(match, recall, matcher.columns, m.row.values);
        pairs.push({ match, product, key: matcher.rowKey(m.row, matcher.columns.key) });
      }
    pairs.sort((a, b) => byReadingOrder(a.product, b.product));
    matches = pairs.map((p) => p.match);
    products = pairs.map((p) => p.product);
    casesByPair(cases, pairs);
  }
  // A mistyped filter value would make every digest say "no new recalls": said against the whole archive.
  for (const warning of await archiveFilterWarnings(archive, { sources: sel.sources, filter: sel.filter }))
    status.warn(warning);
  return buildDigest({
    fromMs: sel.fromMs,
    toMs: sel.toMs,
    deadlines: deadlinesOf(cases, nowMs),
    stored,
    matches,
    products,
    health: computeHealth(runs, period, allowed),
    sourcesChecked: allowed !== undefined,
    settled,
  });
}
