// An incremental `match --archive`: the recalls stored since the last run checked, the rest of its rows carried over.
import { micros } from '../../archive/record-columns.js';
import type { ArchiveQuery, ArchiveStore } from '../../archive/store.js';
import { compileFilter } from '../../filters/record-filter.js';
import { CatalogueChangedError, type CatalogueRow } from '../../match/catalogue.js';
import type { Match } from '../../match/matcher.js';
import { archiveFilterWarnings } from '../../runtime/options/filter-warnings.js';
import { declaredStore, type Session } from '../../runtime/session.js';
import { learnedPath, readLearned } from '../matching/learned-file.js';
import { usageErrorOf } from '../matching/load-catalogue.js';
import { byLevelThenSeverity, catalogueValues, matchRow, reportCatalogue } from '../matching/match-rows.js';
import { flushCases, matchRowsSpec, type MatchSummary } from './match-parts.js';
import { tellsSuccess } from '../../runtime/files/write-output.js';
import { fileSha256 } from '../../runtime/files/file-sha256.js';
import type { MatchState, RecallRows } from './match-state.js';
import { captureOnly, RowCapture } from './row-capture.js';
import type { MatchInputs, MatchPlan } from './match-plan.js';
import { noCounts, streamMatchRows } from './stream-match.js';

/** The archive's order, as records() lists it: published_at newest first (none last), then id, highest first. */
export function archiveOrder(a: RecallRows, b: RecallRows): number {
  const [ia, pa] = a;
  const [ib, pb] = b;
  if (pa !== pb) {
    if (pa === null) return 1;
    if (pb === null) return -1;
    return pb - pa;
  }
  return ib - ia;
}

/**
 * The recalls the archive's query selects by its sources and record filters, decided in memory over the period's
 * recalls already read: the answer its SQL gives on either engine, as the archive's tests hold it to
 * (test/integration/archive-query.test.ts: a query's records are those compileFilter keeps). The published_at window
 * is the caller's (inWindow).
 */
function selectedBy({ sources, filter }: ArchiveQuery): (recall: Record<string, unknown>) => boolean {
  const keep = compileFilter(filter ?? {});
  // No source at all selects nothing, as the archive's empty IN list does.
  const fromSource = (s: unknown) => sources === undefined || (typeof s === 'string' && sources.includes(s));
  return (recall) => fromSource(recall.data_source) && keep(recall);
}

/** Rows written at once: a big carried-over listing goes out in pieces, as a full run's batches do. */
const WRITE_BATCH = 1000;

/**
 * The catalogue's sha256 a state was found by: of bytes this run read (`read`), or what the last run noted for a file
 * of its stamp, a guess until the bytes read here bear it out.
 */
export interface CatalogueSha {
  sha256: string;
  read: boolean;
}

/**
 * The rows of `recalls` as a full run finds them: with the catalogue indexed in memory when it already is
 * (--open-cases), else streamed. Its warnings are said as a full run says them (with no recall to check, from the
 * state: the catalogue is not read). The bytes read must be those of the state's key: when they were read before, a
 * catalogue changed since is refused, as a full run refuses one that changes while read; a noted sha256 they do not
 * bear out gives undefined (a full run, with the same reason as a new catalogue).
 */
async function matchRecalls(
  plan: MatchPlan,
  inputs: MatchInputs,
  session: Session,
  recalls: Record<string, unknown>[],
  known: CatalogueSha,
  kept: MatchState['catalogue'],
): Promise<Map<number, Record<string, unknown>[]> | undefined> {
  const capture = new RowCapture();
  const { status, ctx } = session;
  let read: string | null | undefined;
  if (recalls.length === 0) {
    // Nothing to match, so no read to check the note against: the one read this run makes of the catalogue.
    if (!known.read && (await fileSha256(plan.catalog).catch(() => null)) !== known.sha256) return undefined;
    if (inputs.kind === 'indexed') reportCatalogue(inputs.catalogue, inputs.index.rejected, status);
    else {
      await readLearned(learnedPath(plan.catalog, plan.learned), status, plan.learned !== undefined);
      const { headers, columns, report } = kept;
      reportCatalogue({ file: plan.catalog, headers, columns, ...report }, report.rejected, status, report.total);
    }
    return capture.byRecall;
  }
  // Streamed past an index of these few recalls, whatever its size: cheaper than indexing the whole catalogue for them
  // (measured in bench/archive-scale.mjs), and the same rows (the streaming path's tests).
  if (inputs.kind === 'head') {
    const learned = await readLearned(learnedPath(plan.catalog, plan.learned), status, plan.learned !== undefined);
    const counts = noCounts();
    const batches = (async function* () {
      yield { records: recalls };
    })();
    const output = captureOnly(capture, (await session.output()).format);
    read = (await streamMatchRows(plan, batches, () => true, learned, output, counts, status, ctx.signal)).sha256;
  } else {
    const { catalogue, index } = inputs;
    reportCatalogue(catalogue, index.rejected, status);
    read = catalogue.sha256;
    for (const recall of recalls)
      capture.add(index.match(recall, { explain: plan.explain }).map((m) => matchRow(m, recall, plan.explain)));
  }
  if (read === known.sha256) return capture.byRecall;
  // The rare guess gone wrong (a file rewritten after its stamp was taken) costs its warnings said twice.
  if (!known.read) return undefined;
  throw usageErrorOf(new CatalogueChangedError(plan.catalog));
}

/**
 * `match --open-cases`: every pair of the listing offered to the opener, in its order, as a full run offers them. Each
 * pair's catalogue row is the indexed catalogue's, or (a catalogue that streams) the one its match row was made from.
 */
async function openCases(
  rows: Record<string, unknown>[],
  inputs: MatchInputs,
  headers: readonly string[],
  archive: ArchiveStore,
  session: Session,
) {
  const { opener } = inputs;
  if (!opener) return;
  const byLine = inputs.kind === 'indexed' ? new Map(inputs.catalogue.rows.map((row) => [row.line, row])) : undefined;
  const rowOf = (row: Record<string, unknown>): CatalogueRow | undefined => {
    const line = row.catalog_line as number;
    return byLine ? byLine.get(line) : { line, values: catalogueValues(row, headers) };
  };
  for (const row of rows) {
    const catalogueRow = row.level === 'excluded' ? undefined : rowOf(row);
    if (!catalogueRow) continue;
    const match = { level: row.level, reason: row.reason, row: catalogueRow } as Match;
    opener.add(match, { id: row.recall_id, alert_title: row.alert_title, published_at: row.published_at });
  }
  await flushCases(opener, archive, session);
}

/**
 * The run from `state` up to the archive's commit stamp `horizonMs`: the recalls first stored or given a new version
 * in between (docs/digest.md: the period is of commit stamps, so a write in flight is in the next run's) are checked
 * again and replace their rows; rows of recalls now before --since drop out. Writes the listing; returns its summary
 * and the state's next recalls, or undefined (nothing written) when the catalogue's bytes are not the noted ones.
 */
export async function replayMatch(
  plan: MatchPlan,
  inputs: MatchInputs,
  session: Session,
  state: MatchState,
  horizonMs: number,
  known: CatalogueSha,
): Promise<{ summary: MatchSummary; recalls: RecallRows[] } | undefined> {
  const { status } = session;
  const archive = declaredStore(session);
  const source = plan.recalls as Extract<MatchPlan['recalls'], { kind: 'archive' }>;
  const period = { fromMs: state.horizonMs, toMs: horizonMs };
  const since = source.sinceUs;
  const inWindow = (us: number | null) => since === undefined || (us !== null && us >= since);
  // Every recall given a new version loses its rows, even one the filters now leave out; the ones they keep are checked.
  const changed = await archive.storedIn(period, {});
  const query: ArchiveQuery = { sinceUs: since, sources: source.sources, filter: plan.filter };
  const selected = selectedBy(query);
  const fresh = [...changed.new, ...changed.updated].filter((r) => inWindow(micros(r.published_at)) && selected(r));
  const found = await matchRecalls(plan, inputs, session, fresh, known, state.catalogue);
  if (!found) return undefined;
  const kept = new Map<number, RecallRows>();
  for (const entry of state.recalls) if (inWindow(entry[1])) kept.set(entry[0], entry);
  for (const recall of [...changed.new, ...changed.updated]) kept.delete(recall.id as number);
  const carried = [...kept.values()].reduce((n, [, , rows]) => n + rows.length, 0);
  for (const [id, rows] of found) kept.set(id, [id, micros(rows[0]?.published_at), rows]);
  const recalls = [...kept.values()].sort(archiveOrder);
  const rows = recalls.flatMap(([, , r]) => r);
  const counts = noCounts();
  for (const row of rows)
    if (row.level === 'match' || row.level === 'possible' || row.level === 'excluded') counts[row.level]++;
  // The archive filters in its query: every recall it lists is checked.
  counts.fetched = counts.checked = (await archive.stats(query, [])).total;
  const output = await session.output();
  await output.write(async (sink) => {
    const renderer = sink.renderer(matchRowsSpec(plan, state.catalogue));
    const listed = output.format.forPeople ? [...rows].sort(byLevelThenSeverity) : rows;
    for (let i = 0; i === 0 || i < listed.length; i += WRITE_BATCH)
      await status.around(() => renderer.write(listed.slice(i, i + WRITE_BATCH)));
    await renderer.end();
    // Before -o's file is put in place: a run whose cases cannot be written leaves it as it was (docs/formats.md).
    await openCases(rows, inputs, state.catalogue.headers, archive, session);
  });
  for (const warning of await archiveFilterWarnings(archive, query)) status.warn(warning);
  if (tellsSuccess(session))
    status.note(
      `match --archive: checked ${fresh.length} recalls new or changed since ${new Date(state.horizonMs).toISOString()}; ${carried} results carried over`,
    );
  const { rows: catalogueRows, rejected, unchecked } = state.catalogue;
  const catalogue = { rows: catalogueRows, rejected, unchecked };
  return { summary: { counts, catalogue }, recalls };
}
