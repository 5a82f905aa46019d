// What a `match` run is given: its plan (from the flags), where its recalls come from, and what it read first.
import type { Catalogue } from '../../match/catalogue.js';
import type { ColumnMap } from '../../match/catalogue-columns.js';
import type { CatalogueIndex } from '../../match/matcher.js';
import type { RecordFilter } from '../../filters/record-filter.js';
import type { DbChoice } from '../../runtime/archive/archive-file.js';
import type { CaseOpener } from '../matching/open-cases.js';
import type { Sla } from '../matching/sla.js';
import type { FileStamp } from './catalogue-note.js';
import type { MatchWatchPlan } from './watch-match.js';

/** Where the recalls come from: the live window (a key, requests) or the archive (offline). */
export type RecallSource =
  | { kind: 'live'; sources: string[] | undefined; hours: number | undefined }
  | { kind: 'archive'; db: DbChoice; sources: string[] | undefined; sinceUs: number | undefined };

export interface MatchPlan {
  catalog: string;
  map: ColumnMap;
  recalls: RecallSource;
  filter: RecordFilter;
  exitCode: boolean;
  formulaGuard: boolean;
  bom: boolean;
  /** `match --watch`: its polls of the feed (interval, state, actions) and how its rows are written. */
  watch: MatchWatchPlan | undefined;
  /** `--explain`: each row says which rule fired on which normalised values. */
  explain?: boolean;
  /** `--open-cases`: the key column (--key) and, with --watch, the archive (--db) the cases go to. */
  openCases?: CasesPlan | undefined;
  /** `--learned <file>`: what match --learn learned (default: beside the catalogue, when there is one). */
  learned?: string | undefined;
  /** `--archive --full`: check every recall, not only those stored since the last run (and keep this run's state). */
  full?: boolean;
}

/** `--open-cases`: the key column (--key), the levels that open a case (--level), the deadline (--sla), and with --watch the archive (--db). */
export interface CasesPlan {
  key: string | undefined;
  db: DbChoice;
  levels?: readonly ('match' | 'possible')[];
  sla?: Sla | undefined;
}

/**
 * What a match reads first (prepareMatch). `indexed`: the whole catalogue in memory, for --watch and --open-cases over
 * a small catalogue, with the opener of its cases from the archive; `head`: only the header checked, the rows read
 * once the output is known (streamed, or indexed when small; a large one streamed again at each poll of --watch), with
 * the opener of `--archive --open-cases` when the catalogue is large enough to stream (its rows' keys worked out as
 * they are found).
 */
export type MatchInputs =
  | {
      kind: 'indexed';
      catalogue: Catalogue;
      index: CatalogueIndex;
      opener?: CaseOpener | undefined;
      /** With --watch: the file's stamp before it was read (a poll reads it again when it changes). */
      stamp?: FileStamp | undefined;
      /** With --watch: the stamp of what `match --learn` wrote, before the index read it (no file: undefined). */
      learnedStamp?: FileStamp | undefined;
    }
  | { kind: 'head'; head: Omit<Catalogue, 'rows'>; opener?: CaseOpener | undefined };
