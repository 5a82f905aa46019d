// `match --watch` over a catalogue large enough to stream: each poll's new recalls indexed, the catalogue read past them.
import { aliasLookup } from '../../match/brand-aliases.js';
import { CatalogueChangedError } from '../../match/catalogue.js';
import type { Match } from '../../match/matcher.js';
import { RecallIndex } from '../../match/recall-index.js';
import { readCensus, streamMatches } from '../../match/stream-matches.js';
import { groupDigits } from '../../output/numbers.js';
import type { StatusReporter } from '../../runtime/terminal/status.js';
import { asUsageError, usageErrorOf } from '../matching/load-catalogue.js';
import { matchRow, reportCatalogue } from '../matching/match-rows.js';
import { MatchSpool } from './match-spool.js';
import { rejectedCount } from './stream-match.js';
import {
  laterReadError,
  learnedFileStamp,
  type PollMatcher,
  type PollRows,
  type HeldSoFar,
  readWatchedLearned,
  sameOrNone,
  sayChanged,
  sayLearnedChanged,
  WatchedColumns,
  type WatchedFile,
} from './watch-polls.js';

/** Reads of the catalogue one poll tries when the file is rewritten while it is read (a nightly export landing). */
const READS = 3;

/** A match or possible pair found, kept for its case until the poll's reads agree. */
type Found = { match: Match; recall: Record<string, unknown> };

/**
 * The catalogue is read twice at each poll that brings new recalls, and at the first poll in any case (its warnings
 * said then): memory flat in its size, and each poll checks the file as it is then. A file replaced since the last
 * read is said, with its warnings; one rewritten during a poll's reads is read again (READS); one that cannot be read
 * at a later poll fails that poll only (laterReadError); one whose columns changed ends the watch (its rows' columns
 * are fixed), as a usage error. What `match --learn` learned is read again when its file's stamp changes, as the
 * catalogue held whole does.
 */
export async function streamedPolls(
  plan: WatchedFile,
  status: StatusReporter,
  signal: AbortSignal,
  /** A watch that held the catalogue whole until it grew: the columns its rows have, and the bytes it last said. */
  held?: HeldSoFar,
): Promise<PollMatcher> {
  let learnedStamp = await learnedFileStamp(plan);
  let learned = await readWatchedLearned(plan, status);
  const onRows = (pass: 'reading' | 'matching', rows: number) => {
    status.progress(`${pass} the catalogue… ${groupDigits(rows)} rows`);
    if (signal.aborted) throw signal.reason;
  };
  let first: { shape: PollRows['shape']; columns: WatchedColumns } | undefined = held;
  let said = held?.sha256;

  /** The census of this poll's recalls, checked against the first poll's columns; a new file's warnings said. */
  async function census(index: RecallIndex) {
    const catalogue = await readCensus(plan.catalog, plan.map, index, onRows);
    first ??= { shape: catalogue, columns: new WatchedColumns(plan.catalog, catalogue) };
    first.columns.check(catalogue);
    if (catalogue.sha256 !== said) {
      if (said !== undefined) sayChanged(plan.catalog, catalogue.census.rows, status);
      reportCatalogue(catalogue, catalogue.census.rejected, status, rejectedCount(catalogue));
      said = catalogue.sha256;
    }
    return catalogue;
  }

  /** The rows spooled in order; with `found`, each match and possible pair kept for its case. */
  async function matchOnce(index: RecallIndex, found?: Found[]) {
    const catalogue = await census(index);
    const spool = new MatchSpool();
    try {
      for await (const batch of streamMatches(catalogue, index, { learned, onRows }))
        for (const { recall, match } of batch) {
          await spool.add(recall.order, match, matchRow(match, recall.recall));
          if (found && match.level !== 'excluded') found.push({ match, recall: recall.recall });
        }
    } catch (err) {
      await spool.close();
      throw err;
    }
    return { shape: first?.shape ?? catalogue, batches: () => spool.rows(), close: () => spool.close() };
  }

  return {
    async poll(records, onMatch) {
      const later = first !== undefined;
      const stamp = records.length > 0 ? await learnedFileStamp(plan) : learnedStamp;
      if (!sameOrNone(stamp, learnedStamp)) {
        learnedStamp = stamp;
        learned = await readWatchedLearned(plan, status);
        sayLearnedChanged(plan, stamp, status);
      }
      const index = new RecallIndex(aliasLookup(learned?.aliases));
      for (const recall of records) index.add(recall);
      // Nothing to match: the catalogue is read only at the first poll, for its warnings (and once, not twice).
      if (records.length === 0) {
        const shape = first?.shape ?? (await asUsageError(() => census(index)));
        return { shape, batches: async function* () {}, close: async () => {} };
      }
      for (let attempt = 1; ; attempt++) {
        const found: Found[] | undefined = onMatch && [];
        try {
          const rows = await matchOnce(index, found);
          for (const { match, recall } of found ?? []) onMatch?.(match, recall);
          return rows;
        } catch (err) {
          // Its two passes disagree: read again, as it is now.
          if (err instanceof CatalogueChangedError && attempt < READS) continue;
          // A watch that ran on it goes on: an export that replaces the file in place is still writing it.
          throw later ? laterReadError(err) : usageErrorOf(err);
        }
      }
    },
  };
}
