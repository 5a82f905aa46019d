// What a full and an incremental `match --archive` share: the catalogue indexed, the rows' renderer, the last line.
import { BOUNDS } from '../../api/constants.js';
import type { Catalogue } from '../../match/catalogue.js';
import { REJECTED_KEPT } from '../../match/catalogue-census.js';
import { CatalogueIndex, type RejectedCode } from '../../match/matcher.js';
import { counted, groupDigits } from '../../output/numbers.js';
import type { ArchiveStore } from '../../archive/store.js';
import { writing } from '../../runtime/archive/archive-file.js';
import { MatchesFoundError } from '../../runtime/cli-errors.js';
import type { RecordOutput, RowsSpec } from '../../runtime/files/record-output.js';
import { tellsSuccess } from '../../runtime/files/write-output.js';
import type { Session } from '../../runtime/session.js';
import type { StatusReporter } from '../../runtime/terminal/status.js';
import { learnedPath, readLearned } from '../matching/learned-file.js';
import { loadCatalogue } from '../matching/load-catalogue.js';
import { matchColumns, matchTableColumns } from '../matching/match-rows.js';
import { type CaseOpener, casesLine, keyColumn } from '../matching/open-cases.js';
import type { MatchPlan, RecallSource } from './match-plan.js';
import type { CatalogueReport } from './match-state.js';
import type { MatchCounts } from './stream-match.js';

/** What a run found, for its last line: the counts, and the catalogue's rows and rejected barcodes. */
export interface MatchSummary {
  counts: MatchCounts;
  catalogue: { rows: number; rejected: number; unchecked: number };
  /** The catalogue's header as read, the sha256 of its bytes and its warnings: what an incremental run keeps of it. */
  shape?: Pick<Catalogue, 'headers' | 'columns' | 'sha256'> & { report: CatalogueReport };
}

/** What reportCatalogue says of a catalogue as read, kept: `rejected` may list only the first of `total` codes. */
export function catalogueReport(
  { readAs, repeated, ragged }: Omit<Catalogue, 'rows'>,
  rejected: readonly RejectedCode[],
  total = rejected.length,
): CatalogueReport {
  return { readAs, repeated, ragged, rejected: rejected.slice(0, REJECTED_KEPT), total };
}

/** The catalogue read and indexed: a bad file, or a --key it lacks, costs no quota and writes nothing. */
export async function indexCatalogue(
  plan: Pick<MatchPlan, 'catalog' | 'map' | 'openCases' | 'learned'>,
  status: StatusReporter,
): Promise<{ catalogue: Catalogue; index: CatalogueIndex }> {
  const catalogue = await loadCatalogue(plan.catalog, plan.map);
  if (plan.openCases) keyColumn(catalogue, plan.openCases.key);
  const learned = await readLearned(learnedPath(plan.catalog, plan.learned), status, plan.learned !== undefined);
  return { catalogue, index: new CatalogueIndex(catalogue, { learned }) };
}

/** How match rows are rendered: the columns of this catalogue's header, and the plan's csv options. */
export function matchRowsSpec(
  plan: Pick<MatchPlan, 'explain' | 'formulaGuard' | 'bom'>,
  catalogue: Pick<Catalogue, 'headers' | 'columns'>,
): RowsSpec {
  return {
    tableColumns: matchTableColumns(catalogue, plan.explain),
    csvColumns: matchColumns(catalogue, plan.explain),
    columnKinds: { catalog_line: 'integer', recall_id: 'integer', published_at: 'timestamp' },
    formulaGuard: plan.formulaGuard,
    bom: plan.bom,
    wholeHeaders: true,
  };
}

/**
 * Which recalls the counts are over, said with them: a digest counts the recalls stored in its period, so the two
 * agree only when they look at the same recalls, and each says which it looked at.
 */
function windowText(source: RecallSource): string {
  if (source.kind === 'live') return `published in the last ${source.hours ?? BOUNDS.hoursMax} h`;
  return source.sinceUs === undefined
    ? 'in the archive'
    : `in the archive published since ${new Date(Math.floor(source.sinceUs / 1000)).toISOString()}`;
}

/**
 * The run's last line (the counts, and the window they are over), said on a terminal or with -v (off one a success is
 * silent, so cron mails only problems), and its exit code.
 */
export function finish(plan: MatchPlan, session: Session, { counts, catalogue }: MatchSummary): void {
  session.ctx.ops?.counts({ fetched: counts.fetched });
  const filtered = counts.checked === counts.fetched ? '' : ` (${groupDigits(counts.checked)} after filters)`;
  const { rejected, unchecked } = catalogue;
  const uncheckedText = unchecked === 0 ? '' : ` · ${groupDigits(unchecked)} with a wrong check digit`;
  const excluded = counts.excluded === 0 ? '' : ` · ${groupDigits(counts.excluded)} excluded (out of scope)`;
  if (tellsSuccess(session))
    session.status.note(
      `catalogue: ${counted(catalogue.rows, 'row', 'rows')} · ${counted(rejected, 'barcode', 'barcodes')} rejected${uncheckedText} · recalls: ${groupDigits(counts.fetched)} ${windowText(plan.recalls)}${filtered} · ${counted(counts.match, 'match', 'matches')} · ${groupDigits(counts.possible)} possible${excluded}`,
    );
  if (plan.exitCode && counts.match > 0) throw new MatchesFoundError(counts.match);
}

/** What --open-cases opened (a success: said on a terminal or with -v, as the last line is). */
export function sayCases(session: Session, counts: { opened: number; existing: number }): void {
  if (tellsSuccess(session)) session.status.note(casesLine(counts));
}

/** Stores what `opener` gathered (--open-cases) and says it; a failure to write the archive is exit 10, naming it. */
export async function flushCases(opener: CaseOpener, archive: ArchiveStore, session: Session): Promise<void> {
  sayCases(session, await writing(archive.name, () => opener.flush(archive, session.ctx.now())));
}

/**
 * `output` whose commit waits for the cases (--open-cases): stored once its listing is written, every row of the
 * archive read by then (the archive is one connection), and before -o's file is put in place, so that a run whose cases
 * cannot be written (the disk full) leaves it as it was (docs/formats.md). stdout has had the rows already.
 */
export function casesBeforeCommit(
  output: RecordOutput,
  opener: CaseOpener | undefined,
  archive: ArchiveStore,
  session: Session,
): RecordOutput {
  if (!opener) return output;
  return {
    format: output.format,
    toFile: output.toFile,
    write: (fill, failed) =>
      output.write(async (sink) => {
        const filled = await fill(sink);
        session.status.stop();
        await flushCases(opener, archive, session);
        return filled;
      }, failed),
  };
}
