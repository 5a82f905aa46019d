// What `match --watch` checks each poll's recalls with, and the catalogue held whole (under STREAM_FROM_BYTES) read again
// when its file changes.
import { type Catalogue, CatalogueReadError, readCatalogue } from '../../match/catalogue.js';
import type { ColumnMap } from '../../match/catalogue-columns.js';
import { CatalogueIndex, type Match } from '../../match/matcher.js';
import { counted } from '../../output/numbers.js';
import { CliError, UsageError } from '../../runtime/cli-errors.js';
import { EXIT } from '../../runtime/exit-codes.js';
import type { StatusReporter } from '../../runtime/terminal/status.js';
import { learnedPath, readLearned } from '../matching/learned-file.js';
import { usageErrorOf } from '../matching/load-catalogue.js';
import { matchRow, reportCatalogue } from '../matching/match-rows.js';
import { type FileStamp, fileStamp, sameStamp } from './catalogue-note.js';
import { STREAM_FROM_BYTES } from './stream-match.js';

/** One poll's match rows, in match's documented order (per recall, oldest first: matches, possibles, excluded). */
export interface PollRows {
  /** The catalogue's header and columns as this poll read it: the same at every poll. */
  shape: Pick<Catalogue, 'headers' | 'columns'>;
  /** The rows, in batches; read once. */
  batches(): AsyncIterable<Record<string, unknown>[]> | Iterable<Record<string, unknown>[]>;
  /** Drops what `batches` did not read (a spooled file). */
  close(): Promise<void>;
}

/** Each poll's new recalls checked against the catalogue. */
export interface PollMatcher {
  /** `onMatch` is given each match and possible pair (its case) before this returns. */
  poll(
    records: readonly Record<string, unknown>[],
    onMatch?: (match: Match, recall: Record<string, unknown>) => void,
  ): Promise<PollRows>;
}

/**
 * The catalogue could not be read at a poll after the first (missing, or still being written): that poll fails, its
 * recalls are not remembered, and the next poll tries again. At the first poll the same is a usage error (exit 2).
 */
export class CatalogueUnreadableError extends CliError {
  override name = 'CatalogueUnreadableError';
  readonly exitCode: number = EXIT.usage;
}

/** The file a watch reads its catalogue from, with match's --map and --learned. */
export interface WatchedFile {
  catalog: string;
  map: ColumnMap;
  learned?: string | undefined;
}

/**
 * A read error of a poll after the first, as CatalogueUnreadableError (the watch goes on); a column the file no longer
 * has is a usage error (it ends).
 */
export function laterReadError(err: unknown): unknown {
  if (!(err instanceof CatalogueReadError)) return usageErrorOf(err);
  return new CatalogueUnreadableError(
    err.message,
    'the next poll reads it again; replace the file in one step (write it beside, then rename it)',
  );
}

/** The columns a watch's rows were first written with, against those of the file as read now. */
export class WatchedColumns {
  private readonly columns: string;

  constructor(
    private readonly file: string,
    shape: Pick<Catalogue, 'headers' | 'columns'>,
  ) {
    this.columns = WatchedColumns.of(shape);
  }

  private static of(shape: Pick<Catalogue, 'headers' | 'columns'>): string {
    return JSON.stringify([shape.headers, shape.columns]);
  }

  /** A usage error (the watch ends) when the file's columns are no longer those its rows are written with. */
  check(shape: Pick<Catalogue, 'headers' | 'columns'>): void {
    if (WatchedColumns.of(shape) !== this.columns)
      throw new UsageError(
        `the catalogue ${this.file} has other columns than when the watch started`,
        'start the watch again to write its new columns',
      );
  }
}

/**
 * The stamp of what `match --learn` wrote for the catalogue (match's --learned, else beside it); undefined when there
 * is no file. Taken before the file is read: a watch reads it again when the stamp changes, so a weekly `--learn`
 * reaches a watch that runs for months.
 */
export function learnedFileStamp(file: WatchedFile): Promise<FileStamp | undefined> {
  return fileStamp(learnedPath(file.catalog, file.learned));
}

/** The same stamp, or no file either time. */
export const sameOrNone = (a: FileStamp | undefined, b: FileStamp | undefined) =>
  a === undefined || b === undefined ? a === b : sameStamp(a, b);

/** What `match --learn` wrote for a watched catalogue, as it is now (undefined without one). */
export const readWatchedLearned = (file: WatchedFile, status: StatusReporter) =>
  readLearned(learnedPath(file.catalog, file.learned), status, file.learned !== undefined);

/** Says a learned file read again: changed, or gone (one that is not a file `--learn` wrote was said as it was read). */
export function sayLearnedChanged(
  file: WatchedFile,
  stamp: FileStamp | undefined,
  status: Pick<StatusReporter, 'note'>,
): void {
  const where = learnedPath(file.catalog, file.learned);
  status.note(
    stamp === undefined
      ? `${where} is gone: matching without what match --learn learned`
      : `${where} changed: matching with what match --learn learned now`,
  );
}

/** Says a catalogue read again whose bytes changed, and its rows (its warnings follow, from reportCatalogue). */
export function sayChanged(file: string, rows: number, status: Pick<StatusReporter, 'note'>): void {
  status.note(`catalogue ${file} changed: ${counted(rows, 'row', 'rows')}`);
}

/** A catalogue held whole, with its index, and the stamps its file and its learned file had just before they were read. */
export interface IndexedCatalogue {
  catalogue: Catalogue;
  index: CatalogueIndex;
  stamp: FileStamp | undefined;
  learnedStamp: FileStamp | undefined;
}

/** The file read and indexed again, as it is now, with the learned file as it is now; its errors as they are. */
async function reindex(file: WatchedFile, status: StatusReporter): Promise<IndexedCatalogue> {
  const stamp = await fileStamp(file.catalog);
  const learnedStamp = await learnedFileStamp(file);
  const catalogue = await readCatalogue(file.catalog, file.map);
  const index = new CatalogueIndex(catalogue, { learned: await readWatchedLearned(file, status) });
  return { catalogue, index, stamp, learnedStamp };
}

/** What a watch that held its catalogue whole hands on when the file grows large enough to stream. */
export interface HeldSoFar {
  shape: Pick<Catalogue, 'headers' | 'columns'>;
  columns: WatchedColumns;
  sha256: string | undefined;
}

/**
 * The poll matcher of a catalogue held whole: each poll that brings recalls first looks at the stamps of the file and
 * of its learned file, and reads and indexes them again when either changed (a catalogue replaced since, said when its
 * bytes differ; a learned file written or removed since, said). A file grown to STREAM_FROM_BYTES or more is not held:
 * the watch goes on with `streamed`, for good.
 */
export function indexedPolls(
  start: IndexedCatalogue,
  file: WatchedFile,
  status: StatusReporter,
  streamed: (held: HeldSoFar) => Promise<PollMatcher>,
  /** Told of a catalogue read again whose bytes changed, after its warnings (--open-cases says its keys'). */
  onChanged?: (catalogue: Catalogue) => void,
): PollMatcher {
  reportCatalogue(start.catalogue, start.index.rejected, status);
  const columns = new WatchedColumns(start.catalogue.file, start.catalogue);
  let current = start;
  let handedOn: PollMatcher | undefined;
  /** The catalogue as it is now: held again when it changed, or undefined once it is to be streamed. */
  async function fresh(): Promise<IndexedCatalogue | undefined> {
    const stamp = await fileStamp(current.catalogue.file);
    const same = stamp && current.stamp && sameStamp(stamp, current.stamp);
    if (same && sameOrNone(await learnedFileStamp(file), current.learnedStamp)) return current;
    if (stamp && Number(stamp[2]) >= STREAM_FROM_BYTES) return undefined;
    let next: IndexedCatalogue;
    try {
      next = await reindex(file, status);
    } catch (err) {
      throw laterReadError(err);
    }
    columns.check(next.catalogue);
    if (next.catalogue.sha256 !== current.catalogue.sha256) {
      sayChanged(next.catalogue.file, next.catalogue.rows.length, status);
      reportCatalogue(next.catalogue, next.index.rejected, status);
      onChanged?.(next.catalogue);
    }
    if (!sameOrNone(next.learnedStamp, current.learnedStamp)) sayLearnedChanged(file, next.learnedStamp, status);
    current = next;
    return next;
  }
  return {
    async poll(records, onMatch) {
      if (handedOn) return handedOn.poll(records, onMatch);
      const now = records.length === 0 ? current : await fresh();
      if (!now) {
        const { catalogue } = current;
        handedOn = await streamed({ shape: catalogue, columns, sha256: catalogue.sha256 });
        return handedOn.poll(records, onMatch);
      }
      const { catalogue, index } = now;
      const rows = records.flatMap((recall) =>
        index.match(recall).map((m) => {
          if (m.level !== 'excluded') onMatch?.(m, recall);
          return matchRow(m, recall);
        }),
      );
      return { shape: catalogue, batches: () => [rows], close: async () => {} };
    },
  };
}
