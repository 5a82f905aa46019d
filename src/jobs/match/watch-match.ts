// `match --watch`: the feed's watch loop, writing (and acting on) match rows instead of records.
import type { CatalogueIndex } from '../../match/matcher.js';
import type { Catalogue } from '../../match/catalogue.js';
import type { Context } from '../../runtime/context.js';
import type { Renderer } from '../../output/renderer.js';
import type { RecordSink } from '../../runtime/files/record-output.js';
import type { WatchPlan } from '../watch/plan.js';
import { withFeedRun } from '../watch/feed-run.js';
import { runWatch, type WatchOutput } from '../watch/watch.js';
import type { Session } from '../../runtime/session.js';
import { type DbChoice, writing } from '../../runtime/archive/archive-file.js';
import {
  caseOpener,
  casesLine,
  type CaseOpener,
  keyColumn,
  type OpenerOptions,
  streamedCaseOpener,
} from '../matching/open-cases.js';
import type { StatusReporter } from '../../runtime/terminal/status.js';
import { type PollMatcher, type StreamedWatchPlan, streamedPolls } from './watch-stream.js';
import { caseSla, type Sla } from '../matching/sla.js';
import type { ArchiveStore } from '../../archive/index.js';
import type { Format } from '../../runtime/settings.js';
import {
  byLevelThenSeverity,
  matchColumns,
  matchRow,
  matchTableColumns,
  reportCatalogue,
} from '../matching/match-rows.js';

/** `match --watch`: polls of the feed (planned from match's own flags as feed plans them), and how its rows are written. */
export interface MatchWatchPlan extends WatchPlan {
  format: Format;
  formulaGuard: boolean;
}

/** The poll matcher of a catalogue indexed whole (under STREAM_FROM_BYTES): the same rows, in the same order. */
function indexedPolls(catalogue: Catalogue, index: CatalogueIndex, status: StatusReporter): PollMatcher {
  reportCatalogue(catalogue, index.rejected, status);
  return {
    shape: catalogue,
    rows: async (records, onMatch) =>
      records.flatMap((recall) =>
        index.match(recall).map((m) => {
          if (m.level !== 'excluded') onMatch?.(m, recall);
          return matchRow(m, recall);
        }),
      ),
  };
}

/** Match rows on stdout; each match or possible row is an action's item, its id `<recall_id>:<catalogue row>`. */
function matchOutput(
  matcher: PollMatcher,
  plan: MatchWatchPlan,
  ctx: Context,
  sink: RecordSink,
  cases?: { opener: CaseOpener; archive: ArchiveStore; note: (line: string) => void },
): WatchOutput {
  let renderer: Renderer | undefined;
  const open = () =>
    sink.renderer({
      tableColumns: matchTableColumns(matcher.shape),
      csvColumns: matchColumns(matcher.shape),
      formulaGuard: plan.formulaGuard,
      wholeHeaders: true,
    });
  return {
    async prepare(records) {
      const rows = await matcher.rows(records, cases && ((m, recall) => cases.opener.add(m, recall)));
      return {
        // Actions fire for matches and possibles only: an excluded row (out of the notice's lots and dates) is printed
        // as the proof nothing was over-pulled, but an alert for a product not affected is noise to its receiver.
        items: rows
          .filter((row) => row.level !== 'excluded')
          .map((row) => ({ id: `${String(row.recall_id)}:${String(row.catalog_line)}`, record: row })),
        async write() {
          if (rows.length === 0) return;
          renderer ??= open();
          // A table lists each poll's matches first, then possibles, then excluded rows; other formats as found.
          await renderer.write(sink.format.forPeople ? [...rows].sort(byLevelThenSeverity) : rows);
          if (cases)
            cases.note(
              casesLine(await writing(cases.archive.name, () => cases.opener.flush(cases.archive, ctx.now()))),
            );
        },
      };
    },
    end: async () => renderer?.end(),
  };
}

/** What a watch checks each poll against: the catalogue indexed whole, or (8 MiB and over) its file, streamed. */
export type WatchCatalogue =
  | { kind: 'indexed'; catalogue: Catalogue; index: CatalogueIndex }
  | ({ kind: 'streamed' } & StreamedWatchPlan);

/**
 * Polls like `feed --watch` (its files under the feed's run lock) and matches each new recall. `run`: with the output,
 * and with --open-cases the archive the cases go to (created when missing, as `sync` would), that matchUses() declared.
 */
export async function watchMatch(
  plan: MatchWatchPlan,
  source: WatchCatalogue,
  run: Session,
  openCases?: { key: string | undefined; db: DbChoice; levels?: readonly ('match' | 'possible')[]; sla?: Sla },
): Promise<void> {
  const { ctx } = run;
  const output = await run.output();
  const archive = run.store;
  return withFeedRun(plan, run, async (session) => {
    const { status } = session;
    const matcher =
      source.kind === 'indexed'
        ? indexedPolls(source.catalogue, source.index, status)
        : await streamedPolls(source, status, ctx.signal);
    const sla = openCases && (await caseSla(openCases.sla, session.settings.profileCaseSla));
    const opener = openCases && watchOpener(source, matcher, status, { ...openCases, sla });
    const note = (line: string) => status.note(line);
    const cases = opener && archive ? { opener, archive, note } : undefined;
    await output.write((sink) => runWatch(plan, session, ctx, matchOutput(matcher, plan, ctx, sink, cases)));
  });
}

/** The opener of a watch's cases: a streamed catalogue's keys are counted among the rows that found a recall. */
function watchOpener(
  source: WatchCatalogue,
  matcher: PollMatcher,
  status: StatusReporter,
  opts: OpenerOptions & { key: string | undefined },
): CaseOpener {
  if (source.kind === 'indexed') return caseOpener(source.catalogue, opts.key, status, opts);
  return streamedCaseOpener(matcher.shape, keyColumn(matcher.shape, opts.key), status, opts);
}
