// `match --watch` over a catalogue large enough to stream: each poll's new recalls indexed, the catalogue read past them.
import { aliasLookup } from '../../match/brand-aliases.js';
import { type Catalogue, CatalogueChangedError } from '../../match/catalogue.js';
import type { ColumnMap } from '../../match/catalogue-columns.js';
import type { Match } from '../../match/matcher.js';
import { RecallIndex } from '../../match/recall-index.js';
import { readCensus, streamMatches } from '../../match/stream-matches.js';
import { groupDigits } from '../../output/numbers.js';
import { UsageError } from '../../runtime/cli-errors.js';
import type { StatusReporter } from '../../runtime/terminal/status.js';
import { learnedPath, readLearned } from '../matching/learned-file.js';
import { asUsageError, usageErrorOf } from '../matching/load-catalogue.js';
import { matchRow, reportCatalogue } from '../matching/match-rows.js';
import { MatchSpool } from './match-spool.js';
import { rejectedCount } from './stream-match.js';

/** Each poll's new recalls checked against the catalogue. */
export interface PollMatcher {
  /** The header and columns the rows are written with. */
  readonly shape: Pick<Catalogue, 'headers' | 'columns'>;
  /**
   * The poll's match rows in match's documented order (per recall, oldest first: matches, possibles, excluded);
   * `onMatch` is given each match and possible pair (its case), once the rows are known.
   */
  rows(
    records: readonly Record<string, unknown>[],
    onMatch?: (match: Match, recall: Record<string, unknown>) => void,
  ): Promise<Record<string, unknown>[]>;
}

/** Reads of the catalogue one poll tries when the file is rewritten while it is read (a nightly export landing). */
const READS = 3;

export interface StreamedWatchPlan {
  catalog: string;
  map: ColumnMap;
  learned?: string | undefined;
}

/**
 * The catalogue is read once at the start (its rows counted, its warnings said, its header kept for the output's
 * columns), then twice per poll that brings new recalls: memory flat in its size, and each poll checks the file as it
 * is then. A file replaced since the last read is said, with its warnings; one whose columns changed ends the watch
 * (its rows' columns are fixed), as a usage error.
 */
export async function streamedPolls(
  plan: StreamedWatchPlan,
  status: StatusReporter,
  signal: AbortSignal,
): Promise<PollMatcher> {
  const learned = await readLearned(learnedPath(plan.catalog, plan.learned), status);
  const aliases = aliasLookup(learned?.aliases);
  const onRows = (pass: 'reading' | 'matching', rows: number) => {
    status.progress(`${pass} the catalogue… ${groupDigits(rows)} rows`);
    if (signal.aborted) throw signal.reason;
  };
  const read = (index: RecallIndex) => readCensus(plan.catalog, plan.map, index, onRows);
  const first = await asUsageError(() => read(new RecallIndex(aliases)));
  reportCatalogue(first, first.census.rejected, status, rejectedCount(first));
  let said = first.sha256;
  const columns = JSON.stringify([first.headers, first.columns]);

  async function pollRows(index: RecallIndex) {
    const catalogue = await read(index);
    if (JSON.stringify([catalogue.headers, catalogue.columns]) !== columns)
      throw new UsageError(
        `the catalogue ${plan.catalog} has other columns than when the watch started`,
        'start the watch again to write its new columns',
      );
    if (catalogue.sha256 !== said) {
      status.note(`catalogue ${plan.catalog} changed: ${groupDigits(catalogue.census.rows)} rows`);
      reportCatalogue(catalogue, catalogue.census.rejected, status, rejectedCount(catalogue));
      said = catalogue.sha256;
    }
    const spool = new MatchSpool();
    const found: { match: Match; recall: Record<string, unknown> }[] = [];
    try {
      for await (const batch of streamMatches(catalogue, index, { learned, onRows }))
        for (const { recall, match } of batch) {
          await spool.add(recall.order, match, matchRow(match, recall.recall));
          if (match.level !== 'excluded') found.push({ match, recall: recall.recall });
        }
      const rows: Record<string, unknown>[] = [];
      for await (const batch of spool.rows()) for (const row of batch) rows.push(row);
      return { rows, found };
    } finally {
      await spool.close();
    }
  }

  return {
    shape: first,
    async rows(records, onMatch) {
      if (records.length === 0) return [];
      const index = new RecallIndex(aliases);
      for (const recall of records) index.add(recall);
      for (let attempt = 1; ; attempt++) {
        try {
          const { rows, found } = await pollRows(index);
          for (const { match, recall } of found) onMatch?.(match, recall);
          return rows;
        } catch (err) {
          // Its two passes disagree: read again, as it is now.
          if (err instanceof CatalogueChangedError && attempt < READS) continue;
          throw usageErrorOf(err);
        }
      }
    },
  };
}
