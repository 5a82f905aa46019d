// Runs `match`: reads and indexes the catalogue, then checks each recall of the live window or the archive against it.
import type { RecallFeedClient } from '../../api/client.js';
import { BOUNDS } from '../../api/constants.js';
import { groupDigits } from '../../output/numbers.js';
import { FilterCoverage } from '../../filters/filter-coverage.js';
import { archiveFilterWarnings } from '../../runtime/options/filter-warnings.js';
import type { Catalogue } from '../../match/catalogue.js';
import { learnedPath, readLearned } from '../matching/learned-file.js';
import { asUsageError } from '../matching/load-catalogue.js';
import { catalogueHead } from '../../match/stream-matches.js';
import type { StreamedCatalogue } from '../../match/stream-matches.js';
import { noCounts, type RecallBatches, rejectedCount, streamMatchRows, largeEnoughToStream } from './stream-match.js';
import type { CatalogueIndex, Match } from '../../match/matcher.js';
import {
  casesBeforeCommit,
  catalogueReport,
  finish,
  indexCatalogue,
  matchRowsSpec,
  type MatchSummary,
} from './match-parts.js';
import { inBatches } from '../../runtime/archive/archive-file.js';
import { caseOpener, keyColumn, streamedCaseOpener } from '../matching/open-cases.js';
import { caseSla } from '../matching/sla.js';
import type { RecordOutput } from '../../runtime/files/record-output.js';
import { declaredStore, type Session, type Uses } from '../../runtime/session.js';
import type { StatusReporter } from '../../runtime/terminal/status.js';
import { byLevelThenSeverity, matchRow, reportCatalogue } from '../matching/match-rows.js';
import { type WatchCatalogue, watchMatch } from './watch-match.js';
import { fileStamp } from './catalogue-note.js';
import { learnedFileStamp } from './watch-polls.js';
import type { MatchInputs, MatchPlan, RecallSource } from './match-plan.js';

export type { CasesPlan, MatchInputs, MatchPlan, RecallSource } from './match-plan.js';

/**
 * What a match uses: its output, chosen first; the archive it reads (writes, opening cases); with --watch --open-cases
 * the client, then the archive the cases go to, created when missing as `sync` would create it.
 */
export function matchUses(plan: MatchPlan): Uses {
  const kept = [
    { path: plan.catalog, what: 'catalogue' },
    { path: learnedPath(plan.catalog, plan.learned), what: 'learned file', pipeOk: true },
    ...(plan.watch?.state === undefined ? [] : [{ path: plan.watch.state, what: 'state file' }]),
  ];
  if (plan.watch) {
    const output = { format: plan.watch.format };
    if (!plan.openCases) return { output, kept };
    return { output, kept, api: { needsKey: true }, archive: { db: plan.openCases.db, mode: 'create' } };
  }
  if (plan.recalls.kind === 'live') return { output: {}, kept };
  return { output: {}, kept, archive: { db: plan.recalls.db, mode: plan.openCases ? 'write' : 'read' } };
}

type Batches = RecallBatches;

/**
 * Recalls from the archive handed to the matcher at once: few, since matching one allocates much and a batch alive
 * across young collections is promoted, to wait for a full one. bench/match.mjs's 100k x 100k from the archive peaked
 * at 400 MB with 500 here, 256 rows a listing batch (sqlite/client.ts) and each batch parsed at once; at 290 MB, no
 * slower, with 64, 64 and each record parsed as it is read (sql/store.ts).
 */
const ARCHIVE_BATCH = 64;

async function* archiveBatches(records: AsyncIterable<Record<string, unknown>>, signal: AbortSignal): Batches {
  for await (const batch of inBatches(records, signal, ARCHIVE_BATCH)) yield { records: batch };
}

/**
 * Checks every recall of `batches` that `keep` accepts against the catalogue and writes a row per match;
 * returns the counts. The archive filters in its query, so its recalls are all kept here.
 */
async function matchAll(
  plan: MatchPlan,
  catalogue: Catalogue,
  index: CatalogueIndex,
  batches: Batches,
  keep: (recall: Record<string, unknown>) => boolean,
  output: RecordOutput,
  status: StatusReporter,
  signal: AbortSignal,
  onMatch?: (match: Match, recall: Record<string, unknown>) => void,
) {
  const counts = noCounts();
  await output.write(async (sink) => {
    const renderer = sink.renderer(matchRowsSpec(plan, catalogue));
    // A table is read by people: held to the end, then written matches first, possibles, excluded (by severity
    // within each). The machine formats stream as found.
    const held: Record<string, unknown>[] | undefined = output.format.forPeople ? [] : undefined;
    await status.start('matching recalls…');
    for await (const batch of batches) {
      const rows: Record<string, unknown>[] = [];
      for (const recall of batch.records) {
        counts.fetched++;
        if (!keep(recall)) continue;
        counts.checked++;
        for (const m of index.match(recall, { explain: plan.explain })) {
          counts[m.level]++;
          rows.push(matchRow(m, recall, plan.explain));
          // An excluded row is listed (the proof nothing was over-pulled) but never opens a case.
          if (m.level !== 'excluded') onMatch?.(m, recall);
        }
      }
      if (held) held.push(...rows);
      else await status.around(() => renderer.write(rows));
      const of = batch.total === undefined ? '' : ` of ${groupDigits(batch.total)}`;
      status.progress(`matching recalls… ${groupDigits(counts.fetched)}${of}`);
      if (signal.aborted) throw signal.reason;
    }
    if (held) await status.around(() => renderer.write(held.sort(byLevelThenSeverity)));
    await renderer.end();
  });
  status.stop();
  return counts;
}

/**
 * What a match reads before its run's output, client or archive open: the catalogue's header at least (a bad file
 * costs no quota and writes nothing); with --watch or --open-cases the whole catalogue, unless it is large enough to
 * stream (a --key it lacks is refused first, either way), and from the archive with --open-cases the cases' deadline
 * too (a bad case-sla is refused before the archive is looked for).
 */
export async function prepareMatch(plan: MatchPlan, session: Session): Promise<MatchInputs> {
  const { status } = session;
  if (!plan.watch && !plan.openCases) {
    return { kind: 'head', head: await asUsageError(() => catalogueHead(plan.catalog, plan.map)) };
  }
  // --watch, or --archive --open-cases, over a catalogue large enough to stream: its header and key column checked
  // now, the same errors in the same order as below; its rows are read as the run streams them.
  if ((plan.watch || plan.recalls.kind === 'archive') && (await largeEnoughToStream(plan.catalog))) {
    const head = await asUsageError(() => catalogueHead(plan.catalog, plan.map));
    const column = plan.openCases && keyColumn(head, plan.openCases.key);
    if (plan.watch || !plan.openCases) return { kind: 'head', head };
    const sla = await caseSla(plan.openCases.sla, session.settings.profileCaseSla);
    return { kind: 'head', head, opener: streamedCaseOpener(head, column, status, { ...plan.openCases, sla }) };
  }
  // A watch reads the file, and its learned file, again when their stamps change: the stamps before these reads.
  if (plan.watch) {
    const stamp = await fileStamp(plan.catalog);
    const learnedStamp = await learnedFileStamp(plan);
    return { kind: 'indexed', ...(await indexCatalogue(plan, status)), stamp, learnedStamp };
  }
  const { catalogue, index } = await indexCatalogue(plan, status);
  if (plan.recalls.kind === 'live' || !plan.openCases) return { kind: 'indexed', catalogue, index };
  const sla = await caseSla(plan.openCases.sla, session.settings.profileCaseSla);
  const opener = caseOpener(catalogue, plan.openCases.key, status, { ...plan.openCases, sla });
  return { kind: 'indexed', catalogue, index, opener };
}

/** `inputs`: from prepareMatch(); `session`: with what `matchUses(plan)` declares open. */
export async function runMatch(plan: MatchPlan, inputs: MatchInputs, session: Session): Promise<void> {
  if (plan.watch) {
    const file = { catalog: plan.catalog, map: plan.map, learned: plan.learned };
    const source: WatchCatalogue =
      inputs.kind === 'indexed'
        ? {
            kind: 'indexed',
            start: {
              catalogue: inputs.catalogue,
              index: inputs.index,
              stamp: inputs.stamp,
              learnedStamp: inputs.learnedStamp,
            },
            ...file,
          }
        : { kind: 'streamed', head: inputs.head, ...file };
    return watchMatch(plan.watch, source, session, plan.openCases);
  }
  if (plan.recalls.kind === 'archive') {
    // Each run keeps what it found, so the next checks only the recalls stored since (docs/matching.md).
    const { incrementalMatch } = await import('./incremental-match.js');
    return incrementalMatch(plan, inputs, session, (output) => fullMatch(plan, inputs, session, output));
  }
  finish(plan, session, await fullMatch(plan, inputs, session));
}

/** Every recall of the window checked; `chosen`: the output (match --archive's keeps the rows it writes). */
async function fullMatch(
  plan: MatchPlan,
  inputs: MatchInputs,
  session: Session,
  chosen?: RecordOutput,
): Promise<MatchSummary> {
  if (inputs.kind === 'indexed') return runIndexed(plan, session, inputs, chosen);
  // The format was chosen before the archive was opened or a request sent (matchUses): a bad -f or -o costs nothing.
  const output = chosen ?? (await session.output());
  const { opener } = inputs;
  // Read with an opener: --archive --open-cases over a catalogue prepareMatch found large enough to stream (decided once).
  if (!opener && !(await largeEnoughToStream(plan.catalog))) {
    const indexed = await indexCatalogue(plan, session.status);
    return runIndexed(plan, session, { kind: 'indexed', ...indexed }, output);
  }
  const { ctx, status } = session;
  const learned = await readLearned(learnedPath(plan.catalog, plan.learned), status, plan.learned !== undefined);
  const source = plan.recalls;
  const counts = noCounts();
  const warnings: string[] = [];
  let read: StreamedCatalogue;
  const onMatch = opener && ((m: Match, recall: Record<string, unknown>) => opener.add(m, recall));
  const stream = (batches: Batches, keep: (recall: Record<string, unknown>) => boolean, out = output) =>
    streamMatchRows(plan, batches, keep, learned, out, counts, status, ctx.signal, { onMatch });
  if (source.kind === 'archive') {
    const archive = declaredStore(session);
    const query = { sinceUs: source.sinceUs, sources: source.sources, filter: plan.filter };
    const batches = archiveBatches(archive.records(query), ctx.signal);
    read = await stream(batches, () => true, casesBeforeCommit(output, opener, archive, session));
    warnings.push(...(await archiveFilterWarnings(archive, query)));
  } else {
    const api = await session.api({ needsKey: true });
    const coverage = new FilterCoverage(plan.filter);
    read = await stream(liveBatches(api.client, source), coverage.keep);
    warnings.push(...coverage.messages());
  }
  for (const warning of warnings) status.warn(warning);
  const { rejectedTotal, uncheckedTotal } = read.census;
  const report = catalogueReport(read, read.census.rejected, rejectedCount(read));
  const shape = { headers: read.headers, columns: read.columns, sha256: read.sha256, report };
  return { counts, catalogue: { rows: read.census.rows, rejected: rejectedTotal, unchecked: uncheckedTotal }, shape };
}

/** The live window's pages as batches, with the window's size. */
function liveBatches(
  client: Pick<RecallFeedClient, 'feedPages'>,
  source: Extract<RecallSource, { kind: 'live' }>,
): Batches {
  const pages = client.feedPages({ dataSources: source.sources, hoursAgo: source.hours, limit: BOUNDS.pageSizeMax });
  return (async function* () {
    for await (const page of pages)
      yield { records: page.data as Record<string, unknown>[], total: page.pagination.total_count };
  })();
}

/** `match` with the whole catalogue in memory: a small one (under STREAM_FROM_BYTES). */
async function runIndexed(
  plan: MatchPlan,
  session: Session,
  { catalogue, index, opener }: Extract<MatchInputs, { kind: 'indexed' }>,
  chosen?: RecordOutput,
): Promise<MatchSummary> {
  const { ctx } = session;
  const output = chosen ?? (await session.output());
  const source = plan.recalls;
  const status = session.status;
  let counts: Awaited<ReturnType<typeof matchAll>>;
  if (source.kind === 'archive') {
    // Offline: no key, no request; the filters the archive can answer become SQL. Opening cases writes to the
    // archive; matching alone only reads it (a read-only file or role will do): matchUses() declared which.
    const archive = declaredStore(session);
    reportCatalogue(catalogue, index.rejected, status);
    const records = archive.records({ sinceUs: source.sinceUs, sources: source.sources, filter: plan.filter });
    const batches = archiveBatches(records, ctx.signal);
    const onMatch = opener && ((m: Match, recall: Record<string, unknown>) => opener.add(m, recall));
    const out = casesBeforeCommit(output, opener, archive, session);
    counts = await matchAll(plan, catalogue, index, batches, () => true, out, status, ctx.signal, onMatch);
    const query = { sinceUs: source.sinceUs, sources: source.sources, filter: plan.filter };
    for (const warning of await archiveFilterWarnings(archive, query)) status.warn(warning);
  } else {
    const api = await session.api({ needsKey: true });
    reportCatalogue(catalogue, index.rejected, status);
    const coverage = new FilterCoverage(plan.filter);
    const batches = liveBatches(api.client, source);
    counts = await matchAll(plan, catalogue, index, batches, coverage.keep, output, status, ctx.signal);
    for (const warning of coverage.messages()) status.warn(warning);
  }
  const rejected = index.rejected.filter((r) => !r.unchecked).length;
  const unchecked = index.rejected.length - rejected;
  const report = catalogueReport(catalogue, index.rejected);
  const shape = { headers: catalogue.headers, columns: catalogue.columns, sha256: catalogue.sha256, report };
  return { counts, catalogue: { rows: catalogue.rows.length, rejected, unchecked }, shape };
}
