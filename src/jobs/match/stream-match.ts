// `match`'s streaming path (every format): the recalls indexed, the catalogue read twice as a stream, memory flat in its size.
import { promises as fs } from 'node:fs';
import { groupDigits } from '../../output/numbers.js';
import { type Catalogue, CatalogueChangedError } from '../../match/catalogue.js';
import type { Learned } from '../../match/learned.js';
import { type AliasLookup, aliasLookup } from '../../match/brand-aliases.js';
import type { Match } from '../../match/matcher.js';
import { RecallIndex } from '../../match/recall-index.js';
import { readCensus, type StreamedCatalogue, streamMatches } from '../../match/stream-matches.js';
import type { RecordOutput } from '../../runtime/files/record-output.js';
import type { StatusReporter } from '../../runtime/terminal/status.js';
import { asUsageError, usageErrorOf } from '../matching/load-catalogue.js';
import { MatchSpool } from './match-spool.js';
import {
  byLevelThenSeverity,
  matchColumns,
  matchRow,
  matchTableColumns,
  reportCatalogue,
} from '../matching/match-rows.js';

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

/** A run's counts before it has seen anything. */
export const noCounts = (): MatchCounts => ({ fetched: 0, checked: 0, match: 0, possible: 0, excluded: 0 });

/**
 * Recalls held at once. Memory grows with the recalls, not the catalogue; a bigger window (a year of the archive)
 * is matched this many recalls at a time, each chunk one more pair of passes over the catalogue. The output order
 * (per recall, in the recalls' order) is the same either way.
 */
export const RECALL_CHUNK = 5_000;

/**
 * Catalogues smaller than this are indexed whole, as before (one read, no second pass): the answers and their order
 * are the same either way. Indexed whole, a catalogue costs about 30 bytes of heap per byte of file (measured
 * 2026-11-28: a 4.9 MB file of 100,000 rows, 47 MB read and 94 MB indexed), so up to some 250 MB.
 */
export const STREAM_FROM_BYTES = 8 * 1024 * 1024;

/**
 * Whether `match` streams this catalogue: a file big enough for its index to weigh, in any format (a table is sorted
 * for people: its rows, not the catalogue's, are held to the end).
 */
export async function largeEnoughToStream(file: string): Promise<boolean> {
  try {
    return (await fs.stat(file)).size >= STREAM_FROM_BYTES;
  } catch {
    // The reader says what is wrong with it.
    return false;
  }
}

/** The next recalls `keep` accepts, indexed, up to about `limit`; `done` when the source has no more. */
async function nextRecalls(
  batches: AsyncIterator<{ records: Record<string, unknown>[]; total?: number }>,
  keep: (recall: Record<string, unknown>) => boolean,
  counts: MatchCounts,
  status: StatusReporter,
  signal: AbortSignal,
  limit: number,
  aliases: AliasLookup | undefined,
): Promise<{ index: RecallIndex; done: boolean }> {
  const index = new RecallIndex(aliases);
  while (index.recalls.length < limit) {
    const next = await batches.next();
    if (next.done) return { index, done: true };
    for (const recall of next.value.records) {
      counts.fetched++;
      if (!keep(recall)) continue;
      counts.checked++;
      index.add(recall);
    }
    const of = next.value.total === undefined ? '' : ` of ${groupDigits(next.value.total)}`;
    status.progress(`fetching recalls… ${groupDigits(counts.fetched)}${of}`);
    if (signal.aborted) throw signal.reason;
  }
  return { index, done: false };
}

export interface StreamOptions {
  /** Recalls held at once (RECALL_CHUNK). */
  chunk?: number;
  /** Each match and possible row found, with its recall, as it is found (match --open-cases). */
  onMatch?: ((match: Match, recall: Record<string, unknown>) => void) | undefined;
}

/**
 * For each chunk of recalls: the catalogue's census (first pass; its warnings said after the first), then the match
 * rows (second pass), written in match's documented order: per recall, matches, possibles, excluded, each by reason
 * and catalogue line. Returns the catalogue as read.
 */
export async function streamMatchRows(
  plan: StreamPlan,
  batches: RecallBatches,
  keep: (recall: Record<string, unknown>) => boolean,
  learned: Learned | undefined,
  output: RecordOutput,
  counts: MatchCounts,
  status: StatusReporter,
  signal: AbortSignal,
  { chunk = RECALL_CHUNK, onMatch }: StreamOptions = {},
): Promise<StreamedCatalogue> {
  let catalogue: StreamedCatalogue | undefined;
  const onRows = (pass: 'reading' | 'matching', rows: number) => {
    const of = pass === 'matching' ? ` of ${groupDigits(catalogue?.census.rows ?? 0)}` : '';
    status.progress(`${pass} the catalogue… ${groupDigits(rows)}${of} rows`);
    if (signal.aborted) throw signal.reason;
  };
  const recalls = batches[Symbol.asyncIterator]();
  const aliases = aliasLookup(learned?.aliases);
  // A table's rows (the matches: few beside the catalogue), written sorted for people at the end.
  const held: Record<string, unknown>[] | undefined = output.format.forPeople ? [] : undefined;
  await status.start('fetching recalls…');
  await output.write(async (sink) => {
    let renderer: ReturnType<typeof sink.renderer> | undefined;
    for (let done = false; !done; ) {
      const next = await nextRecalls(recalls, keep, counts, status, signal, chunk, aliases);
      done = next.done;
      // An empty last chunk has nothing to match (the first one still reads the catalogue: its rows, its warnings).
      if (catalogue && next.index.recalls.length === 0) break;
      const read = await asUsageError(() => readCensus(plan.catalog, plan.map, next.index, onRows));
      if (!catalogue) reportCatalogue(read, read.census.rejected, status, rejectedCount(read));
      else if (read.sha256 !== catalogue.sha256) throw usageErrorOf(new CatalogueChangedError(plan.catalog));
      catalogue = read;
      renderer ??= sink.renderer({
        tableColumns: matchTableColumns(read, plan.explain),
        csvColumns: matchColumns(read, plan.explain),
        columnKinds: { catalog_line: 'integer', recall_id: 'integer', published_at: 'timestamp' },
        formulaGuard: plan.formulaGuard,
        bom: plan.bom,
        wholeHeaders: true,
      });
      const out = renderer;
      const spool = new MatchSpool();
      try {
        const options = { explain: plan.explain === true, learned, onRows };
        for await (const batch of streamMatches(read, next.index, options))
          for (const { recall, match } of batch) {
            counts[match.level]++;
            await spool.add(recall.order, match, matchRow(match, recall.recall, plan.explain));
            // An excluded row is listed (the proof nothing was over-pulled) but never opens a case.
            if (match.level !== 'excluded') onMatch?.(match, recall.recall);
          }
        for await (const rows of spool.rows())
          if (held) for (const row of rows) held.push(row);
          else await status.around(() => out.write(rows));
      } catch (err) {
        throw usageErrorOf(err);
      } finally {
        await spool.close();
      }
    }
    // As the whole catalogue in memory writes a table: matches first, possibles, excluded, by severity within each
    // (a stable sort of the rows in the order above).
    const table = renderer;
    if (held && table) await status.around(() => table.write(held.sort(byLevelThenSeverity)));
    await renderer?.end();
  });
  status.stop();
  return catalogue as StreamedCatalogue;
}

/** The rejected and unchecked barcodes of the whole file (its census lists only the first). */
export const rejectedCount = (c: StreamedCatalogue) => c.census.rejectedTotal + c.census.uncheckedTotal;
