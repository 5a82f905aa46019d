// `match`'s streaming path (csv, jsonl, json): the recalls indexed, the catalogue read twice as a stream, memory flat in its size.
import { groupDigits } from '../../output/numbers.js';
import type { Catalogue } from '../../match/catalogue.js';
import type { Learned } from '../../match/learned.js';
import { RecallIndex } from '../../match/recall-index.js';
import { readCensus, type StreamedCatalogue, streamMatches } from '../../match/stream-matches.js';
import type { RecordOutput } from '../../runtime/files/record-output.js';
import type { StatusReporter } from '../../runtime/terminal/status.js';
import { asUsageError, usageErrorOf } from './load-catalogue.js';
import { MatchSpool } from './match-spool.js';
import { matchColumns, matchRow, matchTableColumns, reportCatalogue } from './match-rows.js';

/** The machine formats stream; a table is sorted for people, so it needs every row first. */
export const STREAMED_FORMATS: ReadonlySet<string> = new Set(['csv', 'jsonl', 'json']);

export interface StreamPlan {
  catalog: string;
  map: Catalogue['columns'];
  explain?: boolean;
  formulaGuard: boolean;
  bom: boolean;
}

/** Recalls in batches, with the window's size when the source knows it. */
export type RecallBatches = AsyncIterable<{ records: Record<string, unknown>[]; total?: number }>;

export interface MatchCounts {
  fetched: number;
  checked: number;
  match: number;
  possible: number;
  excluded: number;
}

/** The recalls `keep` accepts, indexed: the small side, held while the catalogue streams past. */
export async function indexRecalls(
  batches: RecallBatches,
  keep: (recall: Record<string, unknown>) => boolean,
  counts: MatchCounts,
  status: StatusReporter,
  signal: AbortSignal,
): Promise<RecallIndex> {
  const index = new RecallIndex();
  await status.start('fetching recalls…');
  for await (const batch of batches) {
    for (const recall of batch.records) {
      counts.fetched++;
      if (!keep(recall)) continue;
      counts.checked++;
      index.add(recall);
    }
    const of = batch.total === undefined ? '' : ` of ${groupDigits(batch.total)}`;
    status.progress(`fetching recalls… ${groupDigits(counts.fetched)}${of}`);
    if (signal.aborted) throw signal.reason;
  }
  return index;
}

/**
 * Reads the catalogue's census (first pass), says its warnings, then finds the match rows (second pass) and writes
 * them in match's documented order: per recall, matches, possibles, excluded, each by catalogue line. Returns the
 * catalogue as read.
 */
export async function streamMatchRows(
  plan: StreamPlan,
  index: RecallIndex,
  learned: Learned | undefined,
  output: RecordOutput,
  counts: MatchCounts,
  status: StatusReporter,
  signal: AbortSignal,
): Promise<StreamedCatalogue> {
  const onRows = (pass: 'reading' | 'matching', rows: number) => {
    const of = pass === 'matching' ? ` of ${groupDigits(catalogue?.census.rows ?? 0)}` : '';
    status.progress(`${pass === 'reading' ? 'reading' : 'matching'} the catalogue… ${groupDigits(rows)}${of} rows`);
    if (signal.aborted) throw signal.reason;
  };
  let catalogue: StreamedCatalogue | undefined;
  catalogue = await asUsageError(() => readCensus(plan.catalog, plan.map, index, onRows));
  const read = catalogue;
  reportCatalogue(read, read.census.rejected, status, rejectedCount(read));
  await output.write(async (sink) => {
    const renderer = sink.renderer({
      tableColumns: matchTableColumns(read, plan.explain),
      csvColumns: matchColumns(read, plan.explain),
      columnKinds: { catalog_line: 'integer', recall_id: 'integer', published_at: 'timestamp' },
      formulaGuard: plan.formulaGuard,
      bom: plan.bom,
      wholeHeaders: true,
    });
    const spool = new MatchSpool();
    try {
      for await (const batch of streamMatches(read, index, { explain: plan.explain === true, learned, onRows })) {
        for (const { recall, match } of batch) {
          counts[match.level]++;
          await spool.add(recall.order, match, matchRow(match, recall.recall, plan.explain));
        }
      }
      for await (const rows of spool.rows()) await status.around(() => renderer.write(rows));
    } catch (err) {
      throw usageErrorOf(err);
    } finally {
      await spool.close();
    }
    await renderer.end();
  });
  status.stop();
  return read;
}

const rejectedCount = (c: StreamedCatalogue) => c.census.rejectedTotal + c.census.uncheckedTotal;
